/**
 * The hot-path guard (issue #32): server CPU per request for REST /api/v1/bpi/calc, GraphQL
 * bpiCalc (compiled executor) and /healthz on the server AS SERVED (default configuration: access
 * log at info — written to a file —, metrics on, limits on), against a bare Node http server in the
 * same run. The ratio bare CPU / target CPU (1 = as cheap as bare) must stay at or above the floors
 * of bench/hotpath-floors.json (one set per method); the process exits 1 otherwise.
 *
 * Two methods (bench/README.md):
 * - paired (the default where `wrk` and `taskset` exist on ≥ 2 CPUs; .ci/run installs wrk): the
 *   servers on the last CPU, wrk on CPU 0, and each round loads the bare server and one target AT
 *   THE SAME TIME for `--seconds`; CPU from /proc/<pid>/task/<tid>/schedstat (every thread,
 *   nanoseconds); the verdict on the median of the rounds' ratios. Both servers see the same CPU
 *   speed, which on this kind of machine drifts ±15 % from one second to the next.
 * - sequential (`--sequential`, or without wrk): autocannon in this process, `--requests` per
 *   target one after the other, CPU from /proc/<pid>/stat, the least CPU of the rounds. The same
 *   code measured ±30 % apart between rounds here: .ci/run only reports its verdict.
 *
 *   npm run bench:hotpath                        the guard (exit 1 below a floor)
 *   npm run bench:hotpath -- --self-test         the guard on a server slowed by a busy loop in
 *                                                an onRequest hook (BPIGRAPH_GUARD_BUSY_US): exit 0
 *                                                only when the guard FAILS it
 *   npm run bench:hotpath -- --quiet             logging off (LOG_LEVEL=warn), the bench:calc method
 *   BENCH_SERVER_ROOT=dir                        the server of another checkout
 *   BENCH_BEFORE_ROOT=dir                        before/after in ONE run: the server of that checkout
 *                                                measured too, interleaved with this one (its ratios
 *                                                printed as `before`; the floors apply to this one)
 *   --rounds N (5), --attempts N (3: a below-floor verdict measured again, paired), --seconds N (2, paired), --requests N (12000, sequential), --record (record in
 *   bench/RESULTS.md)
 */
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { BENCH_JWT, cpuMicros, cpuMicrosFine, fmt, record, ROOT, tmpDir } from './lib';

interface Floors {
  rest: number;
  graphql: number;
  healthz: number;
}
/** The floors of each method (their figures differ: bench/README.md). */
interface FloorsFile {
  paired: Floors;
  sequential: Floors;
}
const FLOORS_FILE = path.join(__dirname, 'hotpath-floors.json');

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};

/** BENCH_SERVER_ROOT: serve from another checkout (an earlier commit, for before/after figures in one session). */
const SERVER_ROOT = process.env.BENCH_SERVER_ROOT ? path.resolve(process.env.BENCH_SERVER_ROOT) : ROOT;
const hasCommand = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
/**
 * The paired method (default where wrk and taskset exist on ≥ 2 CPUs; `--sequential` forces the
 * other): every server on the last CPU, the load generators (wrk, a C program: it keeps a server
 * busy where autocannon in this process could not) on CPU 0, and in each round the bare server and
 * the target loaded AT THE SAME TIME for `--seconds`: both see the same CPU speed (this machine's
 * speed drifts ±15 % from one second to the next, which made sequential measures of the same code
 * differ 2×), so the ratio of a round is steady where the CPU times are not.
 */
const PAIRED =
  !flag('sequential') && os.cpus().length >= 2 && hasCommand('wrk') && hasCommand('taskset')
    ? { server: String(os.cpus().length - 1), client: '0' }
    : null;
const PORT_BASE = Number(process.env.BENCH_GUARD_PORT ?? 4131);

interface Server {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

async function start(
  entry: string,
  env: Record<string, string>,
  port: number,
  ready: string,
  logFile: string,
  cwd = ROOT,
): Promise<Server> {
  const out = fs.openSync(logFile, 'a');
  const args = ['-r', '@swc-node/register', entry];
  const proc = spawn(
    PAIRED ? 'taskset' : process.execPath,
    PAIRED ? ['-c', PAIRED.server, process.execPath, ...args] : args,
    {
      cwd,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
      stdio: ['ignore', out, 'inherit'],
    },
  );
  fs.closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited with ${proc.exitCode} (log: ${logFile})`);
    try {
      if ((await fetch(url + ready)).status < 500) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${entry} did not become ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  return { url, proc, stop };
}

interface Target {
  name: 'bare' | 'rest' | 'graphql' | 'healthz';
  /** Measured on the BENCH_BEFORE_ROOT server (reported, not checked). */
  before?: boolean;
  server: Server;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

interface Sample {
  cpu: number;
  bad: number;
}

/** `amount` requests over 20 connections; the server's CPU time per request (µs) and the throughput. */
async function measure(t: Target, amount: number): Promise<Sample> {
  const pid = t.server.proc.pid!;
  const before = cpuMicros(pid);
  const r = await autocannon({
    url: t.server.url + t.path,
    method: t.method ?? 'GET',
    body: t.body,
    headers: t.headers,
    connections: 20,
    amount,
  });
  const cpu = (cpuMicros(pid) - before) / Math.max(1, r.requests.total);
  // (no throughput here: autocannon ends an `amount` run on its 1 s tick; bench:calc measures req/s)
  return { cpu, bad: r.errors + r.non2xx };
}

/** wrk's script for a POST target (its body in a Lua long string: no escaping). */
function luaScript(t: Target, dir: string): string {
  const file = path.join(dir, `${t.name}.lua`);
  if (!fs.existsSync(file)) {
    const headers = Object.entries(t.headers ?? {})
      .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}\n`)
      .join('');
    fs.writeFileSync(file, `wrk.method = "${t.method ?? 'GET'}"\n${headers}wrk.body = [==[${t.body ?? ''}]==]\n`);
  }
  return file;
}

/** One wrk run of `seconds` over 20 connections (a child of this process: on CPU 0): requests answered, failures. */
function wrk(t: Target, seconds: number, dir: string): Promise<{ requests: number; bad: string | null }> {
  const args = ['-t1', '-c20', `-d${seconds}s`];
  if (t.method === 'POST') args.push('-s', luaScript(t, dir));
  args.push(t.server.url + t.path);
  return new Promise((resolve, reject) => {
    const p = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      const m = /(\d+) requests in/.exec(out);
      if (code !== 0 || !m) return reject(new Error(`wrk ${args.join(' ')} failed (${code}): ${out}`));
      const failures = /Non-2xx or 3xx responses: \d+|Socket errors: .*/.exec(out);
      resolve({ requests: Number(m[1]), bad: failures ? failures[0] : null });
    });
  });
}

/** The bare server and `t` loaded at the same time: each one's CPU per request (µs, every thread, ns resolution). */
async function pair(
  bare: Target,
  t: Target,
  seconds: number,
  dir: string,
): Promise<{ bare: number; cpu: number; others: number }> {
  const pb = bare.server.proc.pid!;
  const pt = t.server.proc.pid!;
  const b0 = cpuMicrosFine(pb);
  const t0 = cpuMicrosFine(pt);
  const started = process.hrtime.bigint();
  const [rb, rt] = await Promise.all([wrk(bare, seconds, dir), wrk(t, seconds, dir)]);
  const wall = Number(process.hrtime.bigint() - started) / 1000;
  const b1 = cpuMicrosFine(pb);
  const t1 = cpuMicrosFine(pt);
  for (const [x, r] of [
    [bare, rb],
    [t, rt],
  ] as const)
    if (r.bad || r.requests === 0) throw new Error(`${x.name}: ${r.bad ?? 'no answer'}`);
  // The servers' CPU is busy the whole round: what neither of them ran is the share other processes took.
  const others = Math.max(0, 1 - (b1 - b0 + t1 - t0) / wall);
  return { bare: (b1 - b0) / rb.requests, cpu: (t1 - t0) / rt.requests, others };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main(): Promise<void> {
  const selfTest = flag('self-test');
  const quiet = flag('quiet');
  const rounds = option('rounds', 5);
  const attempts = PAIRED ? option('attempts', 3) : 1;
  const amount = option('requests', 12_000);
  const seconds = option('seconds', 2);
  const floors = (JSON.parse(fs.readFileSync(FLOORS_FILE, 'utf8')) as FloorsFile)[PAIRED ? 'paired' : 'sequential'];
  // the load generators on CPU 0 (wrk inherits this process's CPU)
  if (PAIRED) spawnSync('taskset', ['-pc', PAIRED.client, String(process.pid)], { stdio: 'ignore' });
  const dir = tmpDir('hotpath');
  const env: Record<string, string> = {
    DATA_DIR: dir,
    DATABASE_URL: '',
    JWT_SECRET: BENCH_JWT,
    LOG_LEVEL: quiet ? 'warn' : 'info',
    ...(selfTest ? { BPIGRAPH_GUARD_BUSY_US: process.env.BPIGRAPH_GUARD_BUSY_US ?? '100' } : {}),
  };
  const logFile = path.join(dir, 'server.log');
  const bare = await start('bench/baseline-server.ts', {}, PORT_BASE, '/', path.join(dir, 'bare.log'));
  let server: Server | undefined;
  let beforeServer: Server | undefined;
  const BEFORE_ROOT = process.env.BENCH_BEFORE_ROOT ? path.resolve(process.env.BENCH_BEFORE_ROOT) : undefined;
  try {
    server = await start('src/server.ts', env, PORT_BASE + 1, '/readyz', logFile, SERVER_ROOT);
    if (BEFORE_ROOT) {
      const beforeDir = path.join(dir, 'before');
      fs.mkdirSync(beforeDir);
      beforeServer = await start(
        'src/server.ts',
        { ...env, DATA_DIR: beforeDir },
        PORT_BASE + 2,
        '/readyz',
        path.join(dir, 'before.log'),
        BEFORE_ROOT,
      );
    }
    const q = new URLSearchParams({ title: 'Aurora Drive', difficulty: 'ANOTHER', exScore: '3000' }).toString();
    const probe = (await (await fetch(`${server.url}/api/v1/bpi/calc?${q}`)).json()) as { bpi?: unknown };
    if (typeof probe.bpi !== 'number') throw new Error(`calculator probe failed: ${JSON.stringify(probe)}`);
    const gqlBody = JSON.stringify({
      query:
        'query($t: String!, $d: Difficulty!, $e: Int!) { bpiCalc(title: $t, difficulty: $d, exScore: $e) { song { title difficulty difficultyLevel notes } bpi rank { estimatedRank bpimRank bpimTotal } metadata { version arenaAverages { arenaClass avgExScore rate count avgBpi } } } }',
      variables: { t: 'Aurora Drive', d: 'ANOTHER', e: 3000 },
    });
    const targets: Target[] = [
      { name: 'bare', server: bare, path: '/' },
      { name: 'rest', server, path: `/api/v1/bpi/calc?${q}` },
      {
        name: 'graphql',
        server,
        path: '/graphql',
        method: 'POST',
        body: gqlBody,
        headers: { 'content-type': 'application/json' },
      },
      { name: 'healthz', server, path: '/healthz' },
    ];
    if (beforeServer) for (const t of targets.slice(1)) targets.push({ ...t, server: beforeServer, before: true });
    const key = (t: Target) => (t.before ? `${t.name}@before` : t.name);
    /** Per target: CPU per request (µs) shown, and the ratio bare ÷ target the floors apply to. */
    const result = new Map<string, { cpu: number; ratio: number }>();
    let bareCpu: number;
    if (PAIRED) {
      // Warm-up: JIT, the compiled document, connection set-up (1 s left GraphQL's first round ~30 % low).
      // (the self-test's slowed server fails by far, warm or not: one short round)
      for (const t of targets.slice(1)) await pair(targets[0], t, selfTest ? seconds : Math.max(seconds, 2), dir);
      // A below-floor verdict is measured again (`--attempts`, 3): each target keeps its best median.
      // Another tenant of the machine slows the bigger server more than the bare one (a 2 s round cannot
      // tell that from a slower request path), but not for minutes on end; a slower request path is
      // below its floor in every attempt.
      const bareMedians: number[] = [];
      for (let attempt = 1; attempt <= attempts; attempt++) {
        if (attempt > 1) console.log(`attempt ${attempt} of ${attempts}: measured again (below a floor above)`);
        const byTarget = new Map<string, { bare: number[]; cpu: number[]; ratio: number[] }>();
        for (let round = 0; round < rounds; round++) {
          for (const t of targets.slice(1)) {
            const p = await pair(targets[0], t, seconds, dir);
            const m = byTarget.get(key(t)) ?? { bare: [], cpu: [], ratio: [] };
            byTarget.set(key(t), m);
            m.bare.push(p.bare);
            m.cpu.push(p.cpu);
            m.ratio.push(p.bare / p.cpu);
            console.log(
              `round ${round + 1} ${key(t)}: ${fmt(p.cpu, 1)} µs CPU/request, bare ${fmt(p.bare, 1)} at the same time: ratio ${fmt(p.bare / p.cpu, 3)}; other processes took ${fmt(100 * p.others, 0)} % of the servers' CPU`,
            );
          }
        }
        for (const [k, m] of byTarget) {
          const r = { cpu: median(m.cpu), ratio: median(m.ratio) };
          if (r.ratio > (result.get(k)?.ratio ?? -1)) result.set(k, r);
        }
        bareMedians.push(median([...byTarget.values()].flatMap((m) => m.bare)));
        const below = (Object.keys(floors) as (keyof Floors)[]).filter((k) => !(result.get(k)!.ratio >= floors[k]));
        if (below.length === 0) break;
      }
      bareCpu = median(bareMedians);
    } else {
      // Warm-up: JIT, the compiled document, connection set-up.
      for (const t of targets) await measure(t, Math.min(amount, 3000));
      const best = new Map<string, Sample>();
      for (let round = 0; round < rounds; round++) {
        for (const t of targets) {
          // The bare server's CPU over `amount` requests is only a few clock ticks of /proc's 10 ms
          // (CI's 6,000 × ~20 µs: ~12): ±1 tick is ±8 % on the denominator of every ratio. Three times
          // the requests for it (it is the cheapest target) make that ±3 %.
          const s = await measure(t, t.name === 'bare' ? amount * 3 : amount);
          if (s.bad) throw new Error(`${t.name}: ${s.bad} errors or non-2xx answers`);
          const b = best.get(key(t));
          best.set(key(t), { cpu: Math.min(b?.cpu ?? Infinity, s.cpu), bad: 0 });
          console.log(`round ${round + 1} ${key(t)}: ${fmt(s.cpu, 1)} µs CPU/request`);
        }
      }
      bareCpu = best.get('bare')!.cpu;
      for (const [k, b] of best) if (k !== 'bare') result.set(k, { cpu: b.cpu, ratio: bareCpu / b.cpu });
    }
    const cpu = (n: string) => (n === 'bare' ? bareCpu : result.get(n)!.cpu);
    const ratio = (n: string) => result.get(n)!.ratio;
    const ratios = { rest: ratio('rest'), graphql: ratio('graphql'), healthz: ratio('healthz') };
    const failed = (Object.keys(floors) as (keyof Floors)[]).filter((k) => !(ratios[k] >= floors[k]));
    const rows: [string, string, string][] = [
      [
        `server CPU per request (${PAIRED ? 'median' : 'least'} of rounds): bare / REST / GraphQL / healthz`,
        `${fmt(cpu('bare'), 1)} / ${fmt(cpu('rest'), 1)} / ${fmt(cpu('graphql'), 1)} / ${fmt(cpu('healthz'), 1)} µs`,
        '—',
      ],
      ['CPU ratio bare / REST', fmt(ratios.rest, 3), `≥ ${floors.rest}`],
      ['CPU ratio bare / GraphQL', fmt(ratios.graphql, 3), `≥ ${floors.graphql}`],
      ['CPU ratio bare / healthz', fmt(ratios.healthz, 3), `≥ ${floors.healthz}`],
    ];
    if (beforeServer) {
      rows.push([
        `BEFORE (${BEFORE_ROOT}): CPU per request REST / GraphQL / healthz`,
        `${fmt(cpu('rest@before'), 1)} / ${fmt(cpu('graphql@before'), 1)} / ${fmt(cpu('healthz@before'), 1)} µs`,
        '—',
      ]);
      for (const k of ['rest', 'graphql', 'healthz'] as const)
        rows.push([`BEFORE: CPU ratio bare / ${k}`, fmt(ratio(`${k}@before`), 3), 'reported']);
    }
    const method = `${
      PAIRED
        ? `paired: ${rounds} rounds × ${seconds} s per target with the bare server loaded at the same time, wrk -c20 on CPU ${PAIRED.client}, servers on CPU ${PAIRED.server}, ratio = median of the rounds' ratios, the best of up to ${attempts} attempts (another only when below a floor)`
        : `sequential: ${rounds} rounds × ${fmt(amount)} requests per target, 20 connections (autocannon, in this process), least CPU of the rounds`
    }; ${quiet ? 'LOG_LEVEL=warn' : 'default configuration (access log at info to a file, metrics, limits)'}${selfTest ? `, SELF-TEST: busy loop of ${env.BPIGRAPH_GUARD_BUSY_US} µs per request` : ''}; PGlite demo catalogue${SERVER_ROOT === ROOT ? '' : `; server from ${SERVER_ROOT}`}; load average ${loadAverage()}`;
    if (flag('record')) record('Hot-path guard (CPU per request vs bare)', method, rows);
    else console.log([method, ...rows.map((r) => `  ${r[0]}: ${r[1]} ${r[2]}`)].join('\n'));
    if (selfTest) {
      if (failed.length === 0) {
        console.error(
          '!! self-test: the slowed server PASSED the guard: the floors do not catch a slowed request path',
        );
        process.exitCode = 1;
      } else console.log(`self-test ok: the slowed server fails the guard (${failed.join(', ')})`);
    } else if (failed.length) {
      console.error(
        `!! hot-path guard: below the floor for ${failed.map((k) => `${k} (${fmt(ratios[k], 3)} < ${floors[k]})`).join(', ')} — bench/README.md`,
      );
      process.exitCode = 1;
    } else console.log('hot-path guard ok');
  } finally {
    await server?.stop();
    await beforeServer?.stop();
    await bare.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function loadAverage(): string {
  try {
    return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}

// exit 1: below a floor (or a self-test the slowed server passed); 2: the bench itself failed (a server
// that did not start, errors or non-2xx answers) — .ci/run reports 1 and fails on 2
main().catch((err) => {
  console.error(err);
  process.exit(2);
});
