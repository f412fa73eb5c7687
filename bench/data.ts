/**
 * Scale data set on PostgreSQL (`npm run bench:data`): a fresh database BENCH_SCALE_DB
 * (default bpigraph_bench_scale) on the bench server (BENCH_PG_URL / DATABASE_URL, default
 * postgresql://postgres@127.0.0.1:5432/postgres), migrated, with the REAL definitions of
 * ../shared (definitions-202509156.json), then BENCH_USERS players (default 10,000) × BENCH_CHARTS
 * charts (default 1,000: every SP level-12 chart, then level 11) of best scores, generated in SQL
 * with generate_series (bounded memory, batches of users):
 * - player skill ~ Normal(15, 18) in BPI, per-chart difficulty offset ~ Normal(0, 8), per-play
 *   noise ~ Normal(0, 10); target BPI clamped to [-14, 99] and turned into the EX score with the
 *   inverse BPI formula on the chart's real notes / kaiden average / world record / coefficient;
 * - play probability rises with skill (≈ 35–90 %), level 11 charts a little more often;
 * - clear lamps follow the BPI; arena class from skill (A1 … B5) in PlayerVersionStatus.
 * Then the totals are derived by the real recompute (recomputeAll), timed. (BestScore has no
 * BPI column: a best's BPI is derived from its EX score on read.)
 * Score rows (append-only plays) are not generated: rankings and totals read BestScore only.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { openDatabase } from '../src/db/client';
import { importDefinitions } from '../src/db/definitions';
import { applyMigrations } from '../src/db/migrate';
import { recomputeAll } from '../src/modules/scores/totals.service';
import { Catalogue } from '../src/modules/catalogue/catalogue';
import { LATEST_VERSION } from '../src/domain/constants';
import { fmt, pgAdminUrl, pgUrl, SCALE_DB, SHARED } from './lib';

export const DEFINITIONS_FILE = path.join(SHARED, 'data/definitions/definitions-202509156.json');

export interface ScaleDataReport {
  users: number;
  charts: number;
  bestScores: number;
  generateMs: number;
  recomputeMs: number;
}

const BATCH_USERS = 500;

export async function generateScaleData(
  users = Number(process.env.BENCH_USERS ?? 10_000),
  charts = Number(process.env.BENCH_CHARTS ?? 1_000),
): Promise<ScaleDataReport> {
  if (!fs.existsSync(DEFINITIONS_FILE))
    throw new Error(`${DEFINITIONS_FILE} not found: the scale data set needs the real definitions of ../shared`);
  const admin = new Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${SCALE_DB}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${SCALE_DB}"`);
  } finally {
    await admin.end();
  }
  const url = pgUrl(SCALE_DB);
  const handle = await openDatabase({ url, poolMax: 4 });
  const sql = new Client({ connectionString: url });
  await sql.connect();
  try {
    await applyMigrations(handle.adapterFactory);
    const defs = await importDefinitions(handle.prisma, JSON.parse(fs.readFileSync(DEFINITIONS_FILE, 'utf8')));
    console.log(`definitions ${defs.version}: ${defs.added} charts`);
    const t0 = performance.now();
    const V = LATEST_VERSION;

    // The charts: current SP definitions, level 12 first, then 11; per-chart difficulty offset.
    await sql.query(`CREATE UNLOGGED TABLE bench_chart AS
      SELECT c.id, c.level, d.notes * 2 AS m, d."kaidenAvg" AS k, d.wr AS z,
             CASE WHEN d.coef IS NOT NULL AND d.coef > 0 THEN d.coef ELSE 1.175 END AS p,
             sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) * 8 AS offs
        FROM "Chart" c JOIN "ChartDefinition" d ON d."chartId" = c.id AND d."isCurrent"
       WHERE c."playStyle" = 'SP' AND d.notes > 0 AND d.wr > d."kaidenAvg" AND d."kaidenAvg" > 0 AND d.wr < d.notes * 2
       ORDER BY c.level DESC, c.id LIMIT ${charts}`);
    const {
      rows: [{ n: chartCount }],
    } = await sql.query(`SELECT count(*)::int AS n FROM bench_chart`);

    // The players: skill ~ Normal(15, 18) BPI.
    await sql.query(
      `INSERT INTO "User" (id, name, "nameKey", "isPublic", "showArenaClass", "createdAt", "updatedAt")
       SELECT 'bench-' || lpad(g::text, 6, '0'), 'bench' || g, 'bench' || g, g % 10 <> 0, true, now() - (g % 400) * interval '1 day', now()
         FROM generate_series(1, $1::int) g`,
      [users],
    );
    await sql.query(`CREATE UNLOGGED TABLE bench_player AS
      SELECT 'bench-' || lpad(g::text, 6, '0') AS id, g, 15 + sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) * 18 AS skill
        FROM generate_series(1, ${users}) g`);
    await sql.query(
      `INSERT INTO "PlayerVersionStatus" ("userId", version, "arenaClass", "updatedAt")
       SELECT id, $1, (CASE WHEN skill > 55 THEN 'A1' WHEN skill > 40 THEN 'A2' WHEN skill > 28 THEN 'A3' WHEN skill > 16 THEN 'A4'
                            WHEN skill > 5 THEN 'A5' WHEN skill > -2 THEN 'B1' WHEN skill > -6 THEN 'B2' ELSE 'B3' END)::"ArenaClass", now()
         FROM bench_player`,
      [V],
    );

    // Bulk load: the secondary indexes of BestScore are dropped and rebuilt after the load, and the
    // rank blocks (ChartRankBlock) are built once from the loaded bests (chart_rank_rebuild(), the
    // migration's backfill) with their upkeep triggers off during the load — the same counts as
    // row-by-row upkeep, in a fraction of the time.
    const { rows: secondary } = await sql.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'BestScore' AND indexname <> 'BestScore_pkey'`,
    );
    for (const ix of secondary) await sql.query(`DROP INDEX "${ix.indexname}"`);
    await sql.query(`ALTER TABLE "BestScore" DISABLE TRIGGER USER`);
    // Best scores, one batch of players per statement (bounded WAL and memory).
    for (let from = 1; from <= users; from += BATCH_USERS) {
      await sql.query(
        `INSERT INTO "BestScore" ("userId", version, "chartId", "exScore", "exScoreId", "clearLamp", "missCount", "playedAt", "updatedAt")
         SELECT t.uid, $1, t.cid, t.ex, 0,
                (CASE WHEN t.b > 80 THEN 'FULLCOMBO_CLEAR' WHEN t.b > 50 THEN 'EX_HARD_CLEAR' WHEN t.b > 20 THEN 'HARD_CLEAR'
                      WHEN t.b > 0 THEN 'CLEAR' WHEN t.b > -8 THEN 'EASY_CLEAR' ELSE 'FAILED' END)::"ClearLamp",
                greatest(0, (60 - t.b / 2 + random() * 20)::int),
                now() - random() * interval '200 days', now()
           FROM (
             SELECT pl.id AS uid, c.id AS cid, x.b,
                    -- inverse BPI: S' = pgf(k) · exp(sign(b) · (|b|/100)^(1/p) · ln Z'), ex = m (1 − 0.5 / S')
                    least(c.m - 1, greatest(1, floor(c.m * (1 - 0.5 / (
                      (1 + (c.k::float8 / c.m - 0.5) / (1 - c.k::float8 / c.m))
                      * exp(sign(x.b) * power(abs(x.b) / 100, 1 / c.p)
                            * ln((1 + (c.z::float8 / c.m - 0.5) / (1 - c.z::float8 / c.m)) / (1 + (c.k::float8 / c.m - 0.5) / (1 - c.k::float8 / c.m))))
                    )))))::int AS ex
               FROM bench_player pl
               CROSS JOIN bench_chart c
               CROSS JOIN LATERAL (SELECT least(99, greatest(-14, pl.skill - c.offs + sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) * 10)) AS b) x
              WHERE pl.g BETWEEN $2 AND $3
                AND random() < least(0.9, greatest(0.35, 0.55 + pl.skill / 100 + CASE WHEN c.level = 11 THEN 0.05 ELSE 0 END))
           ) t`,
        [V, from, Math.min(users, from + BATCH_USERS - 1)],
      );
      process.stdout.write(`\rplayers ${Math.min(users, from + BATCH_USERS - 1)}/${users}`);
    }
    process.stdout.write('\n');
    await sql.query(`ALTER TABLE "BestScore" ENABLE TRIGGER USER`);
    for (const ix of secondary) await sql.query(ix.indexdef);
    await sql.query(`SELECT "chart_rank_rebuild"()`);
    await sql.query(`DROP TABLE bench_chart; DROP TABLE bench_player`);
    await sql.query(`VACUUM ANALYZE`);
    const generateMs = performance.now() - t0;
    const {
      rows: [{ n: bestScores }],
    } = await sql.query(`SELECT count(*)::int AS n FROM "BestScore"`);

    // The totals through the real code path (streamed batches).
    const catalogue = new Catalogue(handle.prisma);
    await catalogue.load();
    const t1 = performance.now();
    await recomputeAll(handle.prisma, catalogue, V, (done, total) =>
      process.stdout.write(`\rrecompute ${done}/${total}`),
    );
    process.stdout.write('\n');
    const recomputeMs = performance.now() - t1;
    await sql.query('ANALYZE');
    const report = { users, charts: chartCount, bestScores, generateMs, recomputeMs };
    console.log(
      `scale data set ${SCALE_DB}: ${fmt(users)} players × ${chartCount} charts → ${fmt(bestScores)} best scores; generated in ${fmt(generateMs / 1000, 1)} s, totals derived in ${fmt(recomputeMs / 1000, 1)} s`,
    );
    return report;
  } finally {
    await sql.end();
    await handle.close();
  }
}

if (require.main === module) {
  generateScaleData().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
