/**
 * `npm run bench:mixed` — issue #27: ordinary readers at a steady rate, with and without the
 * hostile requests of the review, against one server in its own process (PostgreSQL by default,
 * `--pglite` for the embedded database):
 *
 * 1. baseline: `--duration` seconds (default 60) of readers — the dashboard in one request, a
 *    score list page, the rivalry read, in turn, one every READER_INTERVAL_MS (open loop: a slow
 *    answer does not slow the rate) — while /healthz is polled every 20 ms;
 * 2. the same, plus one hostile request a second, the kinds in turn (each kind once every
 *    `kinds` seconds; every request in flight at once if slow): 3 aliased plans with maxSteps
 *    400 (anonymous), 30 aliased plans (refused: GRAPHQL_MAX_PLANS), an official CSV of 9,999 rows
 *    of unknown titles, an official CSV of 45,000 rows (refused: MAX_IMPORT_ROWS), a JSON-RPC batch
 *    of 100 tools/list, 24 aliased daily totalBpiHistory, a legacy migration near 2 MiB;
 * 3. plans per second: an ordinary plan (the dashboard's big player, maxSteps 30), 4 at a time
 *    for PLAN_SECONDS, with the worker pool (default size) and with WORKER_POOL_SIZE=0 (inline on
 *    the event loop: the code path before issue #27); both plans must be the same.
 *
 * Figures: readers' p50/p99 and errors, /healthz p99 and max, hostile answers by status, and the
 * server's event-loop delay (perf_hooks.monitorEventLoopDelay, read from /metrics: prom-client
 * resets it at each scrape, so a scrape before and after a phase gives that phase's percentiles).
 * Targets (issue #27): readers' p99 within 2× of the baseline, /healthz p99 < 50 ms, 0 reader errors.
 */
import 'reflect-metadata';
import os from 'node:os';
import { closeApp, createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { createLogger } from '../src/logger';
import { seedDashboard } from './dashboard';
import { BENCH_JWT, benchDatabase, fmt, percentile, record, startProcess, type Child } from './lib';
import { OFFICIAL_HEADER } from '../src/domain/csv/official-writer';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const DURATION = Number(arg('duration') ?? process.env.BENCH_DURATION ?? 60);
const TARGET: 'pglite' | 'postgresql' = process.argv.includes('--pglite') ? 'pglite' : 'postgresql';
const READER_INTERVAL_MS = Number(process.env.BENCH_READER_INTERVAL_MS ?? 250);
const PLAN_SECONDS = Number(process.env.BENCH_PLAN_SECONDS ?? 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Phase {
  readers: number[];
  readerErrors: number;
  healthz: number[];
  hostile: Map<string, { statuses: Record<string, number>; ms: number[] }>;
  loop: Record<string, number>;
}

type GqlBody = { data?: unknown; errors?: { extensions?: { code?: string } }[] };

async function gql(url: string, query: string, variables: Record<string, unknown> = {}, token?: string) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  let body: GqlBody = {};
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

/** The event-loop delay percentiles prom-client exported since the previous scrape (ms). */
async function loopDelay(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^bpigraph_nodejs_eventloop_lag_(min|max|mean|p50|p90|p99)_seconds (\S+)$/gm))
    out[m[1]] = Number(m[2]) * 1000;
  return out;
}

const HEADER = OFFICIAL_HEADER; // the current official layout (src/domain/csv/official-writer.ts)
const officialCsv = (songs: number, tag: string) =>
  [
    HEADER,
    ...Array.from({ length: songs }, (_, i) =>
      [
        '33 Sparkle Shower',
        `Mixed ${tag} ${i}`,
        'g',
        'a',
        '12',
        '2,0,0,0,---,NO PLAY,---',
        '5,800,350,100,3,FULLCOMBO CLEAR,AAA',
        '10,1500,600,300,12,HARD CLEAR,AA',
        '12,2100,900,300,25,EX HARD CLEAR,AA',
        '0,0,0,0,---,NO PLAY,---',
        '2025-01-02 03:04',
      ].join(','),
    ),
  ].join('\r\n');

const plans = (n: number, maxSteps: number) =>
  `query($id: ID!) { user(id: $id) { ${Array.from({ length: n }, (_, i) => `p${i}: bpiPlan(input: { targetBpi: 60, maxSteps: ${maxSteps} }) { totalExScoreGap provenOptimal }`).join(' ')} } }`;
const PLAN_30 =
  'query($id: ID!) { user(id: $id) { bpiPlan(input: { targetBpi: 60, maxSteps: 30 }) { totalExScoreGap provenOptimal steps { chartId toExScore } } } }';

function hostileKinds(big: string, hostileUser: string, token: string) {
  const legacy = JSON.stringify({
    '33': {
      scoresHistory: Array.from({ length: 18_000 }, (_, i) => ({
        title: `t${i % 3000}`,
        difficulty: 'ANOTHER',
        exScore: 100 + Math.floor(i / 3000),
        updatedAt: '2024-01-01T00:00:00Z',
      })),
    },
  });
  const learn = officialCsv(3333, 'learn');
  const huge = officialCsv(15_000, 'huge'); // ~3.2 MB: under the 4 MiB body limit
  const history = `query($id: ID!) { user(id: $id) { ${Array.from({ length: 24 }, (_, i) => `h${i}: totalBpiHistory(version: "33", period: DAY) { date }`).join(' ')} } }`;
  const mcp = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
  const csvMutation =
    'mutation($u: ID!, $c: String!) { importScoresCsv(userId: $u, version: "33", csv: $c) { rowCount updatedCount } }';
  return [
    { name: '3 plans × maxSteps 400', send: (url: string) => gql(url, plans(3, 400), { id: big }) },
    { name: '30 plans × maxSteps 400', send: (url: string) => gql(url, plans(30, 400), { id: big }) },
    {
      name: 'CSV 9,999 unknown titles',
      send: (url: string) => gql(url, csvMutation, { u: hostileUser, c: learn }, token),
    },
    { name: 'CSV 45,000 rows', send: (url: string) => gql(url, csvMutation, { u: hostileUser, c: huge }, token) },
    {
      name: 'MCP batch of 100',
      send: async (url: string) => {
        const res = await fetch(`${url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify(mcp),
        });
        await res.arrayBuffer();
        return { status: res.status, body: {} as GqlBody };
      },
    },
    { name: '24 daily histories', send: (url: string) => gql(url, history, { id: big }) },
    {
      name: 'legacy migration ~2 MiB',
      send: (url: string) =>
        gql(
          url,
          'mutation($u: ID!, $d: String!) { migrateLegacyScores(userId: $u, data: $d) { totalProcessed } }',
          { u: hostileUser, d: legacy },
          token,
        ),
    },
  ];
}

async function phase(
  url: string,
  readers: (() => Promise<boolean>)[],
  hostile: ReturnType<typeof hostileKinds> | null,
): Promise<Phase> {
  const out: Phase = { readers: [], readerErrors: 0, healthz: [], hostile: new Map(), loop: {} };
  await loopDelay(url); // resets the server's histogram
  const end = Date.now() + DURATION * 1000;
  const inFlight: Promise<unknown>[] = [];
  const probe = (async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
      out.healthz.push(performance.now() - t0);
      await sleep(20);
    }
  })();
  const read = (async () => {
    for (let k = 0; Date.now() < end; k++) {
      const t0 = performance.now();
      inFlight.push(
        readers[k % readers.length]().then(
          (ok) => {
            out.readers.push(performance.now() - t0);
            if (!ok) out.readerErrors++;
          },
          () => out.readerErrors++,
        ),
      );
      await sleep(READER_INTERVAL_MS);
    }
  })();
  const attack = (async () => {
    if (!hostile) return;
    for (let k = 0; Date.now() < end; k++) {
      const kind = hostile[k % hostile.length];
      const t0 = performance.now();
      inFlight.push(
        kind.send(url).then(
          (r) => {
            const e = out.hostile.get(kind.name) ?? { statuses: {}, ms: [] };
            const key = `${r.status}${r.body.errors?.[0]?.extensions?.code ? ` ${r.body.errors[0].extensions.code}` : ''}`;
            e.statuses[key] = (e.statuses[key] ?? 0) + 1;
            e.ms.push(performance.now() - t0);
            out.hostile.set(kind.name, e);
          },
          (err: Error) => {
            const e = out.hostile.get(kind.name) ?? { statuses: {}, ms: [] };
            e.statuses[`fetch failed: ${err.message}`] = (e.statuses[`fetch failed: ${err.message}`] ?? 0) + 1;
            out.hostile.set(kind.name, e);
          },
        ),
      );
      await sleep(1000);
    }
  })();
  await Promise.all([probe, read, attack]);
  out.loop = await loopDelay(url);
  await Promise.all(inFlight);
  return out;
}

/** Plans per second, `concurrency` at a time for PLAN_SECONDS; the last plan's steps. */
async function planRate(url: string, big: string): Promise<{ perSecond: number; plan: string; errors: number }> {
  let done = 0;
  let errors = 0;
  let plan = '';
  let firstError = '';
  const end = Date.now() + PLAN_SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (Date.now() < end) {
        const r = await gql(url, PLAN_30, { id: big });
        if (r.status !== 200 || r.body.errors) {
          errors++;
          firstError ||= `${r.status} ${JSON.stringify(r.body.errors ?? r.body).slice(0, 300)}`;
        } else {
          done++;
          plan = JSON.stringify(r.body.data);
        }
      }
    }),
  );
  if (firstError) console.log(`plan errors, the first: ${firstError}`);
  return { perSecond: (done * 1000) / (performance.now() - t0), plan, errors };
}

const ms = (xs: number[], p: number) => (xs.length ? fmt(percentile(xs, p), 1) : '—');

async function main() {
  const bench = await benchDatabase('mixed', TARGET);
  const load0 = os.loadavg()[0].toFixed(2);
  let server: Child | null = null;
  try {
    const db = await openDatabase({ url: bench.url, dataDir: bench.dataDir });
    let seeded;
    const tokens = new Map<string, string>();
    try {
      seeded = await seedDashboard(db);
      await db.prisma.user.update({ where: { id: seeded.big }, data: { isPublic: true } });
      await db.prisma.user.create({ data: { id: 'bench-mixed-hostile', name: 'hostile', nameKey: 'hostile' } });
      const app = await createApp(
        loadConfig({ ...process.env, ...bench.env, JWT_SECRET: BENCH_JWT, LOG_LEVEL: 'silent' }),
        db,
        createLogger('silent'),
      );
      for (const id of [seeded.big, 'bench-mixed-hostile']) tokens.set(id, (await app.auth.issueAccessToken(id)).token);
      await closeApp(app);
    } finally {
      await db.close();
    }
    const tokenOf = (id: string) => tokens.get(id)!;
    const env = {
      ...bench.env,
      CPU_BUDGET_ANONYMOUS_PER_MINUTE: '0',
      CPU_BUDGET_USER_PER_MINUTE: '0',
      RATE_LIMIT_PER_MINUTE: '0',
    };
    const scoresQuery =
      'query($id: ID!) { user(id: $id) { scores(version: "33", sort: BPI, order: DESC, first: 50) { totalCount edges { node { chartId exScore bpi } } } } }';
    const { DASHBOARD_QUERY } = await import('./dashboard');
    const { RIVALRY_QUERY } = await import('./rivals');
    const bigToken = tokenOf(seeded.big);
    const ok = (r: Awaited<ReturnType<typeof gql>>) => r.status === 200 && !r.body.errors;
    const readersOf = (url: string) => [
      async () => ok(await gql(url, DASHBOARD_QUERY, { id: seeded.big }, bigToken)),
      async () => ok(await gql(url, scoresQuery, { id: seeded.big })),
      async () => ok(await gql(url, RIVALRY_QUERY, {}, bigToken)),
    ];

    // plans per second: inline (before) and in the pool (after)
    const rates: Record<string, Awaited<ReturnType<typeof planRate>>> = {};
    for (const [label, extra] of [
      ['inline (WORKER_POOL_SIZE=0, the path before #27)', { WORKER_POOL_SIZE: '0' }],
      ['worker pool (default size)', {}],
    ] as const) {
      server = await startProcess('src/server.ts', { ...env, ...extra }, 4127, '/readyz');
      await planRate(server.url, seeded.big); // warm-up
      rates[label] = await planRate(server.url, seeded.big);
      await server.stop();
      server = null;
    }
    const [a, b] = Object.values(rates);
    const samePlan = a.plan === b.plan && a.plan !== '';

    server = await startProcess('src/server.ts', env, 4127, '/readyz');
    const url = server.url;
    const readers = readersOf(url);
    for (const r of readers) if (!(await r())) throw new Error('a reader fails before the run');
    const hostile = hostileKinds(seeded.big, 'bench-mixed-hostile', tokenOf('bench-mixed-hostile'));
    const base = await phase(url, readers, null);
    const under = await phase(url, readers, hostile);
    const load1 = os.loadavg()[0].toFixed(2);

    const rows: [string, string, string][] = [];
    const loop = (l: Record<string, number>) =>
      `p50 ${fmt(l.p50 ?? NaN, 1)} / p90 ${fmt(l.p90 ?? NaN, 1)} / p99 ${fmt(l.p99 ?? NaN, 1)} / max ${fmt(l.max ?? NaN, 1)} ms`;
    for (const [name, p] of [
      ['baseline', base],
      ['with hostile', under],
    ] as const) {
      rows.push([
        `readers, ${name}`,
        `p50 ${ms(p.readers, 50)} / p99 ${ms(p.readers, 99)} ms`,
        `${p.readers.length} answers, ${p.readerErrors} errors`,
      ]);
      rows.push([
        `/healthz, ${name}`,
        `p99 ${ms(p.healthz, 99)} / max ${ms(p.healthz, 100)} ms`,
        `${p.healthz.length} probes`,
      ]);
      rows.push([`event-loop delay, ${name}`, loop(p.loop), 'monitorEventLoopDelay via /metrics']);
    }
    const ratio = percentile(under.readers, 99) / Math.max(5, percentile(base.readers, 99));
    rows.push(['readers p99 ratio (floor 5 ms)', `${fmt(ratio, 2)}×`, 'target ≤ 2×']);
    for (const [name, h] of under.hostile)
      rows.push([
        `hostile: ${name}`,
        `p50 ${ms(h.ms, 50)} / max ${ms(h.ms, 100)} ms`,
        Object.entries(h.statuses)
          .map(([k, v]) => `${v}× ${k}`)
          .join(', '),
      ]);
    for (const [label, r] of Object.entries(rates))
      rows.push([`plans/s, maxSteps 30, ${label}`, fmt(r.perSecond, 2), `${r.errors} errors`]);
    rows.push(['same plan inline and in the pool', samePlan ? 'yes' : 'NO', 'bpiPlan steps compared as JSON']);
    for (const r of rows) console.log(r.join(' | '));
    record(
      `Mixed load, issue #27 (${TARGET === 'pglite' ? 'PGlite' : 'PostgreSQL'})`,
      `bench/mixed.ts --duration ${DURATION}: readers (dashboard, score list, rivalry in turn) every ${READER_INTERVAL_MS} ms, /healthz every 20 ms; then the same plus one hostile request a second (kinds in turn); plans/s 4 at a time for ${PLAN_SECONDS} s; server in its own process; load average ${load0} → ${load1} (1 min, shared machine)`,
      rows,
    );
  } finally {
    await server?.stop();
    await bench.drop();
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
