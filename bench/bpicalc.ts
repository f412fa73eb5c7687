/**
 * REST /api/v1/bpi/calc vs a bare Node http server returning a fixed JSON (target ≥ 0.6), and
 * GraphQL bpiCalc vs the REST path (target ≥ 0.5) — as served (compiled executor,
 * src/graphql/executor.ts) and, for comparison, through Apollo's pipeline only
 * (GRAPHQL_COMPILED_EXECUTOR=false, a second server process on the same data). Each server runs in
 * its own process; the load generator (autocannon, 50 connections) runs here. Real 202509156
 * definitions when ../shared has them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fmt, load, loadWithCpu, record, ROOT, SHARED, startProcess, tmpDir } from './lib';

export async function benchBpiCalc(duration = Number(process.env.BENCH_DURATION ?? 10)): Promise<void> {
  const dataDir = tmpDir('calc');
  const defs = path.join(SHARED, 'data/definitions/definitions-202509156.json');
  let title = 'Aurora Drive';
  let difficulty = 'ANOTHER';
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-000' };
  if (fs.existsSync(defs)) {
    const r = spawnSync(
      process.execPath,
      ['-r', '@swc-node/register', 'src/cli/index.ts', 'definitions', 'import', defs],
      { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`definitions import failed: ${r.stderr}`);
    title = 'Verflucht';
    difficulty = 'LEGGENDARIA';
  }
  const base = await startProcess('bench/baseline-server.ts', {}, 4101, '/');
  let server = await startProcess('src/server.ts', env, 4102, '/readyz');
  try {
    const q = new URLSearchParams({ title, difficulty, exScore: '3000' }).toString();
    const probe = await (await fetch(`${server.url}/api/v1/bpi/calc?${q}`)).json();
    if (typeof probe.bpi !== 'number') throw new Error(`calculator probe failed: ${JSON.stringify(probe)}`);
    const gqlBody = JSON.stringify({
      query: `query($t: String!, $d: Difficulty!, $e: Int!) { bpiCalc(title: $t, difficulty: $d, exScore: $e) { song { title difficulty difficultyLevel notes } bpi rank { estimatedRank bpimRank bpimTotal } metadata { version arenaAverages { arenaClass avgExScore rate count avgBpi } } } }`,
      variables: { t: title, d: difficulty, e: 3000 },
    });
    // warm-up
    await load({ url: `${server.url}/api/v1/bpi/calc?${q}`, duration: 2 });
    await load({
      url: `${server.url}/graphql`,
      method: 'POST',
      body: gqlBody,
      headers: { 'content-type': 'application/json' },
      duration: 2,
    });
    const bare = await loadWithCpu(base.proc.pid!, { url: `${base.url}/`, duration });
    const rest = await loadWithCpu(server.proc.pid!, { url: `${server.url}/api/v1/bpi/calc?${q}`, duration });
    const gql = await loadWithCpu(server.proc.pid!, {
      url: `${server.url}/graphql`,
      method: 'POST',
      body: gqlBody,
      headers: { 'content-type': 'application/json' },
      duration,
    });
    // The same request through Apollo's pipeline only (PGlite: one process per data dir, so in turn).
    await server.stop();
    server = await startProcess('src/server.ts', { ...env, GRAPHQL_COMPILED_EXECUTOR: 'false' }, 4102, '/readyz');
    await load({
      url: `${server.url}/graphql`,
      method: 'POST',
      body: gqlBody,
      headers: { 'content-type': 'application/json' },
      duration: 2,
    });
    const apollo = await loadWithCpu(server.proc.pid!, {
      url: `${server.url}/graphql`,
      method: 'POST',
      body: gqlBody,
      headers: { 'content-type': 'application/json' },
      duration,
    });
    const r1 = rest.rps / bare.rps;
    const r2 = gql.rps / rest.rps;
    const errs = rest.errors + rest.non2xx + gql.errors + gql.non2xx + apollo.errors + apollo.non2xx;
    record(
      'BPI calculator throughput',
      `autocannon, 50 connections, ${duration} s per target after a 2 s warm-up; each server in its own process (its CPU time read from /proc around each load; the load generator shares the 2 cores); ${fs.existsSync(defs) ? 'real 202509156 definitions' : 'demo catalogue'}; PGlite`,
      [
        ['bare Node http, fixed JSON (baseline)', `${fmt(bare.rps)} req/s (p99 ${bare.p99} ms)`, '—'],
        ['REST /api/v1/bpi/calc', `${fmt(rest.rps)} req/s (p99 ${rest.p99} ms)`, '—'],
        ['GraphQL bpiCalc (POST /graphql, compiled executor)', `${fmt(gql.rps)} req/s (p99 ${gql.p99} ms)`, '—'],
        [
          'GraphQL bpiCalc, Apollo pipeline only (GRAPHQL_COMPILED_EXECUTOR=false)',
          `${fmt(apollo.rps)} req/s (p99 ${apollo.p99} ms; ${fmt(apollo.rps / rest.rps, 2)} of REST)`,
          '—',
        ],
        ['REST / bare', fmt(r1, 2), `≥ 0.6 — ${r1 >= 0.6 ? 'met' : 'NOT met'}`],
        ['GraphQL / REST', fmt(r2, 2), `≥ 0.5 — ${r2 >= 0.5 ? 'met' : 'NOT met'}`],
        [
          'server CPU per request (user + system, /proc): bare / REST / GraphQL compiled / GraphQL Apollo only',
          `${fmt(bare.cpuPerRequest, 1)} / ${fmt(rest.cpuPerRequest, 1)} / ${fmt(gql.cpuPerRequest, 1)} / ${fmt(apollo.cpuPerRequest, 1)} µs (REST/GraphQL cost ratio ${fmt(rest.cpuPerRequest / gql.cpuPerRequest, 2)})`,
          '—',
        ],
        ['errors + non-2xx', String(errs), '0'],
      ],
    );
  } finally {
    await server.stop();
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
