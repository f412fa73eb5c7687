import os from 'node:os';
import path from 'node:path';

/** Where global setup leaves the migrated template for test files. */
export const templateDump = (seeded = false) =>
  path.join(
    os.tmpdir(),
    `bpigraph-test-template-${process.env.BPIGRAPH_TEST_RUN ?? 'local'}${seeded ? '-seeded' : ''}.tar`,
  );

/** The migrated template database; `seeded`: the same plus the demo catalogue (src/db/seed.ts). */
export function templateDbName(seeded = false): string {
  return `bpigraph_tpl_${process.env.BPIGRAPH_TEST_RUN}${seeded ? '_seeded' : ''}`;
}

/** The admin URL (same server, maintenance database) for CREATE/DROP DATABASE. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
