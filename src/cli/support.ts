import fs from 'node:fs';
import { closeApp, createApp, type App } from '../app';
import type { Config } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { applyMigrations } from '../db/migrate';
import { GAME_VERSIONS } from '../domain/constants';
import { createLogger } from '../logger';

/** A command's arguments as node:util.parseArgs gives them (strict: unknown options are refused). */
export interface CliArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

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

/** The innermost cause's words of a failed fetch (`connect ECONNREFUSED 127.0.0.1:9`, `getaddrinfo ENOTFOUND x`). */
function fetchFailure(err: unknown): string {
  let e = err as { message?: string; cause?: unknown; code?: string } | undefined;
  while (e?.cause) e = e.cause;
  return e?.message || e?.code || String(err);
}

/** Text of a file path or an http(s) URL; an unreachable URL or a missing file is one clear line. */
export async function readSource(src: string): Promise<string> {
  if (/^https?:\/\//i.test(src)) {
    let res: Response;
    try {
      res = await fetch(src, { signal: AbortSignal.timeout(60_000) });
    } catch (err) {
      throw new UsageError(`Cannot fetch ${src}: ${fetchFailure(err)}`);
    }
    if (!res.ok) throw new UsageError(`Cannot fetch ${src}: HTTP ${res.status} ${res.statusText}`.trimEnd());
    return res.text();
  }
  if (!fs.existsSync(src)) throw new UsageError(`No such file: ${src}`);
  if (fs.statSync(src).isDirectory()) throw new UsageError(`${src} is a directory, not a file`);
  return fs.readFileSync(src, 'utf8');
}

/** JSON of a file path or an http(s) URL. */
export async function readJson(src: string): Promise<unknown> {
  const text = await readSource(src);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${src} is not JSON (${(err as Error).message})`);
  }
}

/** A `--version` value: one of the game versions, else a usage error listing them. */
export function gameVersion(v: string | undefined, fallback?: string): string {
  const value = v ?? fallback;
  if (value === undefined) throw new UsageError(`--version is required (one of ${GAME_VERSIONS.join(', ')})`);
  if (!(GAME_VERSIONS as readonly string[]).includes(value)) {
    throw new UsageError(`Unknown version '${value}': valid versions are ${GAME_VERSIONS.join(', ')}`);
  }
  return value;
}

/** The JSON report of a command (`--json`): one document on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}
