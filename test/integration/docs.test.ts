import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildSchema, getOperationAST, parse, validate, type GraphQLSchema } from 'graphql';
import { usingPostgres } from '../helpers/db';
import { describeIf } from '../helpers/skip';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The doc test: every GraphQL document, JSON example and shell block of README.md and docs/**.md
 * runs here, extracted from the Markdown, so a page cannot drift from the contract.
 *
 * - ```graphql: parsed and validated against schema.graphql; an operation without required
 *   variables (and not a subscription) is also executed on a test server (demo catalogue,
 *   anonymous caller) and must answer without a validation, input or internal error.
 * - ```json: must parse.
 * - ```sh / ```bash: run with bash (-e -o pipefail) in a throw-away copy of the repository (the
 *   tracked files, node_modules linked), in page order, README first — so the zero-to-data steps
 *   run exactly as pasted, `npm start`, curl lines and all, on the embedded database. Port 4000 is
 *   rewritten to a free port. A block that cannot run on a test machine says so in its fence:
 *   ```sh no-run <reason> — the test lists those blocks with their reasons and fails on a no-run
 *   without a reason.
 * Other fences (ts, text) are not run.
 */

const ROOT = path.resolve(__dirname, '../..');

interface Block {
  file: string;
  line: number;
  lang: string;
  /** What follows the language in the fence's info string (`no-run <reason>`). */
  flags: string;
  code: string;
}

function markdownFiles(): string[] {
  const out = [path.join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  walk(path.join(ROOT, 'docs'));
  return out;
}

/** Fenced blocks (``` at any indentation, closed by ``` at the same indentation), dedented. */
function blocksOf(file: string): Block[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open || !open[2]) continue;
    const indent = open[1];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j].trimEnd() !== `${indent}\`\`\``; j++)
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    blocks.push({
      file: path.relative(ROOT, file),
      line: i + 1,
      lang: open[2].toLowerCase(),
      flags: open[3].trim(),
      code: body.join('\n'),
    });
    i = j;
  }
  return blocks;
}

const ALL = markdownFiles().flatMap(blocksOf);
const at = (b: Block) => `${b.file}:${b.line}`;
const isShell = (b: Block) => ['sh', 'bash', 'shell'].includes(b.lang);
const noRun = (b: Block) => /^no-run\b/.test(b.flags);

describe('documentation blocks', () => {
  const graphqlBlocks = ALL.filter((b) => b.lang === 'graphql');
  let schema: GraphQLSchema;
  let s: TestServer;
  beforeAll(async () => {
    schema = buildSchema(fs.readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  it('finds the blocks (README zero-to-data, the dashboard query, …)', () => {
    expect(ALL.filter(isShell).length).toBeGreaterThanOrEqual(5);
    expect(graphqlBlocks.map((b) => b.file)).toEqual(
      expect.arrayContaining(['docs/frontend.md', 'docs/guide/stats.md']),
    );
  });

  it('every GraphQL document validates against schema.graphql; those without required variables execute', async () => {
    const problems: string[] = [];
    let executed = 0;
    for (const b of graphqlBlocks) {
      let doc;
      try {
        doc = parse(b.code);
      } catch (err) {
        problems.push(`${at(b)}: ${(err as Error).message}`);
        continue;
      }
      for (const e of validate(schema, doc)) problems.push(`${at(b)}: ${e.message}`);
      const op = getOperationAST(doc);
      const required = (op?.variableDefinitions ?? []).some((v) => v.type.kind === 'NonNullType' && !v.defaultValue);
      if (!op || op.operation === 'subscription' || required || problems.length) continue;
      const res = await s.gql(b.code);
      executed++;
      const bad = (res.body.errors ?? []).filter(
        (e: { extensions?: { code?: string } }) => e.extensions?.code !== 'UNAUTHENTICATED',
      );
      if (res.status !== 200 || bad.length) problems.push(`${at(b)}: executed → ${res.status} ${JSON.stringify(bad)}`);
    }
    expect(problems).toEqual([]);
    expect(executed).toBeGreaterThanOrEqual(1); // the dashboard query
  });

  it('every JSON example parses', () => {
    const problems = ALL.filter((b) => b.lang === 'json').flatMap((b) => {
      try {
        JSON.parse(b.code);
        return [];
      } catch (err) {
        return [`${at(b)}: ${(err as Error).message}`];
      }
    });
    expect(problems).toEqual([]);
  });

  it('shell blocks that cannot run here say why (listed)', () => {
    const skipped = ALL.filter((b) => isShell(b) && noRun(b));
    const listing = skipped.map((b) => `${at(b)} — ${b.flags.replace(/^no-run\s*/, '') || '(no reason given)'}`);
    console.log(`shell blocks not run (${skipped.length}):\n  ${listing.join('\n  ')}`);
    expect(skipped.filter((b) => b.flags.replace(/^no-run\s*/, '').length < 10).map(at)).toEqual([]);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

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

// The blocks run on the embedded database whatever DATABASE_URL says: under PostgreSQL (.ci/run runs
// both side by side) they would only repeat the PGlite run.
describeIf(!usingPostgres, 'shell blocks run in the PGlite run only (they use the embedded database)')(
  'shell blocks run as pasted, in a fresh clone-like directory',
  () => {
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
  },
);
