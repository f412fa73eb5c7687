import fs from 'node:fs';
import { closeApp, createApp, type App } from '../app';
import type { Config } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { applyMigrations } from '../db/migrate';
import { createLogger } from '../logger';

/** What every admin command shares: usage errors, the database, the app services, input files. */
export class UsageError extends Error {
  name = 'UsageError';
}

/**
 * Opens the configured database for a command (PGlite: takes the data-dir lock) and applies the
 * committed migrations first, so every command works on a fresh data dir.
 */
export async function withDatabase<T>(
  config: Config,
  purpose: string,
  fn: (db: DatabaseHandle) => Promise<T>,
  opts: { migrate?: boolean } = {},
): Promise<T> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, purpose: `cli: ${purpose}` });
  try {
    if (opts.migrate ?? true) await applyMigrations(db.adapterFactory);
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * The database plus the app services (catalogue, events, recompute job, the cluster's caches and
 * bus: what a command changes is announced to the running servers) for a command.
 */
export async function withApp<T>(config: Config, purpose: string, fn: (app: App) => Promise<T>): Promise<T> {
  return withDatabase(config, purpose, async (db) => {
    const app = await createApp(config, db, createLogger(process.env.LOG_LEVEL ?? 'warn'));
    try {
      return await fn(app);
    } finally {
      await closeApp(app);
    }
  });
}

/** Text of a file path or an http(s) URL. */
export async function readSource(src: string): Promise<string> {
  if (/^https?:\/\//.test(src)) {
    const res = await fetch(src);
    if (!res.ok) throw new Error(`GET ${src}: HTTP ${res.status}`);
    return res.text();
  }
  if (!fs.existsSync(src)) throw new UsageError(`No such file: ${src}`);
  return fs.readFileSync(src, 'utf8');
}

/** JSON of a file path or an http(s) URL. */
export async function readJson(src: string): Promise<unknown> {
  const text = await readSource(src);
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${src} is not JSON`);
  }
}
