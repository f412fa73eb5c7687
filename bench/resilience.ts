/**
 * `npm run test:resilience` — bounded resilience checks on loopback (127.0.0.1 only):
 *
 * 1. Load: RESILIENCE_DURATION seconds (default 60) of a mixed load (REST calculator, GraphQL
 *    calculator, catalogue read, profile read, CSV re-import) on the server in its own process
 *    (PGlite), 16 connections; a probe checks GraphQL bodies. Passes with 0 errors, 0 non-2xx,
 *    0 GraphQL errors, and stable RSS (end ≤ 1.3 × RSS after the first quarter).
 * 2. PostgreSQL outage (only with RESILIENCE_OUTAGE=1: it STOPS a cluster): a throw-away database
 *    on cluster RESILIENCE_PG_CLUSTER (default "15 main") at RESILIENCE_PG_URL (default
 *    postgresql://postgres@127.0.0.1:5432/postgres); the server under a light load; an import is
 *    started and the cluster stopped (`pg_ctlcluster --skip-systemctl-redirect <ver> <name> stop -m fast`)
 *    while it runs. While down: /readyz 503, GraphQL answers clean JSON errors (no stack, no
 *    hang), the process stays up. Then the cluster is started again: /readyz 200 within 60 s,
 *    reads succeed again, and the import is either wholly applied or absent (never half), and a
 *    re-import applies cleanly.
 * Every loop is bounded (by time and count). Exit code 1 when a check fails.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { applyMigrations } from '../src/db/migrate';
import { seedDemoCatalogue } from '../src/db/seed';
import { LATEST_VERSION } from '../src/domain/constants';
import { createLogger } from '../src/logger';
import { fmt, record, rssMiB, startProcess, tmpDir, type Child } from './lib';
import { OFFICIAL_HEADER } from '../src/domain/csv/official-writer';

const JWT = 'bench-secret-bench-secret-bench-secret-000';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? '  ok  ' : '  FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

const DIFFS = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'];
const HEADER = OFFICIAL_HEADER;

/** An official current-layout CSV over the catalogue's songs (scores scaled by `seed`). */
function csvFor(
  songs: { title: string; charts: { difficulty: string; notes: number | null; level: number }[] }[],
  seed: number,
): string {
  const lines = [HEADER];
  for (const s of songs) {
    const groups = DIFFS.map((d) => {
      const c = s.charts.find((x) => x.difficulty === d);
      if (!c) return '0,0,0,0,---,NO PLAY,---';
      return [c.level, Math.floor((c.notes ?? 0) * (1.2 + (seed % 50) / 100)), 0, 0, 5, 'HARD CLEAR', 'AA'].join(',');
    });
    lines.push(['33 Sparkle Shower', s.title, 'G', 'A', 1, ...groups, '2025-01-02 03:04'].join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** Seeds a database (migrations, demo catalogue, one player) and returns the player, a token and two CSVs. */
export async function prepare(url: string | undefined, dataDir: string) {
  const db = await openDatabase({ url, dataDir });
  try {
    await applyMigrations(db.adapterFactory);
    await seedDemoCatalogue(db.prisma);
    const user = await db.prisma.user.create({
      data: { name: 'resilience', nameKey: `resilience-${Date.now()}`, isPublic: true },
    });
    const app = await createApp(
      loadConfig({ ...process.env, DATABASE_URL: url ?? '', DATA_DIR: dataDir, JWT_SECRET: JWT, LOG_LEVEL: 'silent' }),
      db,
      createLogger('silent'),
    );
    const token = (await app.auth.issueAccessToken(user.id)).token;
    await app.pubsub.close();
    await app.rateLimiter.close();
    const songs = await db.prisma.song.findMany({
      include: { charts: { where: { playStyle: 'SP' } } },
      orderBy: { id: 'asc' },
    });
    return { userId: user.id, token, csv: (seed: number) => csvFor(songs, seed) };
  } finally {
    await db.close();
  }
}

export const ENV = (dataDir: string, url = '') => ({
  DATA_DIR: dataDir,
  DATABASE_URL: url,
  SEED_DEMO: 'false',
  JWT_SECRET: JWT,
  RATE_LIMIT_WRITES_PER_MINUTE: '0',
  RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
  LOG_LEVEL: 'error',
});

/** What the benchmarks read of a GraphQL answer: the import's counts and the errors' codes. */
export interface GqlAnswer {
  data?: { importScoresCsv?: { batchId?: string; rowCount?: number } | null } | null;
  errors?: { message?: string; extensions?: { code?: string } }[];
}

export async function post(
  server: Child,
  body: unknown,
  token?: string,
  timeoutMs = 10_000,
): Promise<{ status: number; text: string; json: GqlAnswer | null }> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: GqlAnswer | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, text, json };
}

export const IMPORT = `mutation($u: ID!, $v: GameVersion!, $csv: String!) { importScoresCsv(userId: $u, version: $v, csv: $csv) { batchId rowCount updatedCount } }`;
export const READ = `{ songs(first: 5) { totalCount edges { node { title charts { id definition { notes } } } } } }`;

// ---------------------------------------------------------------------------------------------
async function loadTest(duration = Number(process.env.RESILIENCE_DURATION ?? 60)): Promise<void> {
  console.log(`\n[1] bounded load: ${duration} s on 127.0.0.1 (PGlite)`);
  const dataDir = tmpDir('resilience');
  const { userId, token, csv } = await prepare(undefined, dataDir);
  const server = await startProcess('src/server.ts', ENV(dataDir), 4141, '/readyz');
  try {
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const gql = (query: string, variables?: unknown) => JSON.stringify({ query, variables });
    // The first import is real; the load re-imports the same file (no-op path, one transaction each).
    const first = await post(
      server,
      { query: IMPORT, variables: { u: userId, v: LATEST_VERSION, csv: csv(1) } },
      token,
      60_000,
    );
    check(
      !first.json?.errors,
      `initial import through GraphQL (${first.json?.data?.importScoresCsv?.rowCount ?? first.text.slice(0, 120)} rows)`,
    );
    const requests = [
      { method: 'GET' as const, path: '/api/v1/bpi/calc?title=Aurora%20Drive&difficulty=ANOTHER&exScore=1500' },
      {
        method: 'POST' as const,
        path: '/graphql',
        headers: auth,
        body: gql('{ bpiCalc(title: "Aurora Drive", difficulty: ANOTHER, exScore: 1500) { bpi } }'),
      },
      { method: 'POST' as const, path: '/graphql', headers: auth, body: gql(READ) },
      {
        method: 'POST' as const,
        path: '/graphql',
        headers: auth,
        body: gql(`query($id: ID!) { user(id: $id) { name stats { totalBpi } followers(first: 10) { totalCount } } }`, {
          id: userId,
        }),
      },
      { method: 'GET' as const, path: `/api/v1/users/${userId}/profile` },
      {
        method: 'POST' as const,
        path: '/graphql',
        headers: auth,
        body: gql(IMPORT, { u: userId, v: LATEST_VERSION, csv: csv(1) }),
      },
    ];
    const rss: number[] = [];
    const probeErrors: string[] = [];
    let running = true;
    const sampler = (async () => {
      for (let i = 0; running && i < duration * 4 + 20; i++) {
        rss.push(rssMiB(server.proc.pid!));
        for (const body of [
          { query: READ },
          { query: IMPORT, variables: { u: userId, v: LATEST_VERSION, csv: csv(1) } },
        ]) {
          try {
            const r = await post(server, body, token, 20_000);
            if (r.status !== 200 || r.json?.errors) probeErrors.push(`${r.status} ${r.text.slice(0, 160)}`);
          } catch (err) {
            probeErrors.push(String(err));
          }
        }
        await sleep(250);
      }
    })();
    const result = await autocannon({ url: server.url, connections: 16, duration, requests });
    running = false;
    await sampler;
    const quarter = rss[Math.floor(rss.length / 4)];
    const end = rss[rss.length - 1];
    console.log(
      `  ${result.requests.total} requests, ${fmt(result.requests.average)} req/s, RSS ${fmt(rss[0])} → ${fmt(quarter)} (¼) → ${fmt(end)} MiB (end)`,
    );
    check(
      result.errors === 0 && result.timeouts === 0,
      `0 connection errors / timeouts (${result.errors} / ${result.timeouts})`,
    );
    check(result.non2xx === 0, `0 non-2xx (${result.non2xx})`);
    check(
      probeErrors.length === 0,
      `0 GraphQL errors in ${rss.length * 2} probe requests${probeErrors.length ? `: ${probeErrors.slice(0, 3).join(' | ')}` : ''}`,
    );
    check(end <= quarter * 1.3, `stable RSS: end ${fmt(end)} MiB ≤ 1.3 × ${fmt(quarter)} MiB after the first quarter`);
    check(server.proc.exitCode === null, 'server still running');
    record(
      'Resilience: bounded load',
      `bench/resilience.ts: ${duration} s mixed load (REST + GraphQL calculator, catalogue read, profile read GraphQL + REST, CSV re-import), autocannon 16 connections on 127.0.0.1, PGlite, server in its own process; probe every 250 ms checks GraphQL bodies`,
      [
        ['requests', `${fmt(result.requests.total)} (${fmt(result.requests.average)} req/s)`, '—'],
        [
          'errors + timeouts + non-2xx + GraphQL errors (probe)',
          String(result.errors + result.timeouts + result.non2xx + probeErrors.length),
          `0 — ${result.errors + result.timeouts + result.non2xx + probeErrors.length === 0 ? 'met' : 'NOT met'}`,
        ],
        [
          'RSS at ¼ of the run → end',
          `${fmt(quarter)} → ${fmt(end)} MiB (${fmt(end / quarter, 2)})`,
          `≤ 1.3 — ${end <= quarter * 1.3 ? 'met' : 'NOT met'}`,
        ],
      ],
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
function pgctl(action: 'stop' | 'start', cluster: string[]): void {
  const args = ['--skip-systemctl-redirect', ...cluster, action, ...(action === 'stop' ? ['-m', 'fast'] : [])];
  console.log(`  $ pg_ctlcluster ${args.join(' ')}`);
  execFileSync('pg_ctlcluster', args, { stdio: 'inherit', timeout: 60_000 });
}

async function outageTest(): Promise<void> {
  const cluster = (process.env.RESILIENCE_PG_CLUSTER ?? '15 main').split(/\s+/);
  const adminUrl = process.env.RESILIENCE_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const host = new URL(adminUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1')
    throw new Error(`RESILIENCE_PG_URL must be a loopback address (got ${host})`);
  console.log(`\n[2] PostgreSQL outage: cluster ${cluster.join(' ')} at ${adminUrl}`);
  const name = `bpigraph_resilience_${process.pid}`;
  const url = (() => {
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    return u.toString();
  })();
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: adminUrl });
    await c.connect();
    try {
      return await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const dataDir = tmpDir('outage');
  let server: Child | undefined;
  let stopped = false;
  try {
    const { userId, token, csv } = await prepare(url, dataDir);
    // LOG_LEVEL fatal: every failed request while down is logged with its stack otherwise (noise here).
    server = await startProcess(
      'src/server.ts',
      { ...ENV(dataDir, url), DATABASE_POOL_MAX: '4', LOG_LEVEL: 'fatal' },
      4142,
      '/readyz',
    );
    const s = server;

    // A probe loop (bounded) recording what clients see in each phase.
    type Obs = { phase: string; ready: number; read: number; readCode: string; clean: boolean };
    const obs: Obs[] = [];
    let phase = 'before';
    let probing = true;
    const prober = (async () => {
      for (let i = 0; probing && i < 2000; i++) {
        let ready = 0;
        let read = 0;
        let readCode = 'OK';
        let clean = true;
        try {
          ready = (await fetch(`${s.url}/readyz`, { signal: AbortSignal.timeout(5000) })).status;
        } catch {
          ready = -1;
        }
        try {
          const r = await post(s, { query: READ }, undefined, 15_000);
          read = r.status;
          if (r.json?.errors) readCode = r.json.errors[0]?.extensions?.code ?? 'NO_CODE';
          clean = r.json !== null && !/\bat .+\.(ts|js):\d+/.test(r.text) && !/stack/i.test(r.text);
        } catch (err) {
          read = -1;
          readCode = String((err as Error).name);
          clean = false;
        }
        obs.push({ phase, ready, read, readCode, clean });
        await sleep(200);
      }
    })();
    await sleep(2000);

    // Stop the cluster while an import runs.
    phase = 'import+stop';
    const importing = post(
      s,
      { query: IMPORT, variables: { u: userId, v: LATEST_VERSION, csv: csv(7) } },
      token,
      60_000,
    ).catch((err) => ({ status: -1, text: String(err), json: null }));
    await sleep(30);
    pgctl('stop', cluster);
    stopped = true;
    const imp = await importing;
    const importApplied = imp.status === 200 && !imp.json?.errors;
    console.log(
      `  import during the stop: ${importApplied ? 'committed before the stop' : `refused (${imp.json?.errors?.[0]?.extensions?.code ?? imp.status})`}`,
    );
    check(imp.json !== null, 'the interrupted import answered with JSON (no hang, no HTML)');
    phase = 'down';
    await sleep(6000);
    check(s.proc.exitCode === null, 'server process stays up while the database is down');
    pgctl('start', cluster);
    stopped = false;
    phase = 'restarting';
    const t0 = Date.now();
    let recovered = false;
    for (let i = 0; i < 120 && !recovered; i++) {
      recovered = (await fetch(`${s.url}/readyz`).catch(() => null))?.status === 200;
      if (!recovered) await sleep(500);
    }
    const recoveryMs = Date.now() - t0;
    check(recovered, `/readyz 200 again after the restart (${fmt(recoveryMs / 1000, 1)} s)`);
    phase = 'after';
    await sleep(4000);
    probing = false;
    await prober;

    const down = obs.filter((o) => o.phase === 'down');
    const after = obs.filter((o) => o.phase === 'after');
    check(
      down.length > 0 && down.some((o) => o.ready === 503),
      `/readyz 503 while down (${down.map((o) => o.ready).join(',')})`,
    );
    check(
      down.every((o) => o.ready === 503 || o.ready === 200),
      'every /readyz answer while down is 503 (or 200 before the pool noticed)',
    );
    check(
      down.every((o) => o.clean),
      `clean JSON errors while down (read codes: ${[...new Set(down.map((o) => `${o.read}/${o.readCode}`))].join(', ')})`,
    );
    check(
      after.length > 0 && after.every((o) => o.ready === 200 && o.read === 200 && o.readCode === 'OK'),
      `full recovery: ${after.length} probes after the restart all succeed`,
    );

    // No half-applied import: every batch has all its plays; a re-import applies cleanly.
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query(
        `SELECT b.id, b."rowCount", (SELECT count(*)::int FROM "Score" s WHERE s."batchId" = b.id) AS plays FROM "ImportBatch" b WHERE b."userId" = $1 ORDER BY b.id`,
        [userId],
      );
      console.log(`  batches after recovery: ${JSON.stringify(rows)}`);
      check(
        rows.length === (importApplied ? 1 : 0),
        `import batches: ${rows.length} (${importApplied ? 'committed' : 'rolled back'} as answered)`,
      );
      check(
        rows.every((r) => r.plays > 0),
        'every stored batch has its plays (none half-applied)',
      );
      const again = await post(
        s,
        { query: IMPORT, variables: { u: userId, v: LATEST_VERSION, csv: csv(9) } },
        token,
        60_000,
      );
      check(
        again.status === 200 && !again.json?.errors,
        `a new import after recovery succeeds (${again.text.slice(0, 120)})`,
      );
      const {
        rows: [{ n }],
      } = await c.query(`SELECT count(*)::int AS n FROM "ImportBatch" WHERE "userId" = $1`, [userId]);
      check(
        n === rows.length + (again.json?.data?.importScoresCsv?.batchId ? 1 : 0),
        'the new import stored exactly one batch',
      );
    } finally {
      await c.end();
    }
    record(
      'Resilience: PostgreSQL outage',
      `bench/resilience.ts: cluster ${cluster.join(' ')} stopped (-m fast) 30 ms into an import, down 6 s, started again; probes every 200 ms of /readyz and a GraphQL read`,
      [
        ['/readyz while down', [...new Set(down.map((o) => o.ready))].join(', '), '503'],
        [
          'GraphQL read while down (HTTP/code)',
          [...new Set(down.map((o) => `${o.read}/${o.readCode}`))].join(', '),
          'clean JSON errors',
        ],
        ['recovery (/readyz 200 after start)', `${fmt(recoveryMs / 1000, 1)} s`, '< 60 s'],
        [
          'probes failing after recovery',
          String(after.filter((o) => o.read !== 200 || o.readCode !== 'OK').length),
          '0',
        ],
        ['interrupted import', importApplied ? 'committed whole' : 'rolled back whole', 'never half-applied'],
      ],
    );
  } finally {
    if (stopped) pgctl('start', cluster);
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((err) =>
      console.error('could not drop', name, err.message),
    );
  }
}

async function main() {
  if (process.env.RESILIENCE_SKIP_LOAD !== '1') await loadTest();
  if (process.env.RESILIENCE_OUTAGE === '1') await outageTest();
  else
    console.log(
      '\n[2] PostgreSQL outage: skipped (set RESILIENCE_OUTAGE=1 — it stops the cluster RESILIENCE_PG_CLUSTER)',
    );
  console.log(failures.length ? `\nFAILED: ${failures.length} check(s)` : '\nall resilience checks passed');
  process.exit(failures.length ? 1 : 0);
}

// Also a library: bench/hostile.ts reuses prepare / ENV / post.
if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
