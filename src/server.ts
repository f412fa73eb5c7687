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

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  let server: RunningServer;
  try {
    server = await startServer(config, log);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      log.fatal(err.message);
      process.exit(1);
    }
    log.fatal({ err }, 'start-up failed');
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
