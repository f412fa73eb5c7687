import { format } from 'node:util';
import { runCli } from '../../src/cli/main';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The admin CLI in this process (src/cli/main.ts `runCli`): the same command table, parser, one-line
 * errors and exit codes as `npm run cli -- …`, with stdout and stderr captured. One process per command
 * cost ~3 s of TypeScript loading each; test/integration/platform/cli-process.test.ts keeps one real
 * subprocess per entry point as a smoke test.
 */
export async function runCliInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    stdout: process.stdout.write,
    stderr: process.stderr.write,
  };
  console.log = console.info = (...a: unknown[]) => void out.push(format(...a) + '\n');
  console.warn = console.error = (...a: unknown[]) => void err.push(format(...a) + '\n');
  process.stdout.write = (chunk: string | Uint8Array) => out.push(String(chunk)) > 0;
  process.stderr.write = (chunk: string | Uint8Array) => err.push(String(chunk)) > 0;
  try {
    const code = await runCli(args, env);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    Object.assign(console, { log: saved.log, info: saved.info, warn: saved.warn, error: saved.error });
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
  }
}

/**
 * Like child_process.execFile promisified: resolves `{ stdout, stderr }` on exit code 0, rejects with
 * `{ code, stdout, stderr }` otherwise (so tests written against a subprocess read the same).
 */
export async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const r = await runCliInProcess(args, env);
  if (r.code !== 0) throw Object.assign(new Error(`cli ${args.join(' ')} exited ${r.code}: ${r.stderr}`), r);
  return { stdout: r.stdout, stderr: r.stderr };
}
