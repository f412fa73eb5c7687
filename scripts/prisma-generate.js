#!/usr/bin/env node
// Runs `prisma generate` offline: the CLI insists on a schema-engine binary path but generate
// never executes it, so we point it at a stub (prisma/engine/schema-engine-stub.js).
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const root = path.resolve(__dirname, '..');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: path.join(root, 'prisma/engine/schema-engine-stub.js'),
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
const bin = path.join(root, 'node_modules/prisma/build/index.js');
const r = spawnSync(process.execPath, [bin, 'generate'], { cwd: root, env, stdio: 'inherit' });
process.exit(r.status ?? 1);
