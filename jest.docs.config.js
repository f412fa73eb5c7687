/**
 * The doc drill (npm run test:docs): the shell blocks of README.md and docs/ run as pasted in a fresh
 * clone-like directory (test/drills/docs-shell.test.ts). Same set-up as jest.config.js's `shared`
 * project, only test/drills.
 */
const base = require('./jest.config');

const shared = Object.fromEntries(Object.entries(base.projects[0]).filter(([k]) => k !== 'displayName'));

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  roots: ['<rootDir>/test/drills'],
  testPathIgnorePatterns: ['/node_modules/'],
  reporters: base.reporters,
  forceExit: true,
  maxWorkers: 1,
};
