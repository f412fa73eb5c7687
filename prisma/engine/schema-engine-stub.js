#!/usr/bin/env node
// Stand-in for Prisma's native schema engine, which cannot be downloaded here.
// `prisma generate` only needs the file to exist; migrations run on the WebAssembly engine.
console.error('bpigraph: the native Prisma schema engine is not used here — use npm run db:migrate / npm run db:diff');
process.exit(1);
