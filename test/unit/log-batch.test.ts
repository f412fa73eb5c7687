import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { LineBatch } from '../../src/logger';

/** A destination that records what LineBatch hands it. */
function sink() {
  const calls: string[] = [];
  return {
    calls,
    write(chunk: string) {
      calls.push(`write:${chunk}`);
      return true;
    },
    flush(cb?: (err?: Error) => void) {
      calls.push('flush');
      cb?.();
    },
    flushSync() {
      calls.push('flushSync');
    },
    end() {
      calls.push('end');
    },
  };
}

describe('LineBatch (the access log gathered before the destination)', () => {
  it('hands the lines over joined once they reach the batch size, not before', () => {
    const s = sink();
    // min 10 characters: "aaaa\n" (5) waits, "bbbb\n" (5 + 5 = 10 ≥ 10) drains both in one write
    const b = new LineBatch(s, 10, 60_000);
    b.write('aaaa\n');
    expect(s.calls).toEqual([]);
    b.write('bbbb\n');
    expect(s.calls).toEqual(['write:aaaa\nbbbb\n']);
    // counting starts again: "cc\n" (3) waits
    b.write('cc\n');
    expect(s.calls).toHaveLength(1);
  });

  it('drains before every flush and before end, so nothing gathered is lost', async () => {
    const s = sink();
    const b = new LineBatch(s, 1_000, 60_000);
    b.write('one\n');
    b.flushSync();
    b.write('two\n');
    await new Promise<void>((resolve) => b.flush(() => resolve()));
    b.write('three\n');
    b.end();
    expect(s.calls).toEqual(['write:one\n', 'flushSync', 'write:two\n', 'flush', 'write:three\n', 'end']);
    // nothing gathered: a flush writes nothing more
    b.flushSync();
    expect(s.calls.slice(-1)).toEqual(['flushSync']);
  });

  it('drains on its timer when the batch stays below its size', async () => {
    const s = sink();
    const b = new LineBatch(s, 1_000, 20);
    b.write('late\n');
    await new Promise((r) => setTimeout(r, 120));
    expect(s.calls).toEqual(['write:late\n']);
  });

  it.each([
    ['a normal exit', ''],
    ['process.exit()', 'process.exit(0);'],
  ])('the process logger writes every line on %s', (_name, exit) => {
    // 5 lines of ~60 bytes: far below the 32 KiB batch, so only the exit hook can write them
    const script = `
      const { createLogger } = require(${JSON.stringify(path.resolve('src/logger.ts'))});
      const log = createLogger('info');
      for (let i = 0; i < 5; i++) log.info({ i }, 'line');
      ${exit}`;
    const r = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const lines = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { i: number; msg: string });
    expect(lines.map((l) => l.i)).toEqual([0, 1, 2, 3, 4]);
  });

  it('never waits for a pipe nobody reads, and loses no line once it is read', async () => {
    // 20,000 lines of ~70 bytes (1.4 MB) into a pipe of 64 KiB that is not read until the child has
    // logged them all: a blocking write would stall the child's loop until the parent reads
    const script = `
      const { createLogger } = require(${JSON.stringify(path.resolve('src/logger.ts'))});
      const log = createLogger('info');
      for (let i = 0; i < 20000; i++) log.info({ i }, 'line');
      setImmediate(() => process.stderr.write('logged\\n'));`;
    const child = spawn(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pause();
    let err = '';
    const waited = new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('logged')) resolve();
      });
      child.on('exit', () => reject(new Error(`exited before logging everything: ${err}`)));
      // (a blocking destination never gets there while the pipe is full)
      setTimeout(() => reject(new Error('the child did not finish logging with its stdout unread')), 20_000).unref();
    });
    try {
      await waited;
    } catch (e) {
      child.kill('SIGKILL');
      throw e;
    }
    // the child's loop went on with the pipe full; now read everything
    const chunks: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(20000);
    expect(lines.every((l, k) => (JSON.parse(l) as { i: number }).i === k)).toBe(true);
  });
});
