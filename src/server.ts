import 'reflect-metadata';
import { createApp, type App } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type DatabaseHandle } from './db/client';
import { DataDirLockedError } from './db/lock';
import { applyMigrations } from './db/migrate';
import { seedDemoCatalogue } from './db/seed';
import { createHttpServer, type HttpServer } from './http';
import { createLogger, flushLogs, type Logger } from './logger';

export interface RunningServer {
  app: App;
  http: HttpServer;
  url: string;
  stop(): Promise<void>;
}

/** Opens the database, migrates, seeds the demo catalogue on an empty database, and listens. */
export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const database: DatabaseHandle = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.databasePoolMax,
    replicaUrls: config.databaseReplicaUrls,
    purpose: 'bpigraph server',
  });
  try {
    const applied = await applyMigrations(database.adapterFactory);
    if (applied.length) log.info({ applied }, 'migrations applied');
    if (config.seedDemo) {
      const seeded = await seedDemoCatalogue(database.prisma);
      if (seeded) log.info({ charts: seeded }, 'empty database: demo catalogue seeded');
    }
    const app = await createApp(config, database, log);
    const http = await createHttpServer(app);
    const address = await http.fastify.listen({ port: config.port, host: config.host });
    log.info({ address, database: database.kind, where: database.where }, 'bpigraph listening');
    const port = (http.fastify.server.address() as { port: number }).port;
    let stopped: Promise<void> | undefined;
    return {
      app,
      http,
      url: `http://127.0.0.1:${port}`,
      stop() {
        stopped ??= (async () => {
          await http.fastify.close();
          await database.close();
        })();
        return stopped;
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** What startupErrorLine needs to know about the attempted start. */
export interface StartAttempt {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
}

/** The messages of an error and of its causes (Prisma and pg wrap the socket error). */
function messagesOf(err: unknown): { text: string; codes: string[] } {
  const parts: string[] = [];
  const codes: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e instanceof Error || typeof e === 'object') {
      const o = e as { message?: unknown; code?: unknown; cause?: unknown };
      if (typeof o.message === 'string') parts.push(o.message);
      if (typeof o.code === 'string') codes.push(o.code);
      e = o.cause;
    } else {
      parts.push(String(e));
      break;
    }
  }
  return { text: parts.join(' | '), codes };
}

/** host:port of a postgresql:// URL, never its password. */
function databaseAt(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}`;
  } catch {
    return 'the server in DATABASE_URL';
  }
}

/**
 * One line for a start-up failure: what went wrong and how to fix it (docs/operating.md, "When the
 * server does not start"). main() prints it instead of a stack trace; DEBUG=1 adds the stack.
 */
export function startupErrorLine(err: unknown, at: StartAttempt): string {
  if (err instanceof ConfigError) {
    const problems = err.message
      .replace(/^Invalid configuration:\s*/, '')
      .split(/\n\s*/)
      .filter(Boolean);
    return `invalid configuration: ${problems.join('; ')} — fix the variable named (see docs/operating.md, Configuration)`;
  }
  if (err instanceof DataDirLockedError) return err.message;
  const { text, codes } = messagesOf(err);
  const has = (...c: string[]) => c.some((x) => codes.includes(x) || text.includes(x));
  if (has('EADDRINUSE')) {
    return `port ${at.port} on ${at.host} is already in use — stop the process listening there, or start with PORT=<a free port>`;
  }
  if (has('EADDRNOTAVAIL'))
    return `HOST=${at.host} is not an address of this machine — set HOST=0.0.0.0 (all) or one of its addresses`;
  if (at.databaseUrl) {
    const where = databaseAt(at.databaseUrl);
    if (/password authentication failed|28P01|P1000/.test(text) || has('28P01')) {
      return `PostgreSQL at ${where} refused the user or password of DATABASE_URL — fix them in DATABASE_URL`;
    }
    const missing = /database "([^"]+)" does not exist/.exec(text);
    if (missing || has('3D000', 'P1003')) {
      const name = missing?.[1] ?? 'of DATABASE_URL';
      return `the database ${name} does not exist on PostgreSQL at ${where} — create it (createdb ${name}) or fix DATABASE_URL`;
    }
    if (
      /Can't reach database server|P1001|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|timeout expired|Connection terminated/.test(
        text,
      ) ||
      has('ECONNREFUSED', 'ENOTFOUND')
    ) {
      return `cannot reach PostgreSQL at ${where} (DATABASE_URL) — start the database or fix DATABASE_URL; unset it to use the embedded database in DATA_DIR`;
    }
  }
  if (has('EACCES', 'EPERM', 'EROFS')) {
    if (/listen/.test(text))
      return `no permission to listen on port ${at.port} — use a port above 1023 (PORT=4000) or a proxy in front`;
    return `cannot write the data directory ${at.dataDir} — make it writable by this user, or set DATA_DIR to a writable directory`;
  }
  const first = text.split('\n').find((l) => l.trim()) ?? 'unknown error';
  return `start-up failed: ${first.trim()} (DEBUG=1 prints the stack)`;
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`error: ${startupErrorLine(err, { port: 0, host: '', dataDir: '' })}`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  let server: RunningServer;
  try {
    server = await startServer(config, log);
  } catch (err) {
    const line = startupErrorLine(err, config);
    console.error(`error: ${line}`);
    if (process.env.DEBUG && err instanceof Error) console.error(err.stack);
    process.exit(1);
  }
  const shutdown = (signal: string) => {
    log.info({ signal }, 'shutting down');
    flushLogs(log);
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    server.stop().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

if (require.main === module) void main();
