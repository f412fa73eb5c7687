import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ALL, ROOT, at, isShell, noRun } from '../helpers/markdown';
import { freePort } from '../helpers/ports';

/**
 * The doc drill (`npm run test:docs`, run by `.ci/run`): every ```sh / ```bash block of README.md and
 * docs/**.md runs with bash (-e -o pipefail) in a throw-away copy of the repository (the tracked
 * files, node_modules linked), in page order, README first — so the zero-to-data steps run exactly
 * as pasted, `npm start`, curl lines and all, on the embedded database. Every port a block names is
 * rewritten to a free one. Blocks fenced ```sh no-run <reason> are skipped (test/integration/docs.test.ts
 * lists them and requires the reason).
 *
 * Not part of `npm test`: its blocks start ~20 processes (the CLI, servers), each loading the
 * TypeScript sources and the embedded database — ~110 s of CPU, a third of the suite's (issue #31,
 * bench/RESULTS.md).
 */

/** A copy of the repository as a fresh clone has it (tracked files), node_modules linked, Prisma client copied. */
function cloneLikeDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bpigraph-docs-'));
  for (const f of listTracked()) {
    const to = path.join(dir, f);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(ROOT, f), to);
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  fs.cpSync(path.join(ROOT, 'src/generated'), path.join(dir, 'src/generated'), { recursive: true });
  return dir;
}

/** The files git tracks (git ls-files): what a fresh clone holds. */
function listTracked(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return out.split('\0').filter((f) => f && fs.existsSync(path.join(ROOT, f)));
}

function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      try {
        process.kill(-child.pid!, 'SIGTERM'); // anything the block left running (a server)
      } catch {
        /* group already gone */
      }
      resolve({ code, out });
    });
  });
}

/**
 * Every port a block names (PORT=N, host:N) mapped to a free one, so blocks never collide with
 * another run or a developer's server.
 */
async function withFreePorts(code: string): Promise<string> {
  const ports = new Set([...code.matchAll(/(?:PORT=|localhost:|127\.0\.0\.1:)(\d{4,5})\b/g)].map((m) => m[1]));
  let out = code;
  for (const p of ports) out = out.replace(new RegExp(`\\b${p}\\b`, 'g'), String(await freePort()));
  return out;
}

// The blocks run on the embedded database whatever DATABASE_URL says (the env below has none).
describe('shell blocks run as pasted, in a fresh clone-like directory', () => {
  const runnable = ALL.filter((b) => isShell(b) && !noRun(b));

  it('README first (zero to data: catalogue, radar categories, a player, scores, server, token, nested query), then docs/', async () => {
    const dir = cloneLikeDir();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? os.homedir(),
      LANG: 'C.UTF-8',
      LOG_LEVEL: 'warn',
    };
    const failures: string[] = [];
    try {
      for (const b of runnable) {
        const script = await withFreePorts(b.code);
        const { code, out } = await runBash(script, dir, env);
        if (code !== 0) failures.push(`${at(b)} exited ${code}:\n${out.slice(-2000)}`);
        if (b.file === 'README.md' && /Zero to data|definitions import/.test(b.code)) {
          // step 5's answers: the player's nested scores with BPIs, and the calculator
          expect(out).toMatch(/"me":\{"name":"alice","stats":\[\{"version":"33","totalBpi":\d/);
          expect(out).toMatch(/"song":\{"title":"[^"]+","difficulty":"ANOTHER"/);
          expect(out).not.toMatch(/"errors"/);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(failures).toEqual([]);
  }, 900_000);
});
