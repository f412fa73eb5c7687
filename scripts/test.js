#!/usr/bin/env node
/**
 * `npm test`: the client codegen, then the type check and jest side by side (arguments go to jest).
 *
 * The type check is one process on one core (~60 s on a clean clone, a few seconds with its
 * incremental cache) and jest's workers leave a core idle now and then (processes starting,
 * sockets, timers): run together, the check costs the suite little wall time where it used to come
 * first (issue #31). Its output is printed after jest's; either failing fails the command.
 */
const { spawn, spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');
const node = process.execPath;

const codegen = spawnSync(node, ['-r', '@swc-node/register', 'scripts/codegen.ts'], { cwd: root, stdio: 'inherit' });
if (codegen.status !== 0) process.exit(codegen.status ?? 1);

const buildInfo = `.cache/tsc-test${process.env.DATABASE_URL ? '-pg' : ''}.tsbuildinfo`;
const tsc = spawn(
  node,
  [
    require.resolve('typescript/bin/tsc'),
    '-p',
    'tsconfig.json',
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    buildInfo,
    '--pretty',
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
);
let tscOut = '';
tsc.stdout.on('data', (d) => (tscOut += d));
tsc.stderr.on('data', (d) => (tscOut += d));
const tscDone = new Promise((resolve) => tsc.on('close', (code) => resolve(code ?? 1)));

const jest = spawn(
  node,
  [
    '-r',
    '@swc-node/register',
    '--import',
    './test/helpers/ts-hooks.mjs',
    'node_modules/jest/bin/jest.js',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
const jestDone = new Promise((resolve) => jest.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    tsc.kill(sig);
    jest.kill(sig);
  });

Promise.all([tscDone, jestDone]).then(([tscCode, jestCode]) => {
  if (tscCode !== 0) {
    process.stdout.write(`\n== type check (tsc -p tsconfig.json --noEmit) failed:\n${tscOut}\n`);
  } else {
    process.stdout.write('\n== type check (tsc -p tsconfig.json --noEmit): no errors\n');
  }
  process.exit(jestCode !== 0 ? jestCode : tscCode);
});
