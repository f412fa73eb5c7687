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

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The hostile suite runs on its own, one file at a time (npm run test:hostile, jest.hostile.config.js):
  // it measures /healthz latency, which parallel test files would disturb.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/hostile/'],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  // jose is ESM-only: let swc turn it into CommonJS for jest's sandbox.
  transformIgnorePatterns: ['/node_modules/(?!(jose)/)'],
  setupFiles: ['<rootDir>/test/helpers/setup-env.ts'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
  forceExit: true,
};
