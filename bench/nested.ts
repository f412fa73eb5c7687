/**
 * The frontend's nested read at saturation: user → stats → followers(first: 50) → their stats and
 * recommended top 5, as one GraphQL request. Seeded: one player with 50 approved public followers,
 * each with a status row and 40 best scores on level-12 charts (BPI from the current definitions;
 * the real 202509156 definitions when ../shared has them, else the demo catalogue).
 * Measured in one run: SQL statements per request (Prisma query events, in process, after a
 * warm-up), then throughput and latency of the server in its own process under autocannon, as a
 * ratio to a trivial query on the same server, and the server's RSS after the load.
 * PGlite by default; BENCH_DB=postgresql uses a throw-away database on the bench PostgreSQL.
 *   npm run bench:nested
 */
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { importDefinitions } from '../src/db/definitions';
import { applyMigrations } from '../src/db/migrate';
import { seedDemoCatalogue } from '../src/db/seed';
import { LATEST_VERSION } from '../src/domain/constants';
import { createHttpServer } from '../src/http';
import { createLogger } from '../src/logger';
import { Catalogue } from '../src/modules/catalogue/catalogue';
import { benchDatabase, fmt, load, record, rssMiB, SHARED, startProcess } from './lib';

export const NESTED_QUERY = `query($id: ID!) { user(id: $id) {
  name stats { version totalBpi arenaClass }
  recommended(limit: 5) { totalBpi weapons { total data { chartId title difficulty bpi bpiDiff } } }
  followers(first: 50) { totalCount edges { node { id name
    stats { version totalBpi arenaClass }
    recommended(limit: 5) { totalBpi weapons { total data { chartId title difficulty bpi bpiDiff exScore } } potential { data { chartId title bpiDiff } } }
  } } }
} }`;

const FOLLOWERS = 50;
const SCORES_PER_PLAYER = 40;
const DEFS = path.join(SHARED, 'data/definitions/definitions-202509156.json');

/** Seeds the catalogue and the players; returns the target player's id. */
export async function seedNested(db: DatabaseHandle): Promise<string> {
  await applyMigrations(db.adapterFactory);
  if (fs.existsSync(DEFS)) await importDefinitions(db.prisma, JSON.parse(fs.readFileSync(DEFS, 'utf8')));
  else await seedDemoCatalogue(db.prisma);
  const catalogue = new Catalogue(db.prisma);
  await catalogue.load();
  const charts = [...catalogue.charts()]
    .filter((c) => c.level === 12 && c.playStyle === 'SP' && c.definition)
    .slice(0, 200);
  const ids = Array.from({ length: FOLLOWERS + 1 }, (_, i) => `bench-nested-${String(i).padStart(3, '0')}`);
  await db.prisma.user.createMany({
    data: ids.map((id, i) => ({ id, name: `nested${i}`, nameKey: `nested${i}`, isPublic: true })),
  });
  await db.prisma.follow.createMany({
    data: ids.slice(1).map((id) => ({ followerId: id, followingId: ids[0], approvedAt: new Date() })),
  });
  await db.prisma.playerVersionStatus.createMany({
    data: ids.map((userId, i) => ({
      userId,
      version: LATEST_VERSION,
      totalBpi: 10 + (i % 40),
      arenaClass: (['A1', 'A2', 'A3', 'A4', 'A5'] as const)[i % 5],
    })),
  });
  const bests = [];
  for (const [u, userId] of ids.entries()) {
    for (let k = 0; k < Math.min(SCORES_PER_PLAYER, charts.length); k++) {
      const c = charts[(u * 13 + k * 7) % charts.length];
      const def = c.definition!;
      const m = def.notes * 2;
      const exScore = Math.min(m - 1, Math.floor(def.kaidenAvg! * (0.9 + ((u + k) % 20) / 100)));
      bests.push({
        userId,
        version: LATEST_VERSION,
        chartId: c.id,
        exScore,
        exScoreId: 0,
        clearLamp: 'HARD_CLEAR' as const,
        playedAt: new Date(),
      });
    }
  }
  await db.prisma.bestScore.createMany({ data: bests, skipDuplicates: true });
  return ids[0];
}

export async function benchNested(
  target: 'pglite' | 'postgresql' = (process.env.BENCH_DB as 'postgresql') ?? 'pglite',
  duration = Number(process.env.BENCH_DURATION ?? 10),
): Promise<void> {
  const bench = await benchDatabase('nested', target);
  const { dataDir, url } = bench;
  const env = bench.env;
  try {
    // 1. seed, and count statements per request in process (after a warm-up request).
    let statements = 0;
    let userId: string;
    let edges = 0;
    {
      let counting = false;
      const db = await openDatabase({ url, dataDir, onQuery: () => void (counting && statements++) });
      try {
        userId = await seedNested(db);
        const app = await createApp(
          loadConfig({ ...process.env, ...env, LOG_LEVEL: 'silent' }),
          db,
          createLogger('silent'),
        );
        const { fastify } = await createHttpServer(app);
        const ask = () =>
          fastify.inject({
            method: 'POST',
            url: '/graphql',
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify({ query: NESTED_QUERY, variables: { id: userId } }),
          });
        const warm = await ask();
        const body = warm.json();
        if (body.errors) throw new Error(`nested read failed: ${JSON.stringify(body.errors).slice(0, 400)}`);
        edges = body.data.user.followers.edges.length;
        counting = true;
        await ask();
        counting = false;
        await fastify.close();
      } finally {
        await db.close();
      }
    }

    // 2. saturation: the server in its own process.
    const server = await startProcess('src/server.ts', env, 4121, '/readyz');
    try {
      const headers = { 'content-type': 'application/json' };
      const nested = {
        url: `${server.url}/graphql`,
        method: 'POST' as const,
        headers,
        body: JSON.stringify({ query: NESTED_QUERY, variables: { id: userId } }),
        connections: 16,
      };
      const trivial = {
        url: `${server.url}/graphql`,
        method: 'POST' as const,
        headers,
        body: JSON.stringify({ query: '{ serverInfo { name } }' }),
        connections: 16,
      };
      // Trivial first: an aborted nested backlog would otherwise still occupy the server.
      await load({ ...trivial, duration: 2 });
      const t = await load({ ...trivial, duration });
      await load({ ...nested, duration: 2 });
      const n = await load({ ...nested, duration });
      const rss = rssMiB(server.proc.pid!);
      const errs = n.errors + n.non2xx;
      record(
        `Nested GraphQL read at saturation (${target === 'pglite' ? 'PGlite' : 'PostgreSQL'})`,
        `bench/nested.ts: user → stats → followers(first: 50) → stats + recommended(limit: 5) weapons/potential; ${FOLLOWERS} followers × ${SCORES_PER_PLAYER} best scores, ${fs.existsSync(DEFS) ? 'real 202509156 definitions' : 'demo catalogue'}; SQL counted in process after a warm-up; autocannon, 16 connections, ${duration} s after a 2 s warm-up, server in its own process`,
        [
          ['followers in the response', String(edges), String(FOLLOWERS)],
          [
            'SQL statements per request',
            String(statements),
            '≤ 25, constant in the follower count (test/integration/platform/sql-count.test.ts)',
          ],
          [
            'trivial query { serverInfo { name } } (baseline, same server)',
            `${fmt(t.rps)} req/s (p99 ${t.p99} ms)`,
            '—',
          ],
          ['nested read', `${fmt(n.rps)} req/s (p50 ${n.p50} ms, p99 ${n.p99} ms)`, '—'],
          ['nested / trivial', fmt(n.rps / t.rps, 4), '—'],
          ['errors + non-2xx (nested)', String(errs), `0 — ${errs === 0 ? 'met' : 'NOT met'}`],
          ['server RSS after the load', `${fmt(rss)} MiB`, '—'],
        ],
      );
    } finally {
      await server.stop();
    }
  } finally {
    await bench.drop();
  }
}

if (require.main === module) {
  benchNested().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
