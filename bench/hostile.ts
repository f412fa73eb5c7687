/**
 * `npm run bench:hostile` — issue #21: does a hostile request mixed into a normal load hurt the
 * others? On 127.0.0.1 only, PGlite, the server in its own process, every loop bounded:
 *
 * 0. a short warm-up of the same load (not recorded);
 * 1. baseline: BENCH_DURATION seconds (default 60) of the normal mixed load of
 *    bench/resilience.ts (REST + GraphQL calculator, catalogue read, profile read GraphQL + REST,
 *    CSV re-import; autocannon, 16 connections) while a prober GETs /healthz ten times a second;
 * 2. the same load and prober with one hostile request of the review sent every second, in
 *    rotation (aliased __schema, 100 aliases of bestEver, followers × bestEver, an expensive
 *    document through Apollo's path after a first try without its variable, a 300,000-character
 *    search, 11 aliased mutations, a 1e300 cursor, a 3 MiB migration, a percent-encoded NUL path).
 *
 * Targets: /healthz p99 and the normal requests' p99 under attack within 2× of the baseline's
 * (a floor of 5 ms absorbs timer noise on sub-millisecond baselines); every hostile request
 * refused (4xx or a GraphQL error), none a 5xx.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { LATEST_VERSION } from '../src/domain/constants';
import { fmt, percentile, record, startProcess, tmpDir, type Child } from './lib';
import { ENV, IMPORT, READ, prepare } from './resilience';

const DURATION = Number(process.env.BENCH_DURATION ?? 60);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The hostile requests, one per second in turn: each answers quickly with a refusal. */
function hostileRequests(userId: string, token: string): { name: string; send: (url: string) => Promise<number> }[] {
  const gql =
    (body: unknown, headers: Record<string, string> = {}) =>
    async (url: string) => {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      await res.arrayBuffer();
      return res.status;
    };
  const full =
    'fragment Full on __Schema { types { name kind fields(includeDeprecated: true) { name args { name type { name kind ofType { name kind } } } type { name kind ofType { name kind } } } } }';
  const expensive =
    'query($t: String!) { songs(first: 100, filter: { title: $t }) { edges { node { charts { songNotes(first: 100) { edges { node { body } } } } } } } }';
  const apollo = { accept: 'application/graphql-response+json' };
  const legacy = JSON.stringify({
    '33': {
      scoresHistory: Array.from({ length: 40_000 }, (_, i) => ({
        title: `t${i}`,
        difficulty: 'ANOTHER',
        exScore: 100,
        updatedAt: '2024-01-01T00:00:00Z',
      })),
    },
  });
  return [
    {
      name: '40 aliased __schema',
      send: gql({
        query: `{ ${Array.from({ length: 40 }, (_, i) => `s${i}: __schema { ...Full }`).join(' ')} } ${full}`,
      }),
    },
    {
      name: '100 aliases of bestEver',
      send: gql({
        query: `{ user(id: ${JSON.stringify(userId)}) { ${Array.from({ length: 100 }, (_, i) => `b${i}: bestEver(currentVersion: "33") { chartId }`).join(' ')} } }`,
      }),
    },
    {
      name: 'followers(first: 100) × bestEver',
      send: gql({
        query: `query($id: ID!) { user(id: $id) { followers(first: 100) { edges { node { bestEver(currentVersion: "33") { chartId title bestExScore } } } } } }`,
        variables: { id: userId },
      }),
    },
    {
      name: 'expensive document, Apollo path, first without its variable',
      send: async (url) => {
        await gql({ query: expensive }, apollo)(url);
        return gql({ query: expensive, variables: { t: 'a' } }, apollo)(url);
      },
    },
    {
      name: '300,000-character search',
      send: gql({
        query: 'query($t: String) { songs(filter: { title: $t }) { totalCount } }',
        variables: { t: 'あ'.repeat(300_000) },
      }),
    },
    {
      name: '11 aliased postSongNote',
      send: gql(
        {
          query: `mutation($b: String!) { ${Array.from({ length: 11 }, (_, i) => `n${i}: postSongNote(chartId: "1", body: $b) { note { id } }`).join(' ')} }`,
          variables: { b: 'x'.repeat(3000) },
        },
        { authorization: `Bearer ${token}` },
      ),
    },
    {
      name: 'cursor holding 1e300',
      send: gql({
        query: `{ globalRanking(after: ${JSON.stringify(Buffer.from('[1e300]').toString('base64url'))}) { totalCount } }`,
      }),
    },
    {
      name: '3 MiB migrateLegacyScores',
      send: gql(
        {
          query: 'mutation($u: ID!, $d: String!) { migrateLegacyScores(userId: $u, data: $d) { totalProcessed } }',
          variables: { u: userId, d: legacy },
        },
        { authorization: `Bearer ${token}` },
      ),
    },
    {
      name: 'percent-encoded NUL path',
      send: async (url) => {
        const res = await fetch(`${url}/%61pi/v1/users/%00/profile`);
        await res.arrayBuffer();
        return res.status;
      },
    },
  ];
}

/** /healthz latencies (ms), ten probes a second until `until()`. */
async function probe(url: string, until: () => boolean): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; !until() && i < DURATION * 20 + 100; i++) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
    } catch {
      /* counted as its time */
    }
    out.push(performance.now() - t0);
    await sleep(100);
  }
  return out;
}

async function phase(server: Child, userId: string, token: string, csv: string, hostile: boolean, duration = DURATION) {
  const auth = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const body = (query: string, variables?: unknown) => JSON.stringify({ query, variables });
  const requests = [
    { method: 'GET' as const, path: '/api/v1/bpi/calc?title=Aurora%20Drive&difficulty=ANOTHER&exScore=1500' },
    {
      method: 'POST' as const,
      path: '/graphql',
      headers: auth,
      body: body('{ bpiCalc(title: "Aurora Drive", difficulty: ANOTHER, exScore: 1500) { bpi } }'),
    },
    { method: 'POST' as const, path: '/graphql', headers: auth, body: body(READ) },
    {
      method: 'POST' as const,
      path: '/graphql',
      headers: auth,
      body: body(`query($id: ID!) { user(id: $id) { name stats { totalBpi } followers(first: 10) { totalCount } } }`, {
        id: userId,
      }),
    },
    { method: 'GET' as const, path: `/api/v1/users/${userId}/profile` },
    {
      method: 'POST' as const,
      path: '/graphql',
      headers: auth,
      body: body(IMPORT, { u: userId, v: LATEST_VERSION, csv }),
    },
  ];
  let running = true;
  const healthz = probe(server.url, () => !running);
  const attacks: { name: string; status: number; ms: number }[] = [];
  const attacker = (async () => {
    if (!hostile) return;
    const list = hostileRequests(userId, token);
    for (let i = 0; running && i < DURATION + 10; i++) {
      const a = list[i % list.length];
      const t0 = performance.now();
      let status = 0;
      try {
        status = await a.send(server.url);
      } catch {
        status = -1;
      }
      attacks.push({ name: a.name, status, ms: performance.now() - t0 });
      await sleep(Math.max(0, 1000 - (performance.now() - t0)));
    }
  })();
  const result = await autocannon({ url: server.url, connections: 16, duration, requests });
  running = false;
  await Promise.all([attacker, healthz]);
  return { result, healthz: await healthz, attacks };
}

async function main() {
  console.log(
    `bench:hostile — ${DURATION} s baseline, then ${DURATION} s with a hostile request every second (127.0.0.1, PGlite)`,
  );
  const dataDir = tmpDir('hostile');
  const { userId, token, csv } = await prepare(undefined, dataDir);
  const server = await startProcess('src/server.ts', ENV(dataDir), 4143, '/readyz');
  try {
    // the first import is real; the load re-imports the same file (no-op path)
    const first = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: IMPORT, variables: { u: userId, v: LATEST_VERSION, csv: csv(1) } }),
    });
    await first.arrayBuffer();
    // warm-up (JIT, caches), not recorded
    await phase(server, userId, token, csv(1), false, Math.max(3, Math.round(DURATION / 6)));
    const base = await phase(server, userId, token, csv(1), false);
    const attacked = await phase(server, userId, token, csv(1), true);
    const p99 = (xs: number[]) => percentile(xs, 99);
    const hzBase = p99(base.healthz);
    const hzAttack = p99(attacked.healthz);
    const reqBase = base.result.latency.p99;
    const reqAttack = attacked.result.latency.p99;
    const within = (a: number, b: number) => a <= Math.max(2 * b, b + 5);
    const fivexx = attacked.attacks.filter((a) => a.status >= 500 || a.status < 0);
    const byName = new Map<string, number[]>();
    for (const a of attacked.attacks) byName.set(a.name, [...(byName.get(a.name) ?? []), a.ms]);
    for (const [name, ms] of byName)
      console.log(
        `  ${name}: ${ms.length}×, slowest ${fmt(Math.max(...ms))} ms, statuses ${[...new Set(attacked.attacks.filter((a) => a.name === name).map((a) => a.status))].join('/')}`,
      );
    record(
      'Hostile requests under load (issue #21)',
      `bench/hostile.ts: ${DURATION} s of the resilience mixed load (autocannon, 16 connections, 127.0.0.1, PGlite, server in its own process) with /healthz probed 10×/s; then the same with one of ${byName.size} hostile requests of the review every second (${attacked.attacks.length} sent)`,
      [
        [
          '/healthz p99 without → with hostile requests',
          `${fmt(hzBase, 1)} → ${fmt(hzAttack, 1)} ms (${fmt(hzAttack / Math.max(hzBase, 0.001), 2)}×)`,
          `≤ 2× (floor +5 ms) — ${within(hzAttack, hzBase) ? 'met' : 'NOT met'}`,
        ],
        [
          'normal requests p99 without → with',
          `${fmt(reqBase)} → ${fmt(reqAttack)} ms (${fmt(reqAttack / Math.max(reqBase, 0.001), 2)}×)`,
          `≤ 2× (floor +5 ms) — ${within(reqAttack, reqBase) ? 'met' : 'NOT met'}`,
        ],
        [
          'normal requests/s without → with',
          `${fmt(base.result.requests.average)} → ${fmt(attacked.result.requests.average)}`,
          '—',
        ],
        [
          'normal errors + non-2xx (both runs)',
          String(base.result.errors + base.result.non2xx + attacked.result.errors + attacked.result.non2xx),
          '0',
        ],
        [
          'hostile requests answered 5xx or not at all',
          `${fivexx.length} of ${attacked.attacks.length}`,
          `0 — ${fivexx.length === 0 ? 'met' : 'NOT met'}`,
        ],
        ['slowest hostile answer', `${fmt(Math.max(...attacked.attacks.map((a) => a.ms)))} ms`, '—'],
      ],
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
