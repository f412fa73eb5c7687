import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { migratedDataDir } from '../../helpers/template';

const ROOT = path.resolve(__dirname, '../../..');

/** Runs `node src/server.ts` as an operator does; resolves with its exit code and output. */
function startServer(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['-r', '@swc-node/register', 'src/server.ts'],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: os.homedir(), LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...env },
        timeout: 120_000,
      },
      (_err, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

/**
 * One subprocess smoke (the wording of every case is unit-tested in test/unit/startup-errors.test.ts):
 * a production start whose port is taken gets through the database and Fastify's construction — so a
 * deprecation warning (FSTDEP…) would show on stderr — and fails at listen with one line and exit 1.
 */
it('a production start on a port in use: one line on stderr with the fix, no stack, no deprecation warning', async () => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as net.AddressInfo).port;
  const dataDir = migratedDataDir('bpigraph-startup-');
  try {
    const { code, stderr } = await startServer({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://bpi.example.org',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
    });
    expect(stderr).not.toMatch(/FSTDEP|DeprecationWarning|Warning:/);
    expect(stderr.trim().split('\n')).toEqual([
      `error: port ${port} on 127.0.0.1 is already in use — stop the process listening there, or start with PORT=<a free port>`,
    ]);
    expect(code).toBe(1);
  } finally {
    blocker.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 150_000);
