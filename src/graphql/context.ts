import type { WorkerPool } from '../workers/pool';
import type { Config } from '../config';
import type { DatabaseHandle, Db } from '../db/client';
import { unauthenticated } from '../errors';
import type { EventBus } from '../events';
import type { User } from '../generated/prisma/client';
import type { Logger } from '../logger';
import type { RateLimiter } from '../ratelimit';
import type { AppPubSub } from './pubsub';
import type { ClusterBus } from '../cluster/bus';
import type { ClusterCaches } from '../cluster/caches';

export interface Viewer {
  id: string;
  isAdmin: boolean;
  /** OAuth scopes when the caller is a third-party app; undefined = full access (own token). */
  scopes?: readonly ('read' | 'write')[];
}

/** A verified identity of the external OpenID Connect provider (AUTH_ISSUER). */
export interface ExternalIdentityRef {
  issuer: string;
  subject: string;
}

/**
 * The services of the areas for one request, by area name: `ctx.services.scores.bestScores(…)`.
 * Empty here (the platform names no area): each area declares its service on this interface next
 * to its manifest (`declare module` in src/modules/<area>/index.ts). Built lazily, one area at a
 * time, on first use.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}

/**
 * The DataLoaders of one request, namespaced by area: `ctx.loaders.scores.bests.load({ userId, version })`.
 * Declared by the areas like Services; each area's namespace is created on first use.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Loaders {}

/** Turns the Authorization header into the caller (src/modules/auth/auth.service.ts implements it). */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<{ viewer: Viewer | null; identity?: ExternalIdentityRef }>;
  resolveViewer(authorization: string | undefined): Promise<Viewer | null>;
}

/**
 * What the rule table needs to know about players (who they are, who follows whom with approval),
 * answered through the request's loaders. The users area provides it (its manifest's `access`).
 */
export interface AccessLookup {
  user(ctx: Context, id: string): Promise<User | null>;
  userByName(ctx: Context, name: string): Promise<User | null>;
  approvedFollow(ctx: Context, followerId: string, followingId: string): Promise<boolean>;
}

/**
 * How `node(id:)` finds an entity of one type (an area's manifest `nodes`): `load` answers the
 * objects of database keys in key order (null for misses), batched, in the shape the type's
 * resolvers expect; `key` reads the database key from such an object (default `root.id`).
 * Who may see the object is the rule table's (rules.ts NODE_RULES).
 */
export interface NodeSource {
  load(ctx: Context, keys: readonly string[]): Promise<readonly (object | null)[]>;
  key?: (root: ObjectRoot) => string | number;
}

/**
 * The parent (root) object of a GraphQL object type, as the per-type tables read it: a node
 * source's `key` (above, src/graphql/global-id.ts) and a rule's `target` (src/graphql/rules.ts).
 * Each entry names its own type's shape (`(root: { id: string }) => root.id`), which a parameter
 * typed `unknown` would refuse, so the tables take any root.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one table holds functions over many types' roots, each typed by its own entry
export type ObjectRoot = any;

/** How the platform reaches the areas without naming them: built from the manifests (src/modules/area.ts). */
export interface AreaRuntime {
  /** Node sources by type name (every type implementing Node has one). */
  nodes: Record<string, NodeSource>;
  /** A fresh set of loader namespaces (one per request). */
  loaders(db: Db): Loaders;
  /** The request's services (each area's built on first use). */
  services(ctx: Context): Services;
  access: AccessLookup;
}

/**
 * The process-wide state the platform (context, rules, limits, executor, subscriptions) works
 * with. The application (src/app.ts) is this plus the areas' own singletons, which only areas see.
 */
export interface Platform {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  db: Db;
  /** Domain events after commits (src/events.ts). */
  events: EventBus;
  /** Fixed-window rate limits (in memory, or shared through Redis with REDIS_URL): src/ratelimit.ts. */
  rateLimiter: RateLimiter;
  /** The CPU budgets' limiter when it is not `rateLimiter`: PostgreSQL without Redis (src/ratelimit-pg.ts). */
  cpuLimiter?: RateLimiter;
  /** Pub/sub of GraphQL subscriptions, carried by the cluster bus; closed with the HTTP server. */
  pubsub: AppPubSub;
  /** Messages to every process of the deployment (src/cluster/bus.ts: in-process, LISTEN/NOTIFY or Redis). */
  bus: ClusterBus;
  /** The process-local caches and their invalidation across the cluster (src/cluster/caches.ts). */
  caches: ClusterCaches;
  auth: Authenticator;
  areas: AreaRuntime;
  /** Worker threads for CPU-heavy work (src/workers/pool.ts): plans, parsing, rendering. */
  pool: WorkerPool;
}

/** Per-request context, built the same way for GraphQL and the REST adapter. */
export interface Context {
  app: Platform;
  /** The request's database: a read replica for a read-only request when replicas are configured (src/db/replicas.ts), else the primary. */
  readonly db: Db;
  /**
   * The request can only read (a GraphQL query, a REST GET): set before anything runs, it sends
   * the request's statements to a read replica (DATABASE_REPLICA_URLS) unless the viewer's own
   * latest write is not replayed there yet.
   */
  readOnly: boolean;
  viewer: Viewer | null;
  loaders: Loaders;
  services: Services;
  ip: string;
  /**
   * Set when the bearer token is a valid ID token of the external OIDC provider whose
   * (issuer, subject) is not linked to any local user yet; `viewer` is then null.
   * For the profile area (createProfile): create the User and, in the same transaction,
   * `db.externalIdentity.create({ data: { issuer, subject, userId } })`; later requests
   * with the same ID token then resolve to that user as `viewer`.
   */
  identity?: ExternalIdentityRef;
  /** The X-API-Key header, read only by the API-key exchange (Mutation.exchangeApiKey). */
  apiKey?: string;
  /**
   * Drops what the request has cached (loaders, services, visibility verdicts): a subscription's
   * context lives as long as the subscription, and renews them for each event.
   */
  renew(): void;
}

/**
 * The context object. A class, so the lazy `loaders` / `services` getters live on the prototype:
 * an object literal with a getter makes V8 define the accessor at run time on every request
 * (measured on the calculator path: about 1.5% of the server's CPU).
 */
class RequestContext implements Context {
  readOnly = false;
  identity?: ExternalIdentityRef;
  apiKey?: string;
  private lazyLoaders?: Loaders;
  private lazyServices?: Services;

  constructor(
    readonly app: Platform,
    public viewer: Viewer | null,
    readonly ip: string,
  ) {}

  get db(): Db {
    const reads = this.readOnly ? this.app.database.reads : undefined;
    return reads ? reads.reader(this.viewer?.id) : this.app.db;
  }

  // Built on first use (still one fresh set per request): paths that need no loader, such as
  // the BPI calculator, skip constructing them.
  get loaders(): Loaders {
    return (this.lazyLoaders ??= this.app.areas.loaders(this.db));
  }

  get services(): Services {
    return (this.lazyServices ??= this.app.areas.services(this));
  }

  renew(): void {
    this.lazyLoaders = undefined;
    this.lazyServices = undefined;
  }
}

export function createContext(app: Platform, viewer: Viewer | null, ip = ''): Context {
  return new RequestContext(app, viewer, ip);
}

/**
 * The context of an HTTP request: bearer token (viewer / external identity), X-API-Key, IP.
 * Synchronous without an Authorization header; a promise when a token must be verified.
 */
export function contextForRequest(
  app: Platform,
  req: { headers: Record<string, string | string[] | undefined>; ip: string; method?: string },
): Context | Promise<Context> {
  const authorization = req.headers.authorization;
  // No credential: an anonymous caller, built without a promise (the hot public reads).
  if (typeof authorization !== 'string' || authorization === '')
    return withApiKey(createContext(app, null, req.ip), req);
  return app.auth.authenticate(authorization).then(({ viewer, identity }) => {
    const ctx = createContext(app, viewer, req.ip);
    if (identity) ctx.identity = identity;
    return withApiKey(ctx, req);
  });
}

/** The contexts of HTTP requests (for the response hook recording a player's write: src/db/replicas.ts). */
const requestContexts = new WeakMap<object, Context>();

/** The context built for an HTTP request, if any. */
export function contextOf(req: object): Context | undefined {
  return requestContexts.get(req);
}

function withApiKey(
  ctx: Context,
  req: { headers: Record<string, string | string[] | undefined>; method?: string },
): Context {
  const apiKey = req.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey) ctx.apiKey = apiKey;
  if (req.method === 'GET' || req.method === 'HEAD') ctx.readOnly = true; // REST reads; GraphQL over GET runs queries only
  if (ctx.app.database.reads) requestContexts.set(req, ctx);
  return ctx;
}

/** The signed-in caller's id; UNAUTHENTICATED without one (the rule table usually refused already). */
export function viewerId(ctx: Pick<Context, 'viewer'>): string {
  if (!ctx.viewer) throw unauthenticated();
  return ctx.viewer.id;
}
