/**
 * The hostile suite of issue #21 (npm run test:hostile): the same set-up as jest.config.js's "shared"
 * project (a worker thread with one module cache, jest-light-runner), only test/hostile, one file at
 * a time (each test probes /healthz latency while its attack runs). One module cache for the five
 * files: the server's modules load once, not once per file (82 → 34 s wall, 52 → 22 CPU-s at load 7.5).
 */
const base = require('./jest.config');

const hostileProject = Object.fromEntries(
  Object.entries(base.projects[0]).filter(([k]) => k !== 'displayName' && k !== 'testPathIgnorePatterns'),
);

delete process.env.BPIGRAPH_PG_SUBSET; // the hostile files run whole on either database
// 30 s a test or hook unless it names its own (test/helpers/timeouts.ts: the light runner reads no testTimeout)
process.env.TEST_TIMEOUT_MS ??= '30000';

/** @type {import('jest').Config} */
module.exports = {
  ...hostileProject,
  testMatch: ['**/*.test.ts'],
  reporters: base.reporters,
  forceExit: true,
  roots: ['<rootDir>/test/hostile'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
