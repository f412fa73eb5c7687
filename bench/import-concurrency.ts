/**
 * Concurrent imports on PostgreSQL (#28): imports per second with 1, 4 and 16 importers at once,
 * (a) each importer for its own player — they run in parallel — and (b) all for the same player —
 * they serialise on the player's lock (src/modules/scores/import.service.ts). Each import is 450
 * rows (150 songs × HYPER / ANOTHER / LEGGENDARIA, all with a definition) whose EX rises with the
 * import's number, so every import improves bests, writes plays, rank blocks and the total.
 * In-process (importScores, no HTTP), one pool of 20 connections, a throw-away database
 * (DATABASE_URL / BENCH_PG_URL server, default postgresql://postgres@127.0.0.1:5432/postgres).
 * Every import must succeed: the run fails on any error (a deadlock, a lost update surfacing…).
 *   npm run bench:import-concurrency          (IMPORTS=48 imports per scenario by default)
 */
import 'reflect-metadata';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { importDefinitions } from '../src/db/definitions';
import { applyMigrations } from '../src/db/migrate';
import { importScores, type ImportRow } from '../src/modules/scores/import.service';
import { Catalogue } from '../src/modules/catalogue/catalogue';
import { fmt, pgAdminUrl, pgUrl, record } from './lib';

const SONGS = 150;
const IMPORTS = Number(process.env.IMPORTS) || 48;
const CODES = [
  ['3', 'HYPER'],
  ['4', 'ANOTHER'],
  ['10', 'LEGGENDARIA'],
] as const;
const title = (i: number) => `Concurrent Song ${String(i).padStart(3, '0')}`;
const notes = (i: number, k: number) => 900 + ((i * 37) % 600) + k * 200;

async function catalogueOf(db: DatabaseHandle): Promise<Catalogue> {
  const body = [];
  for (let i = 0; i < SONGS; i++)
    for (const [k, [code]] of CODES.entries()) {
      const n = notes(i, k);
      body.push({
        title: title(i),
        difficulty: code,
        notes: n,
        wr: Math.floor(n * 1.9),
        avg: Math.floor(n * 1.6),
        bpm: '150',
        textage: `30/c${i}.html`,
        difficultyLevel: k === 0 ? '11' : '12',
        dpLevel: '0',
        coef: -1,
      });
    }
  await importDefinitions(db.prisma, { version: 'bench-concurrency-1', requireVersion: '0', body });
  const catalogue = new Catalogue(db.prisma);
  await catalogue.load();
  return catalogue;
}

/** Import number `n`'s rows: every chart, EX = notes × (1.2 + n / 200) (rising with n, below the maximum). */
function rowsOf(n: number): ImportRow[] {
  const rows: ImportRow[] = [];
  for (let i = 0; i < SONGS; i++)
    for (const [k, [, difficulty]] of CODES.entries()) {
      const max = notes(i, k) * 2;
      rows.push({
        line: 0,
        title: title(i),
        playStyle: 'SP',
        difficulty,
        level: k === 0 ? 11 : 12,
        exScore: Math.min(max - 1, Math.floor(notes(i, k) * (1.2 + n / 200))),
        clearLamp: 'CLEAR',
        missCount: 10,
        lastPlayed: `2025-06-01 12:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`,
      });
    }
  return rows;
}

interface Scenario {
  importers: number;
  samePlayer: boolean;
}

async function run(db: DatabaseHandle, catalogue: Catalogue, sc: Scenario) {
  const perImporter = Math.max(1, Math.round(IMPORTS / sc.importers));
  const players: string[] = [];
  for (let p = 0; p < (sc.samePlayer ? 1 : sc.importers); p++) {
    const name = `bench${sc.importers}${sc.samePlayer ? 's' : 'd'}${p}`;
    players.push((await db.prisma.user.create({ data: { name, nameKey: name } })).id);
  }
  let errors = 0;
  let firstError: unknown = null;
  let n = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: sc.importers }, async (_, w) => {
      const userId = players[sc.samePlayer ? 0 : w];
      for (let j = 0; j < perImporter; j++) {
        const rows = rowsOf(n++);
        try {
          await importScores({ db: db.prisma, catalogue }, { userId, version: '33', source: 'ROWS', rows });
        } catch (err) {
          errors++;
          firstError ??= err;
        }
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  const total = perImporter * sc.importers;
  if (firstError) console.error(firstError);
  console.log(
    `${sc.importers} importer(s), ${sc.samePlayer ? 'same player' : 'different players'}: ${total} imports in ${fmt(s, 2)} s = ${fmt(total / s, 1)}/s, ${errors} errors`,
  );
  return { total, perSecond: total / s, errors };
}

async function main() {
  const name = `bpigraph_bench_concurrency_${process.pid}`;
  const admin = new Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const rows: [string, string, string][] = [];
  let errors = 0;
  try {
    const db = await openDatabase({ url: pgUrl(name), poolMax: 20 });
    try {
      await applyMigrations(db.adapterFactory);
      const catalogue = await catalogueOf(db);
      const load = os.loadavg()[0];
      for (const samePlayer of [false, true])
        for (const importers of [1, 4, 16]) {
          const r = await run(db, catalogue, { importers, samePlayer });
          errors += r.errors;
          rows.push([
            `${importers} importer${importers > 1 ? 's' : ''} at once, ${samePlayer ? 'one player' : 'one player each'} (${r.total} imports of ${SONGS * CODES.length} rows)`,
            `${fmt(r.perSecond, 1)} imports/s, ${r.errors} errors`,
            r.errors === 0 ? '0 errors — met' : '0 errors — NOT met',
          ]);
        }
      rows.push(['load average (1 min) at the start / end', `${fmt(load, 1)} / ${fmt(os.loadavg()[0], 1)}`, '—']);
    } finally {
      await db.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
  record(
    'Concurrent imports on PostgreSQL (#28)',
    `bench/import-concurrency.ts: importScores in-process on one pool of 20 connections; ${IMPORTS} imports of ${SONGS * CODES.length} rows per scenario (every one improves every chart), spread over 1, 4 or 16 importers at once, for one player each (parallel) or all for one player (serialised by the player's lock); imports per second over the scenario's wall time.`,
    rows,
  );
  if (errors) process.exit(1);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
