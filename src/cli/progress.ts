/** A one-line progress bar on a terminal (silent when stderr is not a TTY). */
export function progressBar(label: string) {
  const tty = Boolean(process.stderr.isTTY);
  let last = -1;
  return {
    update(done: number, total: number) {
      if (!tty || total <= 0) return;
      const pct = Math.floor((done / total) * 100);
      if (pct === last) return;
      last = pct;
      const width = 30;
      const filled = Math.round((pct / 100) * width);
      process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct}% (${done}/${total})`);
    },
    done() {
      if (tty && last >= 0) process.stderr.write('\n');
    },
  };
}
