/**
 * REST and MCP before / after the one pipeline (issue #30.1): the four compatibility routes and an MCP
 * tool call served by a
 * checkout of the previous code (BENCH_BEFORE_ROOT: a directory holding it, e.g. `git archive <commit>`
 * unpacked, with node_modules and src/generated next to it) and by this checkout, on the same data
 * (PGlite, one data directory: the servers run in turn, A B A B). Each load: autocannon, 20 connections,
 * BENCH_DURATION seconds after a 2 s warm-up (BENCH_ROUTES, BENCH_ROUNDS: see below); the server's CPU time per request read from /proc
 * (the machine is shared: compare the CPU per request, not the throughput). Run: npm run bench:rest.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BENCH_JWT, fmt, load, loadWithCpu, record, ROOT, SHARED, startProcess, tmpDir } from './lib';

function cli(args: string[], env: Record<string, string>): string {
  const r = spawnSync(process.execPath, ['-r', '@swc-node/register', 'src/cli/index.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

type Req = { method: 'POST'; headers: Record<string, string>; body: string };

export async function benchRestPipeline(duration = Number(process.env.BENCH_DURATION ?? 5)): Promise<void> {
  const before = process.env.BENCH_BEFORE_ROOT;
  if (!before || !fs.existsSync(path.join(before, 'src/server.ts')))
    throw new Error('set BENCH_BEFORE_ROOT to a checkout of the code before');
  const dataDir = tmpDir('rest-pipeline');
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    JWT_SECRET: BENCH_JWT,
    RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
  };
  const defs = path.join(SHARED, 'data/definitions/definitions-202509156.json');
  cli(['definitions', 'import', defs], env);
  cli(['users', 'create', '--name', 'bench_player'], env);
  const { users } = JSON.parse(cli(['users', 'list', '--json'], env)) as { users: { id: string; name: string }[] };
  const userId = users.find((u) => u.name === 'bench_player')!.id;
  const sample = path.join(SHARED, 'data/eamusement/score-sample-pre-leggendaria.csv');
  if (fs.existsSync(sample)) cli(['scores', 'import', '--user', userId, '--version', '33', sample], env);
  const q = new URLSearchParams({ title: 'Verflucht', difficulty: 'LEGGENDARIA', exScore: '3000' }).toString();
  // an MCP tool call (POST /mcp, JSON-RPC, the player's access token): the MCP document path
  const token = cli(['token', userId], env).trim();
  const mcp: Req = {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_songs', arguments: { title: 'Verflucht' } },
    }),
  };
  const routes: [string, string, Req?][] = [
    ['GET /api/v1/bpi/calc', `/api/v1/bpi/calc?${q}`],
    ['GET /api/v1/users/{id}/profile', `/api/v1/users/${userId}/profile`],
    ['GET /api/v1/users/{id}/stats/recommended', `/api/v1/users/${userId}/stats/recommended?limit=10`],
    ['GET /api/v1/songs/notes/recent', '/api/v1/songs/notes/recent'],
    ['POST /mcp tools/call search_songs', '/mcp', mcp],
  ];
  // BENCH_ROUTES=calc,notes: only the routes whose name contains one of the words; BENCH_ROUNDS: A B rounds (default 2)
  const only = (process.env.BENCH_ROUTES ?? '').split(',').filter(Boolean);
  if (only.length) routes.splice(0, routes.length, ...routes.filter(([name]) => only.some((w) => name.includes(w))));
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const sides = [
    ['before', before],
    ['after', ROOT],
  ] as const;
  const cpu: Record<string, Record<string, number[]>> = { before: {}, after: {} };
  const rps: Record<string, Record<string, number[]>> = { before: {}, after: {} };
  for (let round = 0; round < rounds; round++) {
    for (const [side, root] of sides) {
      const server = await startProcess('src/server.ts', env, 7411, '/readyz', root);
      try {
        for (const [name, url, req] of routes) {
          const probe = await fetch(server.url + url, req);
          if (probe.status !== 200) throw new Error(`${side} ${name}: ${probe.status} ${await probe.text()}`);
          await load({ url: server.url + url, duration: 2, connections: 20, ...req });
          const r = await loadWithCpu(server.proc.pid!, { url: server.url + url, duration, connections: 20, ...req });
          if (r.errors + r.non2xx > 0) throw new Error(`${side} ${name}: ${r.errors} errors, ${r.non2xx} non-2xx`);
          (cpu[side][name] ??= []).push(r.cpuPerRequest);
          (rps[side][name] ??= []).push(r.rps);
        }
      } finally {
        await server.stop();
      }
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const loadAvg = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
  const rows: [string, string, string][] = routes.map(([name]) => {
    const b = mean(cpu.before[name]);
    const a = mean(cpu.after[name]);
    const ratio = b / a; // throughput per CPU-second, after / before
    return [
      name,
      `CPU per request ${fmt(b)} → ${fmt(a)} µs; ${fmt(mean(rps.before[name]))} → ${fmt(mean(rps.after[name]))} req/s`,
      `after/before throughput per CPU ${fmt(ratio, 2)} (≥ 0.90 — ${ratio >= 0.9 ? 'met' : 'NOT met'})`,
    ];
  });
  record(
    'REST and MCP before / after the one pipeline (fixed GraphQL documents)',
    `autocannon, 20 connections, ${duration} s per route after a 2 s warm-up; before = ${path.basename(before)} and after = this checkout, one server at a time on the same PGlite data (A B A B…, means of ${rounds} rounds); server CPU from /proc; real 202509156 definitions, one player with the sample export; load average at the end ${loadAvg} (1 / 5 / 15 min)`,
    rows,
  );
}

if (require.main === module) {
  benchRestPipeline().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
