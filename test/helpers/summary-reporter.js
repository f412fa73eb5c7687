// Prints one plain closing line that any CI log reader understands:
//   "jest: 315 passed, 0 failed, 2 skipped"
// preceded by the ten slowest test files (wall time), to see where CI's minutes go, and by every
// file with skipped tests and why (the reasons test/helpers/skip.ts recorded).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

class SummaryReporter {
  constructor() {
    this.files = [];
    this.skipped = new Map();
  }

  onTestResult(_test, result) {
    const { start, end } = result.perfStats ?? {};
    const file = path.relative(process.cwd(), result.testFilePath);
    if (start && end) this.files.push([file, end - start]);
    const pending = (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
    if (pending > 0) this.skipped.set(result.testFilePath, pending);
  }

  skipReasons() {
    const log = path.join(os.tmpdir(), `bpigraph-skips-${process.env.BPIGRAPH_TEST_RUN ?? 'local'}.jsonl`);
    const reasons = new Map();
    if (!fs.existsSync(log)) return reasons;
    for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
      if (!line) continue;
      const { file, reason } = JSON.parse(line);
      if (!reasons.has(file)) reasons.set(file, new Set());
      reasons.get(file).add(reason);
    }
    fs.rmSync(log, { force: true });
    return reasons;
  }

  onRunComplete(_contexts, results) {
    const { numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped, numTodoTests: todo } = results;
    const slowest = this.files.sort((a, b) => b[1] - a[1]).slice(0, 10);
    if (slowest.length > 1)
      process.stdout.write(
        `\nslowest test files: ${slowest.map(([f, ms]) => `${f} ${(ms / 1000).toFixed(1)} s`).join(', ')}\n`,
      );
    const reasons = this.skipReasons();
    if (this.skipped.size > 0) {
      process.stdout.write('\nskipped tests, and why:\n');
      for (const [file, n] of this.skipped) {
        const why = reasons.has(file) ? [...reasons.get(file)].join('; ') : 'no reason recorded (a bare .skip)';
        process.stdout.write(`  ${path.relative(process.cwd(), file)}: ${n} skipped: ${why}\n`);
      }
    }
    if (process.env.BPIGRAPH_PG_SUBSET) {
      process.stdout.write(
        '\nPostgreSQL run: the database-insensitive files (unit, browser, HTTP platform, CLI) were left out (jest.config.js; TEST_ALL=1 runs them)\n',
      );
    }
    process.stdout.write(`\njest: ${passed} passed, ${failed} failed, ${skipped + todo} skipped\n`);
  }
}
module.exports = SummaryReporter;
