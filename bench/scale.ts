/**
 * Scale on PostgreSQL, on the data set of `npm run bench:data` (bench/data.ts): the server in its own
 * process over that database, then
 * - per-chart ranking (GraphQL songRanking, first: 20, random charts of the set) p50 / p99;
 * - global ranking: globalRanking (GraphQL: total-BPI ranking pages, class filter, selfRank) and
 *   popularCharts (players per chart over all scores) p50 / p99;
 * - server RSS idle with the full real catalogue cached, and after the load;
 * - the full TotalBPI recompute after a definitions update (every world record moved; the
 *   recompute job as a definitions import starts it — every version with scores, every registered
 *   step — in process, server stopped) — target < 60 s, with the time of each step.
 * BENCH_REQUESTS (default 400) requests per read, 8 in flight.   npm run bench:scale
 */
import 'reflect-metadata';
import fs from 'node:fs';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { importDefinitions } from '../src/db/definitions';
import { LATEST_VERSION } from '../src/domain/constants';
import { createLogger } from '../src/logger';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/modules/auth/auth.service';
import { SignJWT } from 'jose';
import { DEFINITIONS_FILE } from './data';
import { connectScaleDb, fmt, percentile, record, rssMiB, SCALE_DB, startProcess, timedPool, tmpDir } from './lib';

const JWT = 'bench-secret-bench-secret-bench-secret-000';

/** An access token of the server under test (same secret, issuer and audience as AuthService issues). */
function tokenFor(userId: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(JWT));
}

/** The `data` of a GraphQL answer, typed as the caller's query reads it (an error answer throws). */
async function gql<T = unknown>(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<T> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(120_000),
  });
  const body = (await res.json()) as { data: T; errors?: unknown };
  if (res.status !== 200 || body.errors)
    throw new Error(`HTTP ${res.status}: ${JSON.stringify(body.errors ?? body).slice(0, 200)}`);
  return body.data;
}

/** One page of the walk over `globalRanking` (its cursors and where the next page starts). */
interface RankingPage {
  edges: { cursor: string }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export async function benchScale(requests = Number(process.env.BENCH_REQUESTS ?? 400)): Promise<void> {
  const { url, sql } = await connectScaleDb();
  const rows: [string, string, string][] = [];
  try {
    const {
      rows: [size],
    } = await sql.query(
      `SELECT (SELECT count(*) FROM "User")::int AS users, (SELECT count(DISTINCT "chartId") FROM "BestScore")::int AS charts, (SELECT count(*) FROM "BestScore")::int AS bests`,
    );
    if (!size.bests) throw new Error(`scale database ${SCALE_DB} is empty: run \`npm run bench:data\` first`);
    const { rows: chartRows } = await sql.query(
      `SELECT DISTINCT "chartId" AS id FROM "BestScore" WHERE version = $1 ORDER BY 1`,
      [LATEST_VERSION],
    );
    const chartIds = chartRows.map((r) => String(r.id));
    rows.push([
      'data set',
      `${fmt(size.users)} players × ${fmt(size.charts)} charts, ${fmt(size.bests)} best scores`,
      '10,000 × 1,000',
    ]);

    // --- reads through the server -------------------------------------------------------------
    const dataDir = tmpDir('scale');
    const server = await startProcess(
      'src/server.ts',
      {
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        JWT_SECRET: JWT,
        RATE_LIMIT_WRITES_PER_MINUTE: '0',
        RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
        DATABASE_POOL_MAX: '10',
      },
      4131,
      '/readyz',
    );
    try {
      await new Promise((r) => setTimeout(r, 2000));
      const idle = rssMiB(server.proc.pid!);
      const ranking = `query($c: ID!) { songRanking(chartId: $c, first: 20) { totalCount edges { node { rank exScore bpi anonymous player { name } } } } }`;
      const popular = `query($l: Int) { popularCharts(first: 20, level: $l) { totalCount edges { node { playerCount chart { id level song { title } } } } } }`;
      const global = `query($first: Int, $after: String, $last: Int, $before: String, $cls: ArenaClass) { globalRanking(first: $first, after: $after, last: $last, before: $before, arenaClass: $cls) { totalCount selfRank edges { node { rank totalBpi anonymous player { name } } } } }`;
      const { rows: players } = await sql.query(
        `SELECT "userId" FROM "PlayerVersionStatus" WHERE version = $1 ORDER BY "userId" LIMIT 500`,
        [LATEST_VERSION],
      );
      const tokens = await Promise.all(players.slice(0, 50).map((r) => tokenFor(r.userId)));
      // warm-up
      await timedPool(40, 8, (i) => gql(server.url, ranking, { c: chartIds[i % chartIds.length] }));
      const perChart = await timedPool(requests, 8, (i) =>
        gql(server.url, ranking, { c: chartIds[(i * 7919) % chartIds.length] }).then(() => undefined),
      );
      const pop = await timedPool(Math.max(20, Math.floor(requests / 10)), 8, (i) =>
        gql(server.url, popular, { l: i % 2 ? 12 : 11 }).then(() => undefined),
      );
      // Global total-BPI ranking: pages all over the population (keyset cursors collected by one walk
      // of the unfiltered ranking, 100 rows a page; every 8th request pages backwards from one), a
      // class filter (its first page: a cursor belongs to its filter), signed-in callers (selfRank).
      const walk = `query($after: String) { globalRanking(first: 100, after: $after) { edges { cursor } pageInfo { hasNextPage endCursor } } }`;
      const cursors: string[] = [];
      for (let after: string | null = null, k = 0; k < 1000; k++) {
        const page: RankingPage = (await gql<{ globalRanking: RankingPage }>(server.url, walk, { after }))
          .globalRanking;
        cursors.push(...page.edges.filter((_, j) => j % 20 === 19).map((e) => e.cursor));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      const classes = ['A1', 'A2', 'A3', 'A4', 'A5', 'B1'];
      const globalVars = (i: number) => {
        if (i % 3 === 0) return { cls: classes[i % classes.length] };
        const cursor = i % 4 === 0 || cursors.length === 0 ? null : cursors[(i * 7919) % cursors.length];
        return i % 8 === 1 && cursor ? { last: 20, before: cursor } : { first: 20, after: cursor };
      };
      await timedPool(40, 8, (i) => gql(server.url, global, globalVars(i)));
      const globalReads = await timedPool(requests, 8, (i) =>
        gql(server.url, global, globalVars(i), i % 2 ? tokens[i % tokens.length] : undefined).then(() => undefined),
      );
      const after = rssMiB(server.proc.pid!);
      const p = (x: { latencies: number[] }) =>
        `p50 ${fmt(percentile(x.latencies, 50), 1)} ms, p99 ${fmt(percentile(x.latencies, 99), 1)} ms`;
      rows.push([
        `per-chart ranking: songRanking(first: 20), ${perChart.latencies.length} requests, 8 in flight`,
        p(perChart),
        `errors ${perChart.errors.length} (0)`,
      ]);
      rows.push([
        `global ranking: globalRanking(first: 20), ${globalReads.latencies.length} requests, 8 in flight (any page; ⅓ filtered by arena class; ½ signed in, with selfRank)`,
        p(globalReads),
        `errors ${globalReads.errors.length} (0)`,
      ]);
      rows.push([
        `global: popularCharts(first: 20), ${pop.latencies.length} requests, 8 in flight`,
        p(pop),
        `errors ${pop.errors.length} (0)`,
      ]);
      rows.push(['server RSS idle (full real catalogue cached)', `${fmt(idle)} MiB`, '—']);
      rows.push(['server RSS after the ranking load', `${fmt(after)} MiB (${fmt(after / idle, 2)} of idle)`, '—']);
      if (perChart.errors.length + pop.errors.length + globalReads.errors.length)
        console.error('errors:', [...perChart.errors, ...pop.errors, ...globalReads.errors].slice(0, 5));
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  } finally {
    await sql.end();
  }

  // --- definitions update, then the full recompute -------------------------------------------
  const handle = await openDatabase({ url, poolMax: 4 });
  try {
    const releases = await handle.prisma.definitionsRelease.count();
    const doc = JSON.parse(fs.readFileSync(DEFINITIONS_FILE, 'utf8')) as {
      version: number;
      body: { wr: number; notes: number; avg: number }[];
    };
    const delta = (releases % 5) + 1;
    doc.version = doc.version + releases; // a new release each run, every world record moved
    for (const e of doc.body) if (e.wr > 0 && e.wr + delta < e.notes * 2) e.wr += delta;
    const t0 = performance.now();
    const report = await importDefinitions(handle.prisma, doc);
    const importMs = performance.now() - t0;
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: url,
      JWT_SECRET: JWT,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
    });
    const app = await createApp(config, handle, createLogger('warn'));
    // A step ends with its last progress report: its time runs from the previous step's end.
    const steps = new Map<string, { done: number; total: number; endMs: number }>();
    const t1 = performance.now();
    await app.recompute.run(undefined, (step, done, total) => {
      steps.set(step, { done, total, endMs: performance.now() - t1 });
      process.stdout.write(`\r${step}: ${done}/${total}      `);
    });
    process.stdout.write('\n');
    const recomputeMs = performance.now() - t1;
    await app.pubsub.close();
    await app.rateLimiter.close();
    rows.push([
      `definitions update (${report.changed} definitions changed), import`,
      `${fmt(importMs / 1000, 1)} s`,
      '—',
    ]);
    rows.push([
      `full recompute after it (steps: ${app.recompute.stepNames.join(', ')})`,
      `${fmt(recomputeMs / 1000, 1)} s`,
      `< 60 s — ${recomputeMs < 60_000 ? 'met' : 'NOT met'}`,
    ]);
    let prevEnd = 0;
    for (const [step, p] of steps) {
      rows.push([`— step ${step}: ${fmt(p.done)}/${fmt(p.total)}`, `${fmt((p.endMs - prevEnd) / 1000, 1)} s`, '—']);
      prevEnd = p.endMs;
    }
  } finally {
    await handle.close();
  }
  record(
    'Scale on PostgreSQL',
    `bench/scale.ts on the \`npm run bench:data\` set (real 202509156 definitions, synthetic players); server in its own process (PostgreSQL pool 10), reads with ${requests} requests each, 8 in flight, after a warm-up; recompute in process with the server stopped`,
    rows,
  );
}

if (require.main === module) {
  benchScale().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
