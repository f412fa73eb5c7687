// Prints one plain closing line that any CI log reader understands:
//   "jest: 315 passed, 0 failed, 2 skipped"
// preceded by the ten slowest test files (wall time), to see where CI's minutes go.
const path = require('node:path');

class SummaryReporter {
  constructor() {
    this.files = [];
  }

  onTestResult(_test, result) {
    const { start, end } = result.perfStats ?? {};
    if (start && end) this.files.push([path.relative(process.cwd(), result.testFilePath), end - start]);
  }

  onRunComplete(_contexts, results) {
    const { numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped, numTodoTests: todo } = results;
    const slowest = this.files.sort((a, b) => b[1] - a[1]).slice(0, 10);
    if (slowest.length > 1) process.stdout.write(`\nslowest test files: ${slowest.map(([f, ms]) => `${f} ${(ms / 1000).toFixed(1)} s`).join(', ')}\n`);
    process.stdout.write(`\njest: ${passed} passed, ${failed} failed, ${skipped + todo} skipped\n`);
  }
}
module.exports = SummaryReporter;
