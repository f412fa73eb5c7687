import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import type { Logger } from './logger';
import { EventBus } from './events';
import { createRateLimiter, RateLimiter } from './ratelimit';
import { PostgresStore } from './ratelimit-pg';
import { RecomputeJob } from './jobs/recompute.job';
import { createAppPubSub } from './graphql/pubsub';
import type { Platform } from './graphql/context';
import { createAreaRuntime, type AreaDeps } from './modules/area';
import { AREAS } from './modules';
import { createClusterBus } from './cluster/bus';
import { ClusterCaches } from './cluster/caches';
import { WorkerPool, defaultPoolSize } from './workers/pool';
import { observePool } from './metrics';
import { createClusterLock, RECOMPUTE_LOCK_KEY } from './cluster/lock';
import { definitionsFingerprint } from './db/definitions';

/**
 * Process-wide singletons: the platform's (configuration, database, events, rate limits,
 * pub/sub, recompute job) and those the areas set up (catalogue, arena averages, identity).
 * Per-request state lives in the request context (src/graphql/context.ts).
 */
export interface App extends Platform, AreaDeps {
  auth: AreaDeps['auth'];
}

/** Builds the application from the area manifests (src/modules/index.ts): setups, recompute steps, listeners. */
export async function createApp(config: Config, database: DatabaseHandle, log: Logger): Promise<App> {
  const db = database.prisma;
  // The bus: Redis with REDIS_URL, else LISTEN/NOTIFY on PostgreSQL, else in-process (PGlite: one process).
  const databaseUrl = database.kind === 'postgres' ? database.url : undefined;
  const bus = createClusterBus({ redisUrl: config.redisUrl, databaseUrl, log });
  const partial: Partial<App> = {
    config,
    log,
    database,
    db,
    bus,
    caches: new ClusterCaches(bus, log),
    rateLimiter: createRateLimiter(config, log),
    // The CPU budgets are cluster-wide on PostgreSQL when there is no Redis (src/ratelimit-pg.ts).
    cpuLimiter:
      !config.redisUrl && database.kind === 'postgres' ? new RateLimiter(new PostgresStore(db), log) : undefined,
    events: new EventBus((err, event) => log.error({ err, event }, 'event listener failed')),
    recompute: new RecomputeJob(db, log, {
      lock: createClusterLock(databaseUrl, RECOMPUTE_LOCK_KEY, log),
      instanceId: bus.instanceId,
      // a definitions update whenever it falls is followed by a run (src/jobs/recompute.job.ts start)
      generation: async () => JSON.stringify(await definitionsFingerprint(db)),
    }),
    pubsub: createAppPubSub({ bus, log }),
    pool: new WorkerPool({ ...config.pool, size: config.pool.size ?? defaultPoolSize() }),
  };
  observePool(partial.pool!);
  // One object for the whole process: services read it through their scope's prototype, so a
  // later change (a test swapping the rate limiter) is seen everywhere.
  const app = partial as App;
  for (const area of AREAS) if (area.setup) Object.assign(app, await area.setup(app));
  for (const key of ['catalogue', 'bpiV2', 'arenaAverages', 'auth'] as const) {
    if (!app[key]) throw new Error(`No area set up ${key}`);
  }
  for (const area of AREAS) {
    for (const step of area.recompute ?? [])
      app.recompute.addStep({
        name: step.name,
        order: step.order,
        run: (version, progress) => step.run(app, version, progress),
      });
  }
  for (const area of AREAS) for (const spec of area.caches?.(app) ?? []) app.caches.register(spec);
  const reads = database.reads;
  if (reads) {
    // A player's write position reaches every process: their reads stay on the primary until the replicas replayed it.
    reads.onWrite = (userId, lsn) => bus.publish('reads.wrote', { userId, lsn: lsn.toString() });
    bus.subscribe('reads.wrote', (m, origin) => {
      const w = m as { userId: string; lsn: string };
      if (origin !== bus.instanceId) reads.note(w.userId, BigInt(w.lsn));
    });
  }
  for (const area of AREAS) area.listeners?.(app);
  app.areas = createAreaRuntime(AREAS, app);
  return app;
}

/** Stops the app's cluster connections (subscriptions, bus); the database is closed by its owner. */
export async function closeApp(app: Pick<App, 'pubsub' | 'bus' | 'caches' | 'pool'>): Promise<void> {
  await app.pubsub.close();
  await app.pool.close();
  app.caches.close();
  await app.bus.close();
}
