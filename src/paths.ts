import fs from 'node:fs';
import path from 'node:path';

/**
 * The package root (the directory holding package.json, prisma/ and schema.graphql), found by
 * walking up from this file: the same from the TypeScript sources (src/) and from the compiled
 * output (dist/src/), so `npm run build && npm run start:prod` finds the migrations.
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'prisma'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`bpigraph: no package root (package.json + prisma/) above ${from}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(__dirname);
