/**
 * The hostile suite of issue #21 (npm run test:hostile): the same set-up as jest.config.js, only
 * test/hostile, one file at a time (each test probes /healthz latency while its attack runs).
 */
const base = require('./jest.config');

const hostileProject = Object.fromEntries(
  Object.entries(base.projects[1]).filter(([k]) => k !== 'displayName' && k !== 'testRegex'),
);

delete process.env.BPIGRAPH_PG_SUBSET; // the hostile files run whole on either database

/** @type {import('jest').Config} */
module.exports = {
  // jest's own runner (a vm sandbox per file): the "sandboxed" project of jest.config.js, on test/hostile
  ...hostileProject,
  testMatch: ['**/*.test.ts'],
  reporters: base.reporters,
  forceExit: true,
  roots: ['<rootDir>/test/hostile'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  testTimeout: 30000,
};
