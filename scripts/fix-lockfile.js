#!/usr/bin/env node
// The registry this project installs from serves only this platform's builds of packages with
// per-platform optional binaries (@swc/core-*, @unrs/resolver-binding-*…), so `npm install`
// leaves the other platforms out of package-lock.json — and `npm ci` then refuses the lock as
// out of sync. This adds a minimal optional entry for each missing one (npm ci skips them here).
// Run after every `npm install`: `npm run lock:fix`.
const fs = require('node:fs');
const path = require('node:path');
const file = path.resolve(__dirname, '../package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pk = lock.packages;
let added = 0;
for (const [where, meta] of Object.entries(pk)) {
  for (const [name, spec] of Object.entries(meta.optionalDependencies || {})) {
    const nested = where ? `${where}/node_modules/${name}` : `node_modules/${name}`;
    const top = `node_modules/${name}`;
    if (pk[nested] || pk[top]) continue;
    pk[top] = { version: String(spec).replace(/^[\^~=]/, ''), optional: true };
    added++;
  }
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`package-lock.json: ${added} optional platform entries added`);
