import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { templateDump } from './template';

/**
 * Reused in-memory PGlite instances for the test files of one worker (issue #31: a clone of the
 * template cost each test file ~1.3 s of CPU — the untar into PGlite's memory file system and
 * PostgreSQL's start — a third of the suite's CPU).
 *
 * An instance is cloned from the seeded template once per worker; every lease then resets it to the
 * template's rows instead: after a file closes its database, the next lease truncates every table
 * (RESTART IDENTITY), puts back the rows the template holds (the migrations' and, for a seeded
 * lease, the demo catalogue's, kept as JSON), sets the sequences to the template's values and
 * discards the session's state (settings, LISTENs, advisory locks, temporary tables, prepared
 * statements).
 * What a file cannot carry over to the next:
 * - its statements: each lease hands out a revocable proxy of the instance; a job of a closed file
 *   that is still running fails on the revoked proxy instead of writing into the next file's rows;
 * - schema changes: the schema's fingerprint is compared at release, and an instance whose schema
 *   a test changed is closed, not reused.
 * `BPIGRAPH_TEST_POOL=off` clones as before (one instance per database).
 */

interface Snapshot {
  /** table → its rows as a JSON array (only tables with rows). */
  rows: Map<string, string>;
  /** sequence → [last_value, is_called]. */
  sequences: Map<string, [string, boolean]>;
}

interface Pooled {
  pg: PGlite;
  fingerprint: string;
}

const idle: Pooled[] = [];
let templates: Promise<{ plain: Snapshot; seeded: Snapshot; tables: string[]; fingerprint: string }> | undefined;

export const poolEnabled = () => process.env.BPIGRAPH_TEST_POOL !== 'off';

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function tablesOf(pg: PGlite): Promise<string[]> {
  const r = await pg.query<{ t: string }>(
    `SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1`,
  );
  return r.rows.map((x) => x.t);
}

async function snapshot(pg: PGlite, tables: string[]): Promise<Snapshot> {
  const rows = new Map<string, string>();
  for (const t of tables) {
    const r = await pg.query<{ j: string | null }>(`SELECT json_agg(x)::text AS j FROM ${q(t)} x`);
    if (r.rows[0].j) rows.set(t, r.rows[0].j);
  }
  const sequences = new Map<string, [string, boolean]>();
  const seqs = await pg.query<{ s: string }>(
    `SELECT sequencename AS s FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`,
  );
  for (const { s } of seqs.rows) {
    const v = await pg.query<{ last_value: string; is_called: boolean }>(`SELECT last_value, is_called FROM ${q(s)}`);
    sequences.set(s, [String(v.rows[0].last_value), v.rows[0].is_called]);
  }
  return { rows, sequences };
}

/** Columns, types, defaults, constraints, indexes, triggers and functions of the public schema. */
async function fingerprintOf(pg: PGlite): Promise<string> {
  const r = await pg.query<{ f: string }>(`
    SELECT md5(concat_ws('|',
      (SELECT string_agg(table_name || '.' || column_name || ':' || data_type || ':' || coalesce(column_default, '') || ':' || is_nullable, ',' ORDER BY table_name, column_name)
         FROM information_schema.columns WHERE table_schema = 'public'),
      (SELECT string_agg(indexdef, ',' ORDER BY indexdef) FROM pg_indexes WHERE schemaname = 'public'),
      (SELECT string_agg(conname || pg_get_constraintdef(c.oid), ',' ORDER BY conname)
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'),
      (SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger WHERE NOT tgisinternal),
      (SELECT string_agg(p.proname || md5(p.prosrc), ',' ORDER BY p.proname)
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'),
      (SELECT string_agg(viewname, ',' ORDER BY viewname) FROM pg_views WHERE schemaname = 'public'),
      (SELECT count(*)::text FROM _prisma_migrations)
    )) AS f`);
  return r.rows[0].f;
}

async function clone(seeded: boolean): Promise<PGlite> {
  const pg = new PGlite({ loadDataDir: new Blob([fs.readFileSync(templateDump(seeded))]) });
  await pg.waitReady;
  return pg;
}

function loadTemplates() {
  templates ??= (async () => {
    const plainPg = await clone(false);
    const tables = await tablesOf(plainPg);
    const plain = await snapshot(plainPg, tables);
    await plainPg.close();
    const pg = await clone(true);
    const seeded = await snapshot(pg, tables);
    const fingerprint = await fingerprintOf(pg);
    idle.push({ pg, fingerprint });
    return { plain, seeded, tables, fingerprint };
  })();
  return templates;
}

async function reset(pg: PGlite, tables: string[], snap: Snapshot): Promise<void> {
  // (a transaction a closed file left open would keep its rows)
  await pg.exec('ROLLBACK').catch(() => undefined);
  await pg.exec('DISCARD ALL');
  await pg.transaction(async (tx) => {
    await tx.exec(`TRUNCATE ${tables.map(q).join(', ')} RESTART IDENTITY CASCADE`);
    // (the template's rows go back as they were: no triggers, foreign keys not re-checked)
    await tx.exec('SET LOCAL session_replication_role = replica');
    for (const [t, json] of snap.rows)
      await tx.query(`INSERT INTO ${q(t)} SELECT * FROM json_populate_recordset(NULL::${q(t)}, $1::json)`, [json]);
    for (const [s, [value, called]] of snap.sequences)
      await tx.query(`SELECT setval($1, $2::bigint, $3)`, [q(s), value, called]);
  });
}

/** A reset instance for one database handle, and the function that gives it back. */
export async function leasePglite(seeded: boolean): Promise<{ instance: PGlite; release(): Promise<void> }> {
  const tpl = await loadTemplates();
  const pooled = idle.pop() ?? { pg: await clone(true), fingerprint: tpl.fingerprint };
  await reset(pooled.pg, tpl.tables, seeded ? tpl.seeded : tpl.plain);
  // (methods bound to the instance: PGlite keeps its state in private fields)
  const { proxy, revoke } = Proxy.revocable(pooled.pg, {
    get(target, key) {
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  let released = false;
  return {
    instance: proxy,
    async release() {
      if (released) return;
      released = true;
      revoke();
      const fingerprint = await fingerprintOf(pooled.pg).catch(() => 'closed');
      if (fingerprint === tpl.fingerprint && idle.length < 2) idle.push(pooled);
      else await pooled.pg.close().catch(() => undefined);
    },
  };
}
