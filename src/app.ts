import type { Config } from './config';
import type { DatabaseHandle, Db } from './db/client';
import type { Logger } from './logger';
import { Catalogue } from './modules/songs/songs.catalogue';
import { AuthService } from './modules/auth/auth.service';
import { EventBus } from './events';
import { createRateLimiter, type RateLimiter } from './ratelimit';
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
  /** Domain events after commits (src/events.ts). */
  events: EventBus;
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
  const pubsub = createAppPubSub({ redisUrl: config.redisUrl, log });
  const app: App = { config, log, database, db, catalogue, auth, rateLimiter, events, pubsub };
  registerSocialListeners(app);
  registerUserListeners(app);
  return app;
}
