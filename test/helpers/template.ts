import fs from 'node:fs';
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

/**
 * A PGlite data-dir dump made cheaper to clone (every test file loads one; the untar into the
 * in-memory file system and PostgreSQL's start-up are most of a clone's cost): taken right after a
 * CHECKPOINT (no WAL to replay on start), without the template0/template1 databases (base/1,
 * base/4: PGlite connects to `postgres` and nothing here creates a database), and with the WAL
 * segment cut after its last written page (the rest is zeros PostgreSQL never reads; it extends
 * the file as it writes). 42.8 MB and ~1,230 files → ~20 MB and ~630 files.
 */
export async function slimDump(pg: {
  query(sql: string): Promise<unknown>;
  dumpDataDir(compression?: 'none'): Promise<Blob>;
}): Promise<Buffer> {
  await pg.query('CHECKPOINT');
  const tar = Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer());
  const parts: Buffer[] = [];
  const field = (h: Buffer, from: number, to: number) => h.toString('latin1', from, to).replace(/\0.*$/s, '');
  let off = 0;
  while (off + 512 <= tar.length) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const prefix = field(header, 345, 500);
    const name = (prefix ? `${prefix}/` : '') + field(header, 0, 100);
    const size = parseInt(field(header, 124, 136).trim() || '0', 8);
    const next = off + 512 + Math.ceil(size / 512) * 512;
    if (/\/base\/(1|4)(\/|$)/.test(name)) {
      off = next;
      continue;
    }
    if (/\/pg_wal\/[0-9A-F]{24}$/.test(name)) {
      const data = tar.subarray(off + 512, off + 512 + size);
      let end = data.length;
      while (end > 0 && data[end - 1] === 0) end--;
      end = Math.min(data.length, (Math.ceil(end / 8192) + 1) * 8192);
      const h = Buffer.from(header);
      h.write(`${end.toString(8).padStart(11, '0')}\0`, 124, 12, 'latin1');
      h.fill(0x20, 148, 156); // the checksum is summed with its own field as spaces
      let sum = 0;
      for (const b of h) sum += b;
      h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
      parts.push(h, data.subarray(0, end), Buffer.alloc(Math.ceil(end / 512) * 512 - end));
      off = next;
      continue;
    }
    parts.push(tar.subarray(off, next));
    off = next;
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/**
 * A new data dir (DATA_DIR) for the CLI or a server process, already migrated and empty: a copy of
 * the one global setup makes (test/helpers/global-setup.ts), or an empty directory when there is
 * none (the PostgreSQL run makes none: the process then creates the database as on a new machine).
 */
export function migratedDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const from = process.env.BPIGRAPH_TEST_DATADIR;
  if (from && fs.existsSync(from)) fs.cpSync(from, dir, { recursive: true });
  return dir;
}
