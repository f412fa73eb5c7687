import { spawn, execSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(__dirname, '..');
export const SHARED = path.resolve(ROOT, '../shared');
export const RESULTS = path.join(__dirname, 'RESULTS.md');

export interface Child {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a TypeScript entry point as a separate process and waits until `readyPath` answers 200. */
export async function startProcess(entry: string, env: Record<string, string>, port: number, readyPath = '/healthz'): Promise<Child> {
  const proc = spawn(process.execPath, ['-r', '@swc-node/register', entry], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited with ${proc.exitCode}`);
    try {
      const r = await fetch(url + readyPath);
      if (r.status < 500) break;
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
export async function load(opts: { url: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string>; connections?: number; duration?: number }): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    body: opts.body,
    headers: opts.headers,
    connections: opts.connections ?? 50,
    duration: opts.duration ?? 10,
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx, requests: r.requests.total };
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

/** Appends one section to bench/RESULTS.md. */
export function record(scenario: string, method: string, rows: [string, string, string][]): void {
  if (!fs.existsSync(RESULTS)) {
    fs.writeFileSync(RESULTS, '# Benchmark results\n\nAppended by `npm run bench` (and each scenario alone). Figures are ratios or counts measured in one run on the machine named.\n');
  }
  const lines = [
    '',
    `## ${scenario} — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit()}`,
    `Machine: ${machine()}. Method: ${method}`,
    '',
    '| measure | value | target |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
  fs.appendFileSync(RESULTS, lines.join('\n') + '\n');
  console.log(lines.join('\n'));
}

export function tmpDir(name: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `bpigraph-bench-${name}-`));
  return d;
}

export const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
