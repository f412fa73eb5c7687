/**
 * The hostile suite of issue #21 (npm run test:hostile): the same set-up as jest.config.js, only
 * test/hostile, one file at a time (each test probes /healthz latency while its attack runs).
 */
const base = require('./jest.config');

delete process.env.BPIGRAPH_PG_SUBSET; // the hostile files run whole on either database

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/hostile'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  testTimeout: 30000,
};
