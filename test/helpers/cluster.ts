import net from 'node:net';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { closeApp, createApp, type App } from '../../src/app';
import { createHttpServer } from '../../src/http';
import { createLogger } from '../../src/logger';
import { openDatabase, type DatabaseHandle } from '../../src/db/client';
import type { Config } from '../../src/config';
import { testConfig } from './server';

/** Another app instance (its own caches, bus, recompute job, HTTP server) on an existing database. */
export interface Instance {
  app: App;
  url: string;
  get(pathAndQuery: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startInstance(
  db: DatabaseHandle,
  env: Record<string, string> = {},
  over: Partial<Config> = {},
): Promise<Instance> {
  const app = await createApp({ ...testConfig(env), ...over }, db, createLogger('silent'));
  const { fastify } = await createHttpServer(app);
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  await app.bus.ready();
  const url = `http://127.0.0.1:${(fastify.server.address() as net.AddressInfo).port}`;
  return {
    app,
    url,
    async get(p) {
      const res = await fetch(url + p);
      return { status: res.status, body: await res.json() };
    },
    close: () => fastify.close(),
  };
}

/** Polls `probe` every 20 ms until it returns true or `ms` pass; returns the milliseconds it took (or null). */
export async function within(ms: number, probe: () => Promise<boolean>): Promise<number | null> {
  const t0 = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - t0;
    if (Date.now() - t0 > ms) return null;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs the real CLI (`npm run cli -- …`) against `databaseUrl`; resolves with its exit code and output. */
export function runCli(args: string[], databaseUrl: string): Promise<{ code: number | null; out: string }> {
  const root = path.resolve(__dirname, '../..');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/cli/index.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/**
 * An app as a separate server process has it: its own connection pool to `url`, its own data
 * directory, and no JWT_SECRET (keys come from the database: docs/cluster-keys.md) — caches, bus,
 * keys and HTTP server of its own. `close` ends its pool too.
 */
export async function startProcessLike(
  url: string,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Instance & { db: DatabaseHandle }> {
  const db = await openDatabase({ url, poolMax: 5 });
  const inst = await startInstance(db, { DATA_DIR: dataDir, ...env }, { jwtSecret: undefined });
  return {
    ...inst,
    db,
    async close() {
      await inst.close();
      await closeApp(inst.app);
      await db.close();
    },
  };
}
