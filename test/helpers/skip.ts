import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Conditional tests that say why they are skipped. A skipped block records its reason in a file of
 * this run; the summary reporter (test/helpers/summary-reporter.js) prints, under the totals, every
 * file with skipped tests and the reasons given (or "no reason recorded" for a bare `.skip`).
 */
export function skipLog(): string {
  return path.join(os.tmpdir(), `bpigraph-skips-${process.env.BPIGRAPH_TEST_RUN ?? 'local'}.jsonl`);
}

function record(name: string, reason: string): void {
  const file = expect.getState().testPath ?? 'unknown';
  fs.appendFileSync(skipLog(), JSON.stringify({ file, name, reason }) + '\n');
}

/** `describe` when `run`, else a skipped describe whose reason is reported. */
export function describeIf(run: boolean, reason: string): (name: string, fn: () => void) => void {
  return (name, fn) => {
    if (run) return describe(name, fn);
    record(name, reason);
    describe.skip(name, fn);
  };
}

/** `it` when `run`, else a skipped test whose reason is reported. */
export function itIf(
  run: boolean,
  reason: string,
): (name: string, fn: jest.ProvidesCallback, timeout?: number) => void {
  return (name, fn, timeout) => {
    if (run) return it(name, fn, timeout);
    record(name, reason);
    it.skip(name, fn);
  };
}
