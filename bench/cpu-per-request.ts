/**
 * Node CPU time per request of the two large reads of issue #32 (the dashboard in one request and the
 * nested rivalry read), in process (Fastify inject), on PostgreSQL: the machine is shared, so CPU time
 * (process.cpuUsage, user + system) is the figure to compare, wall time only indicative.
 *   npm run bench:cpu        (BENCH_CPU_REQUESTS, default 20; BENCH_ONLY=dashboard|rivals;
 *                              BENCH_KEEP=1 keeps the databases and reuses them on the next run;
 *                              BENCH_CPU_DB=<prefix> names them, default bpigraph_bench_cpu)
 * Profile: node --cpu-prof --cpu-prof-dir=/tmp/prof -r @swc-node/register bench/cpu-per-request.ts
 */
import './rivals-env';
import 'reflect-metadata';
import os from 'node:os';
import { Client } from 'pg';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { createHttpServer } from '../src/http';
import { createLogger } from '../src/logger';
import { DASHBOARD_QUERY, seedDashboard } from './dashboard';
import { benchServerEnv, ensureDatabase, fmt, percentile, pgAdminUrl, pgUrl } from './lib';
import { RIVALRY_QUERY, seedRivals } from './rivals';

const N = Number(process.env.BENCH_CPU_REQUESTS ?? 20);
const KEEP = process.env.BENCH_KEEP === '1';
/** Database name prefix (BENCH_CPU_DB): one per engineer on a shared PostgreSQL server. */
const PREFIX = process.env.BENCH_CPU_DB ?? 'bpigraph_bench_cpu';

async function dropDb(name: string): Promise<void> {
  if (KEEP) return;
  const admin = new Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}

async function measure(
  label: string,
  dbName: string,
  seed: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<string>,
  query: string,
  variables: (user: string) => Record<string, unknown>,
) {
  const fresh = await ensureDatabase(dbName, KEEP);
  const url = pgUrl(dbName);
  const db = await openDatabase({ url });
  try {
    const user = fresh
      ? await seed(db)
      : (process.env[`BENCH_CPU_USER_${label}`] ?? (label === 'dashboard' ? 'bench-dash-big' : 'bench-rival-000'));
    const app = await createApp(loadConfig({ ...process.env, ...benchServerEnv(url) }), db, createLogger('silent'));
    const { fastify } = await createHttpServer(app);
    const token = (await app.auth.issueAccessToken(user)).token;
    const ask = async () => {
      const res = await fastify.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        payload: JSON.stringify({ query, variables: variables(user) }),
      });
      if (res.statusCode !== 200 || res.payload.includes('"errors"')) throw new Error(res.payload.slice(0, 400));
      return res.payload.length;
    };
    for (let i = 0; i < 5; i++) await ask();
    const cpu: number[] = [];
    const wall: number[] = [];
    let bytes = 0;
    for (let i = 0; i < N; i++) {
      const c = process.cpuUsage();
      const t = performance.now();
      bytes = await ask();
      wall.push(performance.now() - t);
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
    }
    console.log(
      `${label}: CPU per request p50 ${fmt(percentile(cpu, 50), 1)} ms (mean ${fmt(cpu.reduce((a, b) => a + b, 0) / N, 1)} ms), wall p50 ${fmt(percentile(wall, 50), 1)} ms, ${fmt(bytes / 1024)} KiB, ${N} requests, load ${os.loadavg()[0].toFixed(1)}`,
    );
    await fastify.close();
  } finally {
    await db.close();
    await dropDb(dbName);
  }
}

(async () => {
  const only = process.env.BENCH_ONLY;
  if (!only || only === 'dashboard')
    await measure(
      'dashboard',
      `${PREFIX}_dashboard`,
      async (db) => (await seedDashboard(db)).big,
      DASHBOARD_QUERY,
      (id) => ({ id }),
    );
  if (!only || only === 'rivals')
    await measure(
      'rivals',
      `${PREFIX}_rivals`,
      async (db) => (await seedRivals(db)).viewerId,
      RIVALRY_QUERY,
      () => ({}),
    );
})().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
