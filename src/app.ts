import type { Config } from './config';
import type { DatabaseHandle, Db } from './db/client';
import type { Logger } from './logger';
import { Catalogue } from './modules/songs/songs.catalogue';
import { AuthService } from './modules/auth/auth.service';
import { EventBus } from './events';
import { createRateLimiter, type RateLimiter } from './ratelimit';
import { ArenaAverageCache, registerArenaAverages } from './modules/songs/arena.service';
import { RecomputeJob } from './jobs/recompute.job';
import { recomputeAll } from './modules/scores/totals.service';
import { createAppPubSub, type AppPubSub } from './graphql/pubsub';
import { registerSocialListeners } from './modules/social/social.events';
import { registerUserListeners } from './modules/users/users.events';

/**
 * Process-wide singletons: configuration, the database client, the in-memory catalogue and
 * other services that live as long as the server. Per-request state lives in the GraphQL context.
 */
export interface App {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  db: Db;
  catalogue: Catalogue;
  auth: AuthService;
  /** Fixed-window rate limits (in memory, or shared through Redis with REDIS_URL): src/ratelimit.ts. */
  rateLimiter: RateLimiter;
  /** Arena-class averages per chart, cached in memory (recomputed by jobs). */
  arenaAverages: ArenaAverageCache;
  /** Domain events after commits (src/events.ts). */
  events: EventBus;
  /** The recompute job for derived values (steps registered by areas). */
  recompute: RecomputeJob;
  /** Pub/sub of GraphQL subscriptions (in-process, or Redis with REDIS_URL); closed with the HTTP server. */
  pubsub: AppPubSub;
}

export async function createApp(config: Config, database: DatabaseHandle, log: Logger): Promise<App> {
  const db = database.prisma;
  const catalogue = new Catalogue(db);
  await catalogue.load();
  const auth = await AuthService.create(config, db);
  const rateLimiter = createRateLimiter(config, log);
  const events = new EventBus((err, event) => log.error({ err, event }, 'event listener failed'));
  const arenaAverages = new ArenaAverageCache(db, catalogue);
  const recompute = new RecomputeJob(db, log);
  const pubsub = createAppPubSub({ redisUrl: config.redisUrl, log });
  const app: App = { config, log, database, db, catalogue, auth, rateLimiter, events, arenaAverages, recompute, pubsub };
  // After a definitions update: every player's total over their bests first, then the arena
  // averages. (The bests' BPIs are derived on read from the reloaded catalogue; the step keeps
  // its name, which recomputeStatus shows.)
  recompute.addStep({ name: 'bests and totals', order: 10, run: async (version, progress) => void (await recomputeAll(db, catalogue, version, progress)) });
  registerArenaAverages(app);
  registerSocialListeners(app);
  registerUserListeners(app);
  return app;
}
