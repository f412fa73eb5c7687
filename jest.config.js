/** @type {import('jest').Config} */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

// On PostgreSQL (DATABASE_URL set) `npm test` runs what a database can change: the integration
// tests that read and write through SQL. Left out there (TEST_ALL=1 runs them anyway), because they
// answer the same on either database: the pure unit tests, the browser pictures, and the platform
// files that exercise HTTP, limits and tooling (the CLI files always use a throw-away embedded
// database of their own). The PGlite run (and `.ci/run`'s PGlite half) runs every file.
const DATABASE_INSENSITIVE = [
  '<rootDir>/test/unit/',
  '<rootDir>/test/browser/',
  // the PNG renditions: rasterising is the cost (~30 s of a worker); the cards' reads run on
  // PostgreSQL in card-documents.test.ts, the charts' with the SVGs in dashboard.test.ts (privacy:
  // auth-matrix.test.ts)
  '<rootDir>/test/integration/stats/share-pictures\\.test\\.ts$',
  '<rootDir>/test/integration/platform/(apollo-client|cli|cors|cors\\.browser|explorer\\.browser|fuzz-graphql|fuzz-rest|limits|metrics|migrations|openapi|operator-defaults|ratelimit|startup|tracing|typed-client|compiled-executor)\\.test\\.ts$',
  // (the CLI files and the start-up smoke run on an embedded data dir of their own whatever DATABASE_URL says)
  '<rootDir>/test/integration/(auth/auth-cli|scores/scores-cli|catalogue/provisional-cli)\\.test\\.ts$',
];
const onPostgres = Boolean(process.env.DATABASE_URL) && !process.env.TEST_ALL;
if (onPostgres) process.env.BPIGRAPH_PG_SUBSET = '1';

// Files that declare their own type-graphql classes (decorators fill one global metadata store that
// every later schema build in the process would read): they keep jest's own runner, a vm sandbox
// per file.
const NEEDS_SANDBOX = ['<rootDir>/test/unit/(speed-path|invoke-authorized|invoke-honesty)\\.test\\.ts$'];

const project = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  // jose is ESM-only: let swc turn it into CommonJS for jest's sandbox.
  transformIgnorePatterns: ['/node_modules/(?!(jose)/)'],
  setupFiles: ['<rootDir>/test/helpers/setup-env.ts'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  // Generous: CI machines are shared; a hook importing the real definitions took > 60 s at load 30.
  testTimeout: 180000,
};
// The hostile suite runs on its own, one file at a time (npm run test:hostile, jest.hostile.config.js):
// it measures /healthz latency, which parallel test files would disturb.
// The doc drill runs on its own too (npm run test:docs, jest.docs.config.js): its shell blocks start
// ~20 processes, a third of the suite's CPU; `.ci/run` runs it beside `npm test`.
const ignored = [
  '/node_modules/',
  '<rootDir>/test/hostile/',
  '<rootDir>/test/drills/',
  ...(onPostgres ? DATABASE_INSENSITIVE : []),
];

const without = (o, ...keys) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

module.exports = {
  projects: [
    {
      ...project,
      displayName: 'shared',
      // Each worker is a thread that runs its test files one after the other with one module cache
      // (jest-light-runner): the server's modules load and warm up once per worker instead of once
      // per file in a fresh vm sandbox (bench/RESULTS.md has the CPU it saves). TypeScript goes
      // through @swc-node/register, as in `npm start` (the `npm test` command loads it, with
      // test/helpers/ts-hooks.mjs for import()); test/helpers/timeouts.ts gives tests and hooks
      // their time limits.
      runner: 'jest-light-runner',
      setupFilesAfterEnv: ['<rootDir>/test/helpers/timeouts.ts'],
      testPathIgnorePatterns: [...ignored, ...NEEDS_SANDBOX],
    },
    {
      ...without(project, 'testMatch'),
      displayName: 'sandboxed',
      testRegex: NEEDS_SANDBOX.map((p) => p.replace('<rootDir>/', '/')),
      testPathIgnorePatterns: ignored,
    },
  ],
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
  forceExit: true,
};
