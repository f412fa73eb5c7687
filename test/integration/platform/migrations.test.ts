import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { runCliInProcess } from '../../helpers/cli';

const root = path.resolve(__dirname, '../../..');
const env = {
  ...process.env,
  DATABASE_URL: '',
  LOG_LEVEL: 'silent',
  DATA_DIR: path.join(os.tmpdir(), 'bpigraph-cli-usage'),
};

describe('migrations', () => {
  it('the committed migrations produce exactly prisma/schema.prisma (empty diff)', async () => {
    const r = await runCliInProcess(['db', 'check'], env);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toContain('Migrations match the schema.');
  });
});

// Every other CLI test calls the command table in process (test/helpers/cli.ts); this one runs the
// real entry point as `npm run cli` does — TypeScript loading, exit codes, the stdout/stderr split.
describe('the CLI as a process', () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['-r', '@swc-node/register', 'src/cli/index.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
      env,
      timeout: 120_000,
    });

  it('explains itself (exit 0) and refuses an unknown command in one line (exit 2)', () => {
    const r = cli('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('db migrate');
    expect(r.stdout).toContain('definitions import <file|url>');
    const bad = cli('frobnicate');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe("error: Unknown command 'frobnicate' (npm run cli -- --help lists them)\n");
  });
});
