import { spawn, execSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';

export const ROOT = path.resolve(__dirname, '..');
export const SHARED = path.resolve(ROOT, '../shared');
/** Where record() appends (BENCH_RESULTS redirects short development runs away from RESULTS.md). */
export const RESULTS = process.env.BENCH_RESULTS
  ? path.resolve(process.env.BENCH_RESULTS)
  : path.join(__dirname, 'RESULTS.md');

export interface Child {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a TypeScript entry point as a separate process and waits until `readyPath` answers 200. */
/**
 * Whether process `pid` holds the listening socket of 127.0.0.1:`port` (Linux /proc; true where /proc
 * cannot tell). A free port handed out by the OS can be taken by another process before the child
 * listens on it (test files run side by side): the child then exits, but a readiness probe may first
 * be answered by the other process.
 */
export function listensOn(pid: number, port: number): boolean {
  let table: string;
  try {
    table = fs.readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return true;
  }
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length > 9 && f[1].endsWith(hexPort) && f[3] === '0A') inodes.add(f[9]);
  }
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return true;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && inodes.has(m[1])) return true;
    } catch {
      /* closed meanwhile */
    }
  }
  return false;
}

export async function startProcess(
  entry: string,
  env: Record<string, string>,
  port: number,
  readyPath = '/healthz',
  cwd = ROOT,
  /** Where the server's standard output goes (its log lines): a file, or this process's stdout. */
  stdoutFile?: string,
): Promise<Child> {
  // BENCH_NODE_ARGS: extra node flags for the server process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const out = stdoutFile === undefined ? 'inherit' : fs.openSync(stdoutFile, 'a');
  const proc = spawn(process.execPath, [...nodeArgs, '-r', '@swc-node/register', entry], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', out, 'inherit'],
  });
  if (typeof out === 'number') fs.closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited with ${proc.exitCode}`);
    try {
      const r = await fetch(url + readyPath);
      // (answered by this child, not by another process that took the port first)
      if (r.status < 500 && listensOn(proc.pid!, port)) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${entry} did not become ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    proc,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

/** autocannon against one request shape; returns mean requests/s and latency percentiles (ms). */
export async function load(opts: {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  connections?: number;
  duration?: number;
}): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    body: opts.body,
    headers: opts.headers,
    connections: opts.connections ?? 50,
    duration: opts.duration ?? 10,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    requests: r.requests.total,
  };
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'cpu';
  return `${os.cpus().length}× ${cpu.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export function commit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * Records one run in bench/RESULTS.md: its section is appended, and the section an earlier run of
 * the same scenario left there (same title, written by this function) is taken out — the file keeps
 * the newest run per scenario, git keeps the earlier ones (a before / after comparison goes in a
 * written log entry). Written entries (any other heading) are never touched.
 */
export function record(scenario: string, method: string, rows: [string, string, string][]): void {
  const section = [
    `## ${scenario} — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit()}`,
    `Machine: ${machine()}. Method: ${method}`,
    '',
    '| measure | value | target |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  const text = fs.existsSync(RESULTS)
    ? fs.readFileSync(RESULTS, 'utf8')
    : '# Benchmark results\n\nFigures are ratios or counts measured in one run on the machine named.\n';
  fs.writeFileSync(RESULTS, withRun(text, scenario, section));
  console.log(section);
}

/** `text` (a RESULTS.md) without the sections `record` wrote for `scenario`, with `section` appended. */
export function withRun(text: string, scenario: string, section: string): string {
  const title = scenario.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const run = new RegExp(`^## ${title} — \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, commit \\S+(\\n|$)`);
  // (the first part is what stands before the first heading)
  const parts = text.split(/\n(?=## )/);
  const kept = parts.filter((part, i) => i === 0 || !run.test(part));
  return `${kept.join('\n').replace(/\n*$/, '\n')}\n${section}\n`;
}

export function tmpDir(name: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `bpigraph-bench-${name}-`));
  return d;
}

export const fmt = (n: number, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** PostgreSQL server for the benches (a maintenance database: bench databases are created beside it). */
export function pgAdminUrl(): string {
  return process.env.BENCH_PG_URL ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

/**
 * A benchmark's own database on the PostgreSQL of pgAdminUrl(): kept as it is when it exists and
 * `keep` (true: nothing to seed), else dropped and made again (false: seed it).
 */
export async function ensureDatabase(name: string, keep: boolean): Promise<boolean> {
  const admin = new Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount && keep) return false;
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    return true;
  } finally {
    await admin.end();
  }
}

/** The URL of database `name` on the bench PostgreSQL server. */
export function pgUrl(name: string): string {
  const u = new URL(pgAdminUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

/** The scale data set of `npm run bench:data` (bench/data.ts). */
export const SCALE_DB = process.env.BENCH_SCALE_DB ?? 'bpigraph_bench_scale';

/** A connection to the scale data set (bench/data.ts) and its URL; a clear error when it is not there. */
export async function connectScaleDb(): Promise<{ url: string; sql: Client }> {
  const url = pgUrl(SCALE_DB);
  const sql = new Client({ connectionString: url });
  try {
    await sql.connect();
  } catch (err) {
    throw new Error(
      `scale database ${SCALE_DB} not reachable (${(err as Error).message}): run \`npm run bench:data\` first`,
    );
  }
  return { url, sql };
}

/** p-th percentile (0–100) of a sample, nearest rank. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Resident set size of a process in MiB (Linux /proc; NaN elsewhere). */
export function rssMiB(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system, µs) a process has used so far, from /proc (Linux; NaN elsewhere). */
export function cpuMicros(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return NaN;
  }
}

/**
 * CPU time (µs, nanosecond resolution) every thread of a process has run so far, from
 * /proc/<pid>/task/<tid>/schedstat (Linux; NaN elsewhere): /proc/<pid>/stat counts 10 ms ticks,
 * too coarse for a second of a cheap server's work.
 */
export function cpuMicrosFine(pid: number): number {
  try {
    let run = 0;
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        run += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        /* the thread ended between the listing and the read */
      }
    }
    return run / 1000;
  } catch {
    return NaN;
  }
}

/** A load run against one server process, with the server's CPU time per request (µs). */
export async function loadWithCpu(
  pid: number,
  opts: Parameters<typeof load>[0],
): Promise<LoadResult & { cpuPerRequest: number }> {
  const before = cpuMicros(pid);
  const r = await load(opts);
  return { ...r, cpuPerRequest: (cpuMicros(pid) - before) / Math.max(1, r.requests) };
}

/**
 * Runs `fn` over `n` indexes with at most `concurrency` in flight; returns each call's latency (ms)
 * and the errors thrown (bounded: never more than n calls).
 */
export async function timedPool(
  n: number,
  concurrency: number,
  fn: (i: number) => Promise<void>,
): Promise<{ latencies: number[]; errors: string[]; ms: number }> {
  const latencies: number[] = [];
  const errors: string[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        try {
          await fn(i);
          latencies.push(performance.now() - t);
        } catch (err) {
          errors.push((err as Error).message);
        }
      }
    }),
  );
  return { latencies, errors, ms: performance.now() - t0 };
}

/** Runs another bench entry point as a child process (inherits stdio); rejects on a non-zero exit. */
export function runScript(entry: string, env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    // BENCH_NODE_ARGS: extra node flags for the server process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const proc = spawn(process.execPath, [...nodeArgs, '-r', '@swc-node/register', entry], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${entry} exited with ${code}`))));
    proc.on('error', reject);
  });
}

/** The JWT secret of the bench servers. */
export const BENCH_JWT = 'bench-secret-bench-secret-bench-secret-000';

/** The environment of a server a benchmark runs in its own process on `url`: no demo data, no log, no write or read limits. */
export function benchServerEnv(url: string): Record<string, string> {
  return {
    DATABASE_URL: url,
    SEED_DEMO: 'false',
    JWT_SECRET: BENCH_JWT,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
  };
}

/** A throw-away database for one bench run: PGlite in a temporary data dir, or a new PostgreSQL database. */
export interface BenchDatabase {
  dataDir: string;
  /** The PostgreSQL URL (undefined on PGlite). */
  url: string | undefined;
  /** The server environment for it (no demo, no write/expensive-read limits). */
  env: Record<string, string>;
  /** Removes the data dir and drops the database. */
  drop(): Promise<void>;
}

export async function benchDatabase(name: string, target: 'pglite' | 'postgresql'): Promise<BenchDatabase> {
  const dataDir = tmpDir(name);
  const pgName = `bpigraph_bench_${name.replace(/[^a-z0-9]/gi, '_')}_${process.pid}`;
  let url: string | undefined;
  if (target === 'postgresql') {
    const admin = new Client({ connectionString: pgAdminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${pgName}"`);
    await admin.end();
    url = pgUrl(pgName);
  }
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: url ?? '',
    SEED_DEMO: 'false',
    JWT_SECRET: BENCH_JWT,
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
  };
  return {
    dataDir,
    url,
    env,
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (url) {
        const admin = new Client({ connectionString: pgAdminUrl() });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}
