import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

// The schema engine is an ES module with WebAssembly, which jest's sandbox cannot load: run
// the real CLI in a child process.
function cli(...args: string[]) {
  return spawnSync(process.execPath, ['-r', '@swc-node/register', 'src/cli/index.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    timeout: 120_000,
  });
}

describe('migrations', () => {
  it('the committed migrations produce exactly prisma/schema.prisma (empty diff)', () => {
    const r = cli('db', 'check');
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toContain('Migrations match the schema.');
  });

  it('the CLI explains itself', () => {
    const r = cli('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('db migrate');
    expect(r.stdout).toContain('definitions import <file|url>');
    const bad = cli('frobnicate');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("Unknown command 'frobnicate'");
  });
});
