/**
 * Rivals bench (issue #15). Short runs: the machine is shared.
 *  (a) nested read `me { following(first: 50) { … rivalry { wins losses draws bpiDiff } } }` with
 *      50 followed players × 1,000 bests each (and the viewer's 1,000): SQL statements per request
 *      (in process, after a warm-up) and p50 / p99 over HTTP (server in its own process,
 *      autocannon) on PGlite and PostgreSQL;
 *  (b) PostgreSQL scale (bench/data.ts generator, BENCH_USERS × BENCH_CHARTS, default 10,000 ×
 *      1,000, into its own database `bpigraph_bench_rivals`; BENCH_SKIP_DATA=1 reuses it): "my
 *      rank on every chart" (User.chartRanks) p50 / p99, the global ranking at 100,000 generated
 *      totals p50 / p99, and an import of 1,000 rows with and without the rank upkeep triggers
 *      (time ratio).
 *   npx ts-node … or: node -r @swc-node/register bench/rivals.ts   (BENCH_ONLY=nested|scale;
 *   BENCH_TARGETS=postgresql (or pglite) runs (a) on one engine only)
 */
import './rivals-env';
import 'reflect-metadata';
import fs from 'node:fs';
import { Client } from 'pg';
import { createApp, type App } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { importDefinitions } from '../src/db/definitions';
import { applyMigrations } from '../src/db/migrate';
import { LATEST_VERSION } from '../src/domain/constants';
import { createHttpServer } from '../src/http';
import { createLogger } from '../src/logger';
import { Catalogue } from '../src/modules/catalogue/catalogue';
import { generateScaleData, DEFINITIONS_FILE } from './data';
import { BENCH_JWT, benchDatabase, fmt, load, percentile, pgUrl, record, SCALE_DB } from './lib';

const JWT = BENCH_JWT;
const FOLLOWED = 50;
const BESTS = 1000;
export const RIVALRY_QUERY = `{ me { following(first: 50) { edges { node { name rivalry { wins losses draws bpiDiff } } } } } }`;
const load1 = () => Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** The viewer and 50 followed players, each with a best on the same 1,000 charts (EX spread around the kaiden average). */
export async function seedRivals(db: DatabaseHandle): Promise<{ viewerId: string; charts: number }> {
  await applyMigrations(db.adapterFactory);
  await importDefinitions(db.prisma, JSON.parse(fs.readFileSync(DEFINITIONS_FILE, 'utf8')));
  const catalogue = new Catalogue(db.prisma);
  await catalogue.load();
  const charts = [...catalogue.charts()]
    .filter((c) => c.definition && c.definition.kaidenAvg && c.definition.notes > 0)
    .slice(0, BESTS);
  const ids = Array.from({ length: FOLLOWED + 1 }, (_, i) => `bench-rival-${String(i).padStart(3, '0')}`);
  await db.prisma.user.createMany({
    data: ids.map((id, i) => ({ id, name: `rival${i}`, nameKey: `rival${i}`, isPublic: i % 5 !== 0 || i === 0 })),
  });
  await db.prisma.follow.createMany({
    data: ids.slice(1).map((id) => ({ followerId: ids[0], followingId: id, approvedAt: new Date() })),
  });
  await db.prisma.playerVersionStatus.createMany({
    data: ids.map((userId, i) => ({ userId, version: LATEST_VERSION, totalBpi: 10 + (i % 40) })),
  });
  for (const [u, userId] of ids.entries()) {
    const bests = charts.map((c, k) => {
      const m = c.definition!.notes * 2;
      return {
        userId,
        version: LATEST_VERSION,
        chartId: c.id,
        exScore: Math.min(m, Math.max(0, Math.floor(c.definition!.kaidenAvg! * (0.9 + ((u * 7 + k * 3) % 20) / 100)))),
        exScoreId: 0,
        playedAt: new Date(),
      };
    });
    await db.prisma.bestScore.createMany({ data: bests });
  }
  // Planner statistics as autovacuum keeps them on a live server (its analyze comes within a
  // minute of a bulk insert; the bench starts at once): without them PostgreSQL plans the rivalry
  // aggregate as a nested loop over every best of each chart, and which plan a run measures
  // depended on when autovacuum got to the fresh database.
  await db.prisma.$executeRawUnsafe('ANALYZE "User", "Follow", "PlayerVersionStatus", "BestScore"');
  return { viewerId: ids[0], charts: charts.length };
}

async function benchNestedRivalry(target: 'pglite' | 'postgresql', duration: number) {
  const bench = await benchDatabase('rivals_nested', target);
  const { dataDir, url } = bench;
  const env = bench.env;
  try {
    let statements = 0;
    let counting = false;
    const db = await openDatabase({ url, dataDir, onQuery: () => void (counting && statements++) });
    try {
      const seeded = await seedRivals(db);
      const app = await createApp(
        loadConfig({ ...process.env, ...env, LOG_LEVEL: 'silent' }),
        db,
        createLogger('silent'),
      );
      const token = (await app.auth.issueAccessToken(seeded.viewerId)).token;
      const { fastify } = await createHttpServer(app);
      const ask = () =>
        fastify.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          payload: JSON.stringify({ query: RIVALRY_QUERY }),
        });
      const body = (await ask()).json();
      if (body.errors) throw new Error(`nested rivalry read failed: ${JSON.stringify(body.errors).slice(0, 400)}`);
      const edges = body.data.me.following.edges.length;
      counting = true;
      await ask();
      counting = false;
      // Over HTTP on a port of this process (a separate server process did not start within 120 s
      // on the loaded machine): autocannon shares the process's CPU, so the figures are conservative.
      const address = await fastify.listen({ port: 0, host: '127.0.0.1' });
      try {
        const req = {
          url: `${address}/graphql`,
          method: 'POST' as const,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: RIVALRY_QUERY }),
          connections: 4,
        };
        await load({ ...req, duration: 2 });
        const before = load1();
        const n = await load({ ...req, duration });
        record(
          `Nested rivalry read (${target === 'pglite' ? 'PGlite' : 'PostgreSQL'})`,
          `bench/rivals.ts (a): ${RIVALRY_QUERY}; ${FOLLOWED} followed players (every 5th private, approved) × ${seeded.charts} bests, the viewer the same ${seeded.charts} charts; SQL counted in process after a warm-up; autocannon 4 connections, ${duration} s after a 2 s warm-up, against the server listening in the bench process; load average ${before} on 2 shared cores`,
          [
            ['followed players in the response', String(edges), String(FOLLOWED)],
            [
              'SQL statements per request',
              String(statements),
              'constant in the followed players (test/integration/rivals/rivalry.test.ts: 2 vs 20)',
            ],
            ['nested rivalry read over HTTP', `${fmt(n.rps, 1)} req/s, p50 ${n.p50} ms, p99 ${n.p99} ms`, '—'],
            ['errors + non-2xx', String(n.errors + n.non2xx), `0 — ${n.errors + n.non2xx === 0 ? 'met' : 'NOT met'}`],
          ],
        );
      } finally {
        await fastify.close();
      }
    } finally {
      await db.close();
    }
  } finally {
    await bench.drop();
  }
}

async function timed(n: number, fn: (i: number) => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

/** CPU time (user + system) of this process per request since `from`, in ms: the server's share (GraphQL, resolvers, driver) plus fastify.inject's. */
function cpuMsPer(from: NodeJS.CpuUsage, n: number): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000 / n;
}

async function benchScaleRivals(requests: number) {
  let generated = '';
  if (process.env.BENCH_SKIP_DATA !== '1') {
    const r = await generateScaleData();
    generated = `generated ${fmt(r.users)} players × ${r.charts} charts → ${fmt(r.bestScores)} bests in ${fmt(r.generateMs / 1000, 1)} s with the rank triggers on (totals ${fmt(r.recomputeMs / 1000, 1)} s)`;
  }
  const url = pgUrl(SCALE_DB);
  const sql = new Client({ connectionString: url });
  await sql.connect();
  const db = await openDatabase({ url, poolMax: 4 });
  try {
    const {
      rows: [{ users, bests, charts }],
    } = await sql.query(
      `SELECT (SELECT count(*) FROM "User")::int AS users, (SELECT count(*) FROM "BestScore")::int AS bests, (SELECT count(DISTINCT "chartId") FROM "BestScore")::int AS charts`,
    );
    const app: App = await createApp(
      loadConfig({
        ...process.env,
        DATABASE_URL: url,
        JWT_SECRET: JWT,
        LOG_LEVEL: 'silent',
        RATE_LIMIT_WRITES_PER_MINUTE: '0',
        RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
      }),
      db,
      createLogger('silent'),
    );
    const { fastify } = await createHttpServer(app);
    const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
      const res = await fastify.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        payload: JSON.stringify({ query, variables }),
      });
      const body = res.json();
      if (body.errors) throw new Error(JSON.stringify(body.errors).slice(0, 300));
      return body.data;
    };

    // 1. my rank on every chart: public players with many bests.
    const { rows: players } = await sql.query(
      `SELECT b."userId" FROM "BestScore" b JOIN "User" u ON u.id = b."userId" AND u."isPublic" GROUP BY 1 ORDER BY md5(b."userId") LIMIT 50`,
    );
    const RANKS = `query($id: ID!) { user(id: $id) { chartRanks { chartId exScore rank players } } }`;
    let ranked = 0;
    await gql(RANKS, { id: players[0].userId });
    const loadRanks = load1();
    const cpuRanks0 = process.cpuUsage();
    const rankTimes = await timed(requests, async (i) => {
      const d = await gql(RANKS, { id: players[i % players.length].userId });
      ranked = Math.max(ranked, d.user.chartRanks.length);
    });
    const cpuRanks = cpuMsPer(cpuRanks0, requests);
    // Cross-check one player's ranks against a direct count.
    const probe = players[0].userId;
    const mine = (await gql(RANKS, { id: probe })).user.chartRanks.slice(0, 20);
    for (const r of mine) {
      const {
        rows: [{ n }],
      } = await sql.query(
        `SELECT count(*)::int AS n FROM "BestScore" WHERE "chartId" = $1 AND version = $2 AND "exScore" > $3`,
        [Number(r.chartId), LATEST_VERSION, r.exScore],
      );
      if (n + 1 !== r.rank) throw new Error(`rank mismatch on chart ${r.chartId}: blocks ${r.rank}, count ${n + 1}`);
    }

    // 2. global ranking at 100,000 totals: extra players with a status row only (no bests).
    const extra = Math.max(
      0,
      100_000 -
        Number(
          (await sql.query(`SELECT count(*)::int AS n FROM "PlayerVersionStatus" WHERE version = $1`, [LATEST_VERSION]))
            .rows[0].n,
        ),
    );
    if (extra > 0) {
      await sql.query(
        `INSERT INTO "User" (id, name, "nameKey", "isPublic", "createdAt", "updatedAt") SELECT 'gr-' || g, 'gr' || g, 'gr' || g, g % 10 <> 0, now(), now() FROM generate_series(1, $1::int) g ON CONFLICT DO NOTHING`,
        [extra],
      );
      await sql.query(
        `INSERT INTO "PlayerVersionStatus" ("userId", version, "totalBpi", "updatedAt") SELECT 'gr-' || g, $2, round((15 + sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) * 18)::numeric, 2), now() FROM generate_series(1, $1::int) g ON CONFLICT DO NOTHING`,
        [extra, LATEST_VERSION],
      );
      await sql.query('ANALYZE "PlayerVersionStatus"; ANALYZE "User"');
    }
    const {
      rows: [{ n: totals }],
    } = await sql.query(`SELECT count(*)::int AS n FROM "PlayerVersionStatus" WHERE version = $1`, [LATEST_VERSION]);
    const GLOBAL = `query($after: String) { globalRanking(first: 100, after: $after) { totalCount selfRank edges { cursor node { rank totalBpi anonymous } } } }`;
    const token = (await app.auth.issueAccessToken(players[1].userId)).token;
    const first = await gql(GLOBAL, {}, token);
    const deep = (await gql(`query { globalRanking(first: 100) { pageInfo { endCursor } } }`, {})).globalRanking
      .pageInfo.endCursor;
    const loadGlobal = load1();
    const cpuGlobal0 = process.cpuUsage();
    const globalTimes = await timed(requests, async (i) => {
      await gql(GLOBAL, i % 2 ? { after: deep } : {}, i % 3 === 0 ? token : undefined);
    });
    const cpuGlobal = cpuMsPer(cpuGlobal0, requests);

    // 3. import of 1,000 rows for a fresh player, with and without the rank triggers (alternating).
    const { rows: importCharts } = await sql.query(
      `SELECT s.title, c.difficulty::text AS difficulty, d.notes FROM "Chart" c JOIN "Song" s ON s.id = c."songId" JOIN "ChartDefinition" d ON d."chartId" = c.id AND d."isCurrent" WHERE c."playStyle" = 'SP' AND c.id IN (SELECT DISTINCT "chartId" FROM "BestScore") ORDER BY c.id LIMIT 1000`,
    );
    const IMPORT = `mutation($u: ID!, $rows: [ScoreRowInput!]!) { importScores(userId: $u, version: "${LATEST_VERSION}", rows: $rows) { updatedCount } }`;
    const importOnce = async (tag: string) => {
      const id = `bench-import-${tag}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
      await sql.query(
        `INSERT INTO "User" (id, name, "nameKey", "isPublic", "createdAt", "updatedAt") VALUES ($1, $1, $1, true, now(), now())`,
        [id],
      );
      const t = (await app.auth.issueAccessToken(id)).token;
      const rows = importCharts.map((c, k) => ({
        title: c.title,
        difficulty: c.difficulty,
        exScore: Math.floor(c.notes * (1.3 + (k % 50) / 100)),
        clearState: 'HARD CLEAR',
      }));
      const t0 = performance.now();
      const d = await gql(IMPORT, { u: id, rows }, t);
      const ms = performance.now() - t0;
      if (d.importScores.updatedCount !== rows.length) throw new Error(`import updated ${d.importScores.updatedCount}`);
      return ms;
    };
    const TRIGGERS = ['BestScore_rank_insert', 'BestScore_rank_update', 'BestScore_rank_delete'];
    const setTriggers = async (on: boolean) => {
      for (const t of TRIGGERS) await sql.query(`ALTER TABLE "BestScore" ${on ? 'ENABLE' : 'DISABLE'} TRIGGER "${t}"`);
    };
    await importOnce('warm');
    const withT: number[] = [];
    const without: number[] = [];
    const loadImport = load1();
    const repeats = Number(process.env.BENCH_IMPORT_REPEATS ?? 3);
    for (let i = 0; i < repeats; i++) {
      withT.push(await importOnce(`on${i}`));
      await setTriggers(false);
      try {
        without.push(await importOnce(`off${i}`));
      } finally {
        await setTriggers(true);
      }
    }
    // The rows imported without the triggers are not in the rank blocks: rebuild them so the set stays consistent.
    await sql.query(`SELECT "chart_rank_rebuild"()`);
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const p99r = percentile(rankTimes, 99);
    const p99g = percentile(globalTimes, 99);
    record(
      'Rivals at scale (PostgreSQL)',
      `bench/rivals.ts (b) on ${SCALE_DB}: ${generated || 'existing set'}; ${fmt(users)} users, ${fmt(bests)} bests on ${charts} charts; GraphQL through fastify.inject in process (no network), ${requests} sequential requests per read; load average ${loadRanks} / ${loadGlobal} / ${loadImport} (ranks / global / import) on 2 shared cores`,
      [
        [
          'my rank on every chart (User.chartRanks, up to ' + ranked + ' charts per player, 50 players)',
          `p50 ${fmt(percentile(rankTimes, 50), 1)} ms, p99 ${fmt(p99r, 1)} ms; Node CPU ${fmt(cpuRanks, 1)} ms per request`,
          `p99 < 100 ms — ${p99r < 100 ? 'met' : 'NOT met'}`,
        ],
        ['rank cross-check (20 charts vs count(*) of higher EX)', 'equal', '—'],
        [
          `global ranking at ${fmt(totals)} totals (first page / deep page, a third signed in: selfRank; totalCount ${fmt(first.globalRanking.totalCount)})`,
          `p50 ${fmt(percentile(globalTimes, 50), 1)} ms, p99 ${fmt(p99g, 1)} ms; Node CPU ${fmt(cpuGlobal, 1)} ms per request`,
          `p99 < 50 ms — ${p99g < 50 ? 'met' : 'NOT met'}`,
        ],
        [
          `importScores of 1,000 new bests, rank triggers on (median of ${withT.length})`,
          `${fmt(med(withT))} ms (${withT.map((x) => fmt(x)).join(', ')})`,
          '—',
        ],
        [
          `the same with the triggers disabled (median of ${without.length})`,
          `${fmt(med(without))} ms (${without.map((x) => fmt(x)).join(', ')})`,
          '—',
        ],
        ['import time with / without rank upkeep', fmt(med(withT) / med(without), 2), 'reported'],
      ],
    );
    await fastify.close();
  } finally {
    await sql.end();
    await db.close();
  }
}

async function main() {
  const only = process.env.BENCH_ONLY;
  const duration = Number(process.env.BENCH_DURATION ?? 8);
  if (!only || only === 'nested') {
    const targets = (process.env.BENCH_TARGETS ?? 'pglite,postgresql').split(',');
    for (const target of ['pglite', 'postgresql'] as const) {
      if (targets.includes(target)) await benchNestedRivalry(target, duration);
    }
  }
  if (!only || only === 'scale') await benchScaleRivals(Number(process.env.BENCH_REQUESTS ?? 200));
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
