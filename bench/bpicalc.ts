/**
 * REST /api/v1/bpi/calc vs a bare Node http server returning a fixed JSON, and GraphQL bpiCalc
 * (compiled executor, src/graphql/executor.ts) vs the REST path, in two configurations of the
 * same server (issue #32's two lines):
 * - as served by default (access log at info, one JSON line per request, written to a file;
 *   metrics and limits on): throughput REST ≥ 0.6 of bare, GraphQL ≥ 0.8 of REST;
 * - logging off (LOG_LEVEL=warn): server CPU per request REST ≤ 25 µs, GraphQL ≤ 35 µs;
 * and, for comparison, GraphQL through Apollo's pipeline only (GRAPHQL_COMPILED_EXECUTOR=false,
 * logging off) and the floor: the calculator's pipeline with none of the served behaviours around
 * it (bench/calc-floor-server.ts, always this checkout's) — between the floor and the served REST
 * is what those behaviours cost. Each server runs in its own process (PGlite: one at a time on the
 * data dir); the load generator (autocannon, 50 connections) runs here and shares the 2 cores. The
 * bare server is measured first and last (the machine's speed drifts): its mean is the reference.
 * Real 202509156 definitions when ../shared has them.
 *
 *   npm run bench:calc                       BENCH_DURATION=10 seconds per target
 *   BENCH_SERVER_ROOT=dir npm run bench:calc the server of another checkout (before/after)
 *   BENCH_CALC_LADDER=1 npm run bench:calc   also the floor with the served behaviours added one
 *                                            at a time (request id, log context, metrics, access line)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fmt, load, loadWithCpu, record, ROOT, SHARED, startProcess, tmpDir } from './lib';

export async function benchBpiCalc(duration = Number(process.env.BENCH_DURATION ?? 10)): Promise<void> {
  const serverRoot = process.env.BENCH_SERVER_ROOT ? path.resolve(process.env.BENCH_SERVER_ROOT) : ROOT;
  const dataDir = tmpDir('calc');
  const logFile = path.join(dataDir, 'access.log');
  const defs = path.join(SHARED, 'data/definitions/definitions-202509156.json');
  let title = 'Aurora Drive';
  let difficulty = 'ANOTHER';
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-000' };
  if (fs.existsSync(defs)) {
    const r = spawnSync(
      process.execPath,
      ['-r', '@swc-node/register', 'src/cli/index.ts', 'definitions', 'import', defs],
      { cwd: serverRoot, env: { ...process.env, ...env }, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`definitions import failed: ${r.stderr}`);
    title = 'Verflucht';
    difficulty = 'LEGGENDARIA';
  }
  const q = new URLSearchParams({ title, difficulty, exScore: '3000' }).toString();
  const graphql = {
    method: 'POST' as const,
    body: JSON.stringify({
      query: `query($t: String!, $d: Difficulty!, $e: Int!) { bpiCalc(title: $t, difficulty: $d, exScore: $e) { song { title difficulty difficultyLevel notes } bpi rank { estimatedRank bpimRank bpimTotal } metadata { version arenaAverages { arenaClass avgExScore rate count avgBpi } } } }`,
      variables: { t: title, d: difficulty, e: 3000 },
    }),
    headers: { 'content-type': 'application/json' },
  };
  /** One configuration of the server: REST then GraphQL (each after a 2 s warm-up), its CPU per request. */
  const measureServer = async (extra: Record<string, string>, withRest = true) => {
    const server = await startProcess('src/server.ts', { ...env, ...extra }, 4102, '/readyz', serverRoot, logFile);
    try {
      const text = await (await fetch(`${server.url}/api/v1/bpi/calc?${q}`)).text();
      if (typeof JSON.parse(text).bpi !== 'number') throw new Error(`calculator probe failed: ${text}`);
      // (the floor computes what the route answers, byte for byte: else it would not be its floor)
      if (floorBody !== undefined && text !== floorBody)
        throw new Error(`the floor answered ${floorBody}, the server ${text}`);
      let rest: Awaited<ReturnType<typeof loadWithCpu>> | undefined;
      if (withRest) {
        await load({ url: `${server.url}/api/v1/bpi/calc?${q}`, duration: 2 });
        rest = await loadWithCpu(server.proc.pid!, { url: `${server.url}/api/v1/bpi/calc?${q}`, duration });
      }
      await load({ url: `${server.url}/graphql`, ...graphql, duration: 2 });
      const gql = await loadWithCpu(server.proc.pid!, { url: `${server.url}/graphql`, ...graphql, duration });
      return { rest, gql };
    } finally {
      await server.stop();
    }
  };
  /** The floor's answer, which the served route's must equal. */
  let floorBody: string | undefined;
  /**
   * The calculator's pipeline with nothing around it (bench/calc-floor-server.ts, from this
   * checkout), or with the served behaviours `add` (its FLOOR_ADD) around it.
   */
  const measureFloor = async (add = '') => {
    const out = path.join(dataDir, `floor-${add || 'none'}.log`);
    const floor = await startProcess(
      'bench/calc-floor-server.ts',
      { ...env, FLOOR_ADD: add },
      4103,
      '/readyz',
      ROOT,
      out,
    );
    let result: Awaited<ReturnType<typeof loadWithCpu>>;
    try {
      const url = `${floor.url}/api/v1/bpi/calc?${q}`;
      floorBody = await (await fetch(url)).text();
      if (typeof JSON.parse(floorBody).bpi !== 'number') throw new Error(`floor probe failed: ${floorBody}`);
      await load({ url, duration: 2 });
      result = await loadWithCpu(floor.proc.pid!, { url, duration });
    } finally {
      await floor.stop();
    }
    // (its lines are written by the time it has exited)
    if (add.includes('log') && !fs.readFileSync(out, 'utf8').includes('"request completed"'))
      throw new Error('the floor with the access line wrote no access line');
    return result;
  };
  const base = await startProcess('bench/baseline-server.ts', {}, 4101, '/');
  try {
    await load({ url: `${base.url}/`, duration: 2 });
    const bare1 = await loadWithCpu(base.proc.pid!, { url: `${base.url}/`, duration });
    const floor = await measureFloor();
    // BENCH_CALC_LADDER=1: the served behaviours added to the floor one at a time
    const ladder: [string, Awaited<ReturnType<typeof measureFloor>>][] = [];
    if (process.env.BENCH_CALC_LADDER === '1')
      for (const add of ['id', 'id,context', 'id,context,metrics', 'id,context,metrics,log'])
        ladder.push([add, await measureFloor(add)]);
    const served = await measureServer({ LOG_LEVEL: 'info' });
    const lines = fs
      .readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"request completed"')).length;
    const quiet = await measureServer({ LOG_LEVEL: 'warn' });
    const apollo = (await measureServer({ LOG_LEVEL: 'warn', GRAPHQL_COMPILED_EXECUTOR: 'false' }, false)).gql;
    const bare2 = await loadWithCpu(base.proc.pid!, { url: `${base.url}/`, duration });
    const bareRps = (bare1.rps + bare2.rps) / 2;
    const bareCpu = (bare1.cpuPerRequest + bare2.cpuPerRequest) / 2;
    const sRest = served.rest!;
    const qRest = quiet.rest!;
    const r1 = sRest.rps / bareRps;
    const r2 = served.gql.rps / sRest.rps;
    const errs = [bare1, bare2, floor, ...ladder.map(([, r]) => r), sRest, served.gql, qRest, quiet.gql, apollo].reduce(
      (n, r) => n + r.errors + r.non2xx,
      0,
    );
    const rps = (r: { rps: number; p99: number }) => `${fmt(r.rps)} req/s (p99 ${r.p99} ms)`;
    record(
      'BPI calculator throughput',
      `autocannon, 50 connections, ${duration} s per target after a 2 s warm-up; each server in its own process (its CPU time read from /proc around each load; the load generator shares the 2 cores); the bare server measured first and last (mean used); ${fs.existsSync(defs) ? 'real 202509156 definitions' : 'demo catalogue'}; PGlite${serverRoot === ROOT ? '' : `; server from ${serverRoot}`}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
      [
        ['bare Node http, fixed JSON (first / last)', `${rps(bare1)} / ${rps(bare2)}`, '—'],
        [
          'floor — the calculator pipeline alone (bench/calc-floor-server.ts: no Fastify, request id, log context, access line, metrics)',
          `${rps(floor)}; ${fmt(floor.rps / bareRps, 2)} of bare`,
          '—',
        ],
        ['as served — REST /api/v1/bpi/calc (access log at info to a file)', rps(sRest), '—'],
        ['as served — GraphQL bpiCalc (POST /graphql, compiled executor)', rps(served.gql), '—'],
        [
          'as served — access lines written',
          `${fmt(lines)} (requests answered ${fmt(sRest.requests + served.gql.requests)} + warm-ups)`,
          '—',
        ],
        ['as served — REST / bare', fmt(r1, 2), `≥ 0.6 — ${r1 >= 0.6 ? 'met' : 'NOT met'}`],
        ['as served — REST / floor', fmt(sRest.rps / floor.rps, 2), '—'],
        ...ladder.map(([add, r]): [string, string, string] => [
          `floor + ${add.split(',').join(' + ')} (FLOOR_ADD=${add})`,
          `${rps(r)}; ${fmt(r.rps / bareRps, 2)} of bare; ${fmt(r.cpuPerRequest, 1)} µs per request (floor ${fmt(floor.cpuPerRequest, 1)})`,
          '—',
        ]),
        ['as served — GraphQL / REST', fmt(r2, 2), `≥ 0.8 — ${r2 >= 0.8 ? 'met' : 'NOT met'}`],
        ['logging off — REST / GraphQL', `${rps(qRest)} / ${rps(quiet.gql)}`, '—'],
        [
          'logging off — REST / bare, GraphQL / REST',
          `${fmt(qRest.rps / bareRps, 2)}, ${fmt(quiet.gql.rps / qRest.rps, 2)}`,
          '—',
        ],
        [
          'GraphQL bpiCalc, Apollo pipeline only (GRAPHQL_COMPILED_EXECUTOR=false, logging off)',
          `${rps(apollo)}; ${fmt(apollo.rps / qRest.rps, 2)} of REST`,
          '—',
        ],
        [
          'server CPU per request (user + system, /proc): bare / floor / REST / GraphQL, logging off',
          `${fmt(bareCpu, 1)} / ${fmt(floor.cpuPerRequest, 1)} / ${fmt(qRest.cpuPerRequest, 1)} / ${fmt(quiet.gql.cpuPerRequest, 1)} µs`,
          `REST ≤ 25 — ${qRest.cpuPerRequest <= 25 ? 'met' : 'NOT met'}; GraphQL ≤ 35 — ${quiet.gql.cpuPerRequest <= 35 ? 'met' : 'NOT met'}`,
        ],
        [
          'server CPU per request: REST / GraphQL as served; GraphQL Apollo only',
          `${fmt(sRest.cpuPerRequest, 1)} / ${fmt(served.gql.cpuPerRequest, 1)}; ${fmt(apollo.cpuPerRequest, 1)} µs`,
          '—',
        ],
        ['errors + non-2xx', String(errs), '0'],
      ],
    );
  } finally {
    await base.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchBpiCalc().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
