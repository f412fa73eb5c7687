import 'reflect-metadata';
/**
 * npm run cluster — N API processes behind haproxy, on a PostgreSQL primary with a streaming
 * replica (built on loopback from the machine's binaries, test/helpers/replica.ts) and a Redis,
 * under a mixed load through the balancer:
 *
 *  - reads: REST /api/v1/bpi/calc (anonymous), GraphQL user(id) (anonymous), me (signed in);
 *  - writes: score imports (importScores) and follows (each a NEW_FOLLOWER notification);
 *  - subscriptions: signed-in graphql-ws clients through the balancer, subscribed to
 *    notificationAdded — the follows land on whichever process the balancer picks, so events
 *    cross processes (Redis carries the cluster bus);
 *  - mid-run, a definitions import through the balancer: every process is then asked directly
 *    until it answers the new definition's BPI (the delay is recorded);
 *  - a rate-limit probe: 30 token exchanges through the balancer against the 20/min limit —
 *    counted cluster-wide (Redis store) the balancer's spreading does not multiply it.
 *
 * Then the same mix against ONE process (same balancer, same data) for the throughput ratio.
 * Environment: CLUSTER_PROCESSES (3), CLUSTER_SECONDS (60), CLUSTER_ONE_SECONDS (30),
 * CLUSTER_CONCURRENCY (8), CLUSTER_REPLICA (1; 0 = no replica, a database on the bench server).
 */
import net from 'node:net';
import os from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import { Client as PgClient } from 'pg';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { applyMigrations } from '../src/db/migrate';
import { demoDefinitions, seedDemoCatalogue } from '../src/db/seed';
import { createLogger } from '../src/logger';
import { startStreamingPair, type StreamingPair } from '../test/helpers/replica';
import { startRecipe } from './cluster-recipe';
import { fmt, pgAdminUrl, pgUrl, record } from './lib';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createClient } = require('graphql-ws/client') as typeof import('graphql-ws/dist/client');

const N = Number(process.env.CLUSTER_PROCESSES ?? 3);
const SECONDS = Number(process.env.CLUSTER_SECONDS ?? 60);
const ONE_SECONDS = Number(process.env.CLUSTER_ONE_SECONDS ?? 30);
const CONCURRENCY = Number(process.env.CLUSTER_CONCURRENCY ?? 8);
const WITH_REPLICA = process.env.CLUSTER_REPLICA !== '0';
const PLAYERS = 60;
const SUBSCRIBED = 12;
const JWT_SECRET = 'cluster-bench-secret-cluster-bench-secret-0123';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function startRedis(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => d.toString().includes('Ready to accept connections') && resolve());
    proc.on('exit', (c) => reject(new Error(`redis-server exited (${c})`)));
  });
  return { url: `redis://127.0.0.1:${port}`, proc };
}

/** The shipped recipe (deploy/cluster.json, deploy/haproxy.cfg; bench/cluster-recipe.ts) with n API processes. */
const startCluster = (n: number, env: Record<string, string>) => startRecipe(env, freePort, n);

interface Fixture {
  players: { id: string; token: string }[];
  admin: string;
  charts: { title: string; difficulty: string; notes: number }[];
}

const gqlBody = (query: string, variables: Record<string, unknown> = {}) => JSON.stringify({ query, variables });

/** What the mix reads of a GraphQL answer's data (the signed-in player's id). */
interface GqlData {
  me?: { databaseId?: string } | null;
}

async function gql(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<{ ok: boolean; data?: GqlData; status: number; text?: string }> {
  const res = await fetch(url + '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: gqlBody(query, variables),
  });
  const text = await res.text();
  try {
    const body = JSON.parse(text);
    return {
      ok: res.ok && !body.errors,
      data: body.data,
      status: res.status,
      text: body.errors ? text.slice(0, 300) : undefined,
    };
  } catch {
    return { ok: false, status: res.status, text: text.slice(0, 300) };
  }
}

interface MixResult {
  requests: number;
  errors: number;
  errorSamples: string[];
  byKind: Record<string, number>;
  follows: number;
  rps: number;
}

/** The mixed load for `seconds` through `url`, CONCURRENCY workers. */
async function mix(
  url: string,
  fx: Fixture,
  seconds: number,
  followPairs: [number, number][],
  during?: (elapsed: number) => void,
): Promise<MixResult> {
  const r: MixResult = { requests: 0, errors: 0, errorSamples: [], byKind: {}, follows: 0, rps: 0 };
  const t0 = Date.now();
  const end = t0 + seconds * 1000;
  const fail = (kind: string, msg: string) => {
    r.errors++;
    if (r.errorSamples.length < 3) r.errorSamples.push(`${kind}: ${msg.replace(/\s+/g, ' ').slice(0, 160)}`);
  };
  let seed = 1;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const worker = async () => {
    while (Date.now() < end) {
      const x = rnd();
      let kind: string;
      try {
        if (x < 0.45) {
          kind = 'calc';
          const c = fx.charts[Math.floor(rnd() * fx.charts.length)];
          const res = await fetch(
            `${url}/api/v1/bpi/calc?${new URLSearchParams({ title: c.title, difficulty: c.difficulty, exScore: String(Math.floor(c.notes * 1.6)) })}`,
          );
          if (!res.ok) fail(kind, `${res.status} ${(await res.text()).slice(0, 200)}`);
          else await res.arrayBuffer();
        } else if (x < 0.7) {
          kind = 'user';
          const p = fx.players[Math.floor(rnd() * fx.players.length)];
          const q = await gql(url, 'query($id: ID!) { user(id: $id) { name isPublic } }', { id: p.id });
          if (!q.ok) fail(kind, `${q.status} ${q.text}`);
        } else if (x < 0.85) {
          kind = 'me';
          const p = fx.players[Math.floor(rnd() * fx.players.length)];
          // databaseId: the user's id (`id` is the opaque global id of the Node interface)
          const q = await gql(url, '{ me { databaseId name } }', {}, p.token);
          if (!q.ok || q.data!.me?.databaseId !== p.id)
            fail(kind, `${q.status} ${q.text ?? JSON.stringify(q.data).slice(0, 200)}`);
        } else if (x < 0.93 && followPairs.length) {
          kind = 'follow';
          const [from, to] = followPairs.pop()!;
          const q = await gql(
            url,
            'mutation($u: ID!) { follow(userId: $u) { state } }',
            { u: fx.players[to].id },
            fx.players[from].token,
          );
          if (!q.ok) fail(kind, `${q.status} ${q.text}`);
          else r.follows++;
        } else {
          kind = 'import';
          const p = fx.players[SUBSCRIBED + Math.floor(rnd() * (fx.players.length - SUBSCRIBED))];
          const rows = Array.from({ length: 5 }, () => {
            const c = fx.charts[Math.floor(rnd() * fx.charts.length)];
            return {
              title: c.title,
              difficulty: c.difficulty,
              exScore: Math.floor(c.notes * (1.4 + rnd() * 0.5)),
              clearState: 'HARD CLEAR',
            };
          });
          const q = await gql(
            url,
            'mutation($u: ID!, $rows: [ScoreRowInput!]!) { importScores(userId: $u, version: "33", rows: $rows) { __typename } }',
            { u: p.id, rows },
            p.token,
          );
          if (!q.ok) fail(kind, `${q.status} ${q.text}`);
        }
      } catch (err) {
        kind = 'network';
        fail(kind, (err as Error).message);
      }
      r.requests++;
      r.byKind[kind] = (r.byKind[kind] ?? 0) + 1;
      during?.(Date.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  r.rps = r.requests / ((Date.now() - t0) / 1000);
  return r;
}

async function main() {
  const load1 = os.loadavg()[0];
  console.log(
    `cluster bench: ${N} processes, ${SECONDS} s mixed load (1 process: ${ONE_SECONDS} s), ${CONCURRENCY} workers, replica ${WITH_REPLICA ? 'on' : 'off'}; load average ${load1.toFixed(1)}`,
  );
  let pair: StreamingPair | undefined;
  let primaryUrl: string;
  let dropDb: (() => Promise<void>) | undefined;
  const prepare = async (u: string) => {
    const h = await openDatabase({ url: u, poolMax: 4 });
    await applyMigrations(h.adapterFactory);
    await seedDemoCatalogue(h.prisma);
    await h.close();
  };
  if (WITH_REPLICA) {
    pair = await startStreamingPair(prepare);
    primaryUrl = pair.primaryUrl;
  } else {
    const name = `bpigraph_cluster_bench_${process.pid}`;
    const admin = new PgClient({ connectionString: pgAdminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    primaryUrl = pgUrl(name);
    await prepare(primaryUrl);
    dropDb = async () => {
      const a = new PgClient({ connectionString: pgAdminUrl() });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    };
  }
  const redis = await startRedis();
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: primaryUrl,
    DATABASE_POOL_MAX: '8',
    REDIS_URL: redis.url,
    JWT_SECRET,
    PUBLIC_URL: 'http://127.0.0.1',
    SEED_DEMO: 'false',
    GRAPHQL_EXPLORER: 'false',
    // every request reaches the backends from haproxy's address: the write limit per IP would
    // throttle the whole load; the token endpoint's fixed limit (20/min) is probed instead
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
    ...(pair ? { DATABASE_REPLICA_URLS: pair.replicaUrl } : {}),
  };

  // Players, tokens and the chart list, prepared in this process.
  const db = await openDatabase({ url: primaryUrl, poolMax: 2 });
  const setupApp = await createApp(loadConfig({ ...env, NODE_ENV: 'test', REDIS_URL: '' }), db, createLogger('silent'));
  const players: Fixture['players'] = [];
  for (let i = 0; i < PLAYERS; i++) {
    const u = await db.prisma.user.create({ data: { name: `cb${i}`, nameKey: `cb${i}`, isPublic: true } });
    players.push({ id: u.id, token: (await setupApp.auth.issueAccessToken(u.id)).token });
  }
  const adminUser = await db.prisma.user.create({ data: { name: 'cbadmin', nameKey: 'cbadmin', isAdmin: true } });
  const fx: Fixture = {
    players,
    admin: (await setupApp.auth.issueAccessToken(adminUser.id)).token,
    charts: [...setupApp.catalogue.charts()]
      .filter((c) => c.playStyle === 'SP' && c.definition)
      .map((c) => ({ title: c.title, difficulty: c.difficulty, notes: c.notes })),
  };
  await setupApp.bus.close();
  await db.close();

  // The follow pairs: every non-subscribed player follows each subscribed one once (one NEW_FOLLOWER each).
  const pairs = (): [number, number][] => {
    const out: [number, number][] = [];
    for (let from = SUBSCRIBED; from < PLAYERS; from++) for (let to = 0; to < SUBSCRIBED; to++) out.push([from, to]);
    return out.sort(() => Math.random() - 0.5);
  };

  // ---- N processes
  const cluster = await startCluster(N, env);
  console.log(`cluster up: ${cluster.url} → ${cluster.backends.map((b) => b.url).join(', ')}`);
  const received = new Map<string, number>();
  const clients = await Promise.all(
    players.slice(0, SUBSCRIBED).map(async (p) => {
      const client = createClient({
        url: cluster.url.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${p.token}` },
        retryAttempts: 0,
        lazy: false,
      });
      await new Promise<void>((resolve, reject) => {
        client.subscribe<{ notificationAdded?: { type?: string } | null }>(
          { query: 'subscription { notificationAdded { type actorId } }' },
          {
            next: (m) =>
              m.data?.notificationAdded?.type === 'NEW_FOLLOWER' && received.set(p.id, (received.get(p.id) ?? 0) + 1),
            error: reject,
            complete: () => {},
          },
        );
        client.on('connected', () => resolve());
      });
      return client;
    }),
  );
  await new Promise((r) => setTimeout(r, 1000)); // subscriptions registered on their processes

  // Rate-limit probe (20 token exchanges per minute per client address, shared through Redis).
  const probe: number[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${cluster.url}/api/v1/token`, { method: 'POST', headers: { 'x-api-key': `bogus-${i}` } });
    probe.push(res.status);
    await res.arrayBuffer();
  }
  const limited = probe.filter((s) => s === 429).length;

  // Definitions import at mid-run; each backend asked directly for the new BPI.
  const doc = demoDefinitions();
  const target = doc.body.find((e) => e.difficulty === '4')!;
  const notes = Number(target.notes);
  const newDoc = {
    ...doc,
    version: 'demo-2',
    body: doc.body.map((e) => (e === target ? { ...e, wr: notes * 2 - 10, avg: Math.floor(notes * 1.6) } : e)),
  };
  const calcPath = `/api/v1/bpi/calc?${new URLSearchParams({ title: String(target.title), difficulty: 'ANOTHER', exScore: String(Math.floor(notes * 1.6)) })}`;
  let importDone: Promise<{ delays: (number | null)[]; ok: boolean }> | undefined;
  const followPairs = pairs();
  const totalPairs = followPairs.length;
  const nResult = await mix(cluster.url, fx, SECONDS, followPairs, (elapsed) => {
    if (importDone || elapsed < (SECONDS * 1000) / 2) return;
    importDone = (async () => {
      const q = await gql(
        cluster.url,
        'mutation($j: String!) { importDefinitions(json: $j) { changed } }',
        { j: JSON.stringify(newDoc) },
        fx.admin,
      );
      const t0 = Date.now();
      // the kaiden average is now exactly this EX score: BPI 0 on every process
      const delays = await Promise.all(
        cluster.backends.map(async (b) => {
          for (;;) {
            const body = (await (await fetch(b.url + calcPath)).json()) as { bpi?: number };
            if (body.bpi === 0) return Date.now() - t0;
            if (Date.now() - t0 > 5000) return null;
            await new Promise((r) => setTimeout(r, 10));
          }
        }),
      );
      return { delays, ok: q.ok };
    })();
  });
  const imported = await importDone!;
  await new Promise((r) => setTimeout(r, 2000)); // the last events in flight
  const delivered = [...received.values()].reduce((a, b) => a + b, 0);
  await Promise.all(clients.map((c) => c.dispose()));
  await cluster.stop();

  // ---- 1 process, same mix (the follows already made are not repeated: fresh pairs are none, so follows become imports)
  const one = await startCluster(1, env);
  const oneResult = await mix(one.url, fx, ONE_SECONDS, []);
  await one.stop();

  const load2 = os.loadavg()[0];
  redis.proc.kill('SIGTERM');
  await pair?.stop();
  await dropDb?.();

  const kinds = (r: MixResult) =>
    Object.entries(r.byKind)
      .map(([k, v]) => `${k} ${fmt(v)}`)
      .join(', ');
  record(
    `Cluster: ${N} API processes behind haproxy (PostgreSQL${pair ? ' + streaming replica' : ''}, Redis)`,
    `bench/cluster.ts (npm run cluster): ${N} server processes (src/server.ts, NODE_ENV=production, pool 8 each) behind haproxy (balance hdr(authorization), consistent hash; anonymous round-robin); ${CONCURRENCY} closed-loop workers in one client process; mix ≈ 45% REST bpi/calc, 25% GraphQL user(id), 15% me, 8% follow, 7% importScores (5 rows); ${SUBSCRIBED} graphql-ws subscribers through the balancer; all on this shared 2-core machine together with PostgreSQL, the replica, Redis, haproxy and the load generator — load average ${load1.toFixed(1)} before, ${load2.toFixed(1)} after (other engineers' jobs included), so the absolute figures are those of a saturated machine`,
    [
      [
        `requests through the balancer, ${N} processes (${SECONDS} s)`,
        `${fmt(nResult.requests)} (${kinds(nResult)})`,
        '—',
      ],
      [
        'errors (non-2xx, GraphQL errors, network)',
        `${nResult.errors}${nResult.errorSamples.length ? ` — ${nResult.errorSamples.join(' | ')}` : ''}`,
        '0',
      ],
      [`throughput, ${N} processes`, `${fmt(nResult.rps, 1)} req/s`, '—'],
      [
        `throughput, 1 process (${ONE_SECONDS} s, no follows left: those requests became imports)`,
        `${fmt(oneResult.rps, 1)} req/s (errors ${oneResult.errors})`,
        '—',
      ],
      [`${N} / 1 processes`, fmt(nResult.rps / oneResult.rps, 2), `≤ 2 on 2 cores`],
      [
        'follows made / NEW_FOLLOWER events delivered to subscribers (across processes)',
        `${fmt(nResult.follows)} of ${fmt(totalPairs)} / ${fmt(delivered)}`,
        'equal',
      ],
      [
        'rate-limit probe: 30 token exchanges through the balancer (limit 20/min, shared)',
        `${limited} answered 429 (statuses: ${[...new Set(probe)].join(', ')})`,
        '10',
      ],
      [
        'definitions import mid-run: delay until each process answers the new BPI',
        `${imported.ok ? '' : 'IMPORT FAILED; '}${imported.delays.map((d) => (d === null ? 'not within 5 s' : `${d} ms`)).join(', ')}`,
        '< 1000 ms each',
      ],
    ],
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
