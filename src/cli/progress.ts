/**
 * Progress of a long command on stderr: a one-line bar redrawn in place on a terminal; plain lines
 * (`label: 40% (800/2000)`, every 10 % and at the end) when stderr is not a TTY (a log, CI, a pipe).
 */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const tty = Boolean(stream.isTTY);
  let last = -1;
  let lastLine = -1;
  return {
    update(done: number, total: number) {
      if (total <= 0) return;
      const pct = Math.floor((done / total) * 100);
      if (pct === last) return;
      last = pct;
      if (!tty) {
        const step = Math.floor(pct / 10) * 10;
        if (step === lastLine) return;
        lastLine = step;
        stream.write(`${label}: ${pct}% (${done}/${total})\n`);
        return;
      }
      const width = 30;
      const filled = Math.round((pct / 100) * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct}% (${done}/${total})`);
    },
    done() {
      if (tty && last >= 0) stream.write('\n');
    },
  };
}

/** The first `limit` lines of a list, then "… and N more (--json for all)" when there are more. */
export function listSome<T>(items: readonly T[], line: (item: T) => string, limit = 20): string[] {
  const out = items.slice(0, limit).map(line);
  if (items.length > limit) out.push(`  … and ${items.length - limit} more (--json for the full report)`);
  return out;
}
