/**
 * The area kit: what an area contributes (its manifest, `src/modules/<area>/index.ts`) and what
 * it may depend on. src/modules/index.ts lists the manifests; the application (src/app.ts), the
 * schema (src/schema.ts) and the request context (src/graphql/context.ts) are built from that list
 * and name no area.
 *
 * Dependencies are narrow: a service declares the part of `AreaScope` it uses
 * (`Pick<AreaScope, 'db' | 'catalogue' | 'loaders'>`), never the whole application.
 */
import type { Db } from '../db/client';
import type { CacheSpec } from '../cluster/caches';
import type {
  AccessLookup,
  AreaRuntime,
  Context,
  Loaders,
  NodeSource,
  Platform,
  Services,
  Viewer,
} from '../graphql/context';
import type { RecomputeJob } from '../jobs/recompute.job';
import type { ArenaAverageCache } from './arena/arena.cache';
import type { AuthService } from './auth/auth.service';
import type { Catalogue } from './catalogue/catalogue';
import type { BpiV2Job } from './catalogue/bpi-v2.job';
import type { PlayerLockObserver } from './scores/totals.service';

/**
 * Process-wide dependencies an area may take: the platform's (configuration, database, events,
 * rate limits, pub/sub, recompute job) and the singletons some areas set up for the others
 * (catalogue: the in-memory catalogue; arena: the arena-average cache; auth: identity).
 */
export interface AreaDeps extends Omit<Platform, 'auth' | 'areas'> {
  /** The recompute job of derived values (src/jobs); areas add steps through their manifest. */
  recompute: RecomputeJob;
  catalogue: Catalogue;
  /** The BPI V2 fit job (catalogue area; issue #19). */
  bpiV2: BpiV2Job;
  arenaAverages: ArenaAverageCache;
  auth: AuthService;
  /** Test seam, unset in production: the score writers' player-lock order (src/modules/scores/totals.service.ts PlayerLockObserver). */
  onPlayerLocked?: PlayerLockObserver;
}

/** What a service is built from, per request: the process-wide dependencies plus the request's. */
export interface AreaScope extends AreaDeps {
  /** The request (for the rare use case that changes it, e.g. createProfile signs the caller in). */
  readonly ctx: Context;
  readonly viewer: Viewer | null;
  /** The request's loaders, every area's namespace (`loaders.scores.bests`). */
  readonly loaders: Loaders;
  /** The request's services of the other areas (declare the ones you use in your service's scope type). */
  readonly services: Services;
}

/** A step of the recompute job (src/jobs/recompute.job.ts), run per version after a definitions update. */
export interface AreaRecomputeStep {
  name: string;
  /** lower runs first */
  order: number;
  run(deps: AreaDeps, version: string, progress: (done: number, total: number) => void): Promise<void>;
}

/** What an area's service / loaders must be: the type it declared on Services / Loaders (src/graphql/context.ts). */
type Declared<T, N extends string> = N extends keyof T ? T[N] : never;

/**
 * An area's manifest: everything it contributes. An area with services or loaders declares their
 * types on the request context's interfaces, next to its manifest:
 *
 *     declare module '../../graphql/context' {
 *       interface Services { scores: ScoresService }
 *       interface Loaders { scores: ScoreLoaders }
 *     }
 *
 * and the manifest's factories are checked against those declarations.
 */
export interface Area<N extends string = string> {
  /** The key of its services and loaders: `ctx.services.<name>`, `ctx.loaders.<name>`. */
  name: N;
  /** type-graphql resolver classes (root operations and fields it adds to shared types). */
  resolvers?: readonly Function[];
  /** Process-wide singletons this area provides to the others (run once at start, in list order). */
  setup?(deps: AreaDeps): Partial<AreaDeps> | Promise<Partial<AreaDeps>>;
  /** The area's loaders for one request. */
  loaders?(db: Db): Declared<Loaders, N>;
  /** The area's service for one request. */
  services?(scope: AreaScope): Declared<Services, N>;
  /** Steps of the recompute job. */
  recompute?: readonly AreaRecomputeStep[];
  /**
   * The area's process-local caches and how to invalidate them (src/cluster/caches.ts): a writer
   * calls `deps.caches.changed(name, detail)` after its commit and every process invalidates.
   * Every in-memory cache of an area is registered here.
   */
  caches?(deps: AreaDeps): readonly CacheSpec[];
  /** Registers the area's reactions to domain events (src/events.ts). */
  listeners?(deps: AreaDeps): void;
  /** The lookups the rule table needs (the users area). */
  access?: AccessLookup;
  /** Node sources of the entity types this area owns (`node(id:)`), by GraphQL type name. */
  nodes?: Record<string, AreaNodeSource>;
}

/** A node source of an area (src/graphql/context.ts NodeSource) with the process-wide dependencies. */
export interface AreaNodeSource {
  load(ctx: Context, keys: readonly string[], deps: AreaDeps): Promise<readonly (object | null)[]>;
  key?: NodeSource['key'];
}

/** Declares an area manifest (its factories checked against the types it declared on Services / Loaders). */
export function defineArea<const N extends string>(area: Area<N>): Area<N> {
  return area;
}

/** Any manifest, as the runtime sees it. */
export type AnyArea = Omit<Area, 'loaders' | 'services'> & {
  loaders?(db: Db): unknown;
  services?(scope: AreaScope): unknown;
};

const RESERVED = new Set(['made', 'db', 'scope', 'constructor']);

/**
 * The runtime the request context uses: per-request loader namespaces and services, each area's
 * built on first use (getters on a per-process prototype: no per-request closures or accessors).
 */
export function createAreaRuntime(areas: readonly AnyArea[], deps: AreaDeps): AreaRuntime {
  for (const a of areas) {
    if (!/^[a-z][a-zA-Z]*$/.test(a.name) || RESERVED.has(a.name))
      throw new Error(`Invalid area name ${JSON.stringify(a.name)}`);
  }
  const names = new Set<string>();
  for (const a of areas) {
    if (names.has(a.name)) throw new Error(`Two areas are named ${a.name}`);
    names.add(a.name);
  }

  class AreaLoaders {
    readonly made: Record<string, unknown> = Object.create(null);
    constructor(readonly db: Db) {}
  }
  for (const a of areas) {
    const make = a.loaders;
    if (!make) continue;
    const name = a.name;
    Object.defineProperty(AreaLoaders.prototype, name, {
      get(this: AreaLoaders) {
        return (this.made[name] ??= nameLoaders(name, make(this.db)));
      },
    });
  }

  // A service's scope: the process-wide dependencies (prototype) plus the request's.
  const scopeProto: object = Object.create(deps, {
    // The request's database (a read replica for a read-only request: src/db/replicas.ts).
    db: {
      get(this: { ctx: Context }) {
        return this.ctx.db;
      },
    },
    viewer: {
      get(this: { ctx: Context }) {
        return this.ctx.viewer;
      },
    },
    loaders: {
      get(this: { ctx: Context }) {
        return this.ctx.loaders;
      },
    },
    services: {
      get(this: { ctx: Context }) {
        return this.ctx.services;
      },
    },
  });
  class AreaServices {
    readonly made: Record<string, unknown> = Object.create(null);
    readonly scope: AreaScope;
    constructor(ctx: Context) {
      this.scope = Object.create(scopeProto) as AreaScope;
      (this.scope as { ctx: Context }).ctx = ctx;
    }
  }
  for (const a of areas) {
    const make = a.services;
    if (!make) continue;
    const name = a.name;
    Object.defineProperty(AreaServices.prototype, name, {
      get(this: AreaServices) {
        return (this.made[name] ??= make(this.scope));
      },
    });
  }

  const providers = areas.filter((a) => a.access);
  if (providers.length !== 1)
    throw new Error(`Exactly one area must provide the access lookups (found ${providers.length})`);
  return {
    nodes: areaNodes(areas, deps),
    loaders: (db) => new AreaLoaders(db) as unknown as Loaders,
    services: (ctx) => new AreaServices(ctx) as unknown as Services,
    access: providers[0].access!,
  };
}

/** Names each DataLoader of an area `<area>.<key>` (DataLoader's own `name`: the label of its batch-size metric). */
function nameLoaders<T>(area: string, made: T): T {
  if (made && typeof made === 'object') {
    for (const [key, value] of Object.entries(made)) {
      if (
        value &&
        typeof value === 'object' &&
        'loadMany' in value &&
        'name' in value &&
        !(value as { name: unknown }).name
      )
        (value as { name: string }).name = `${area}.${key}`;
    }
  }
  return made;
}

/** Every area's node sources, by type name (a type provided twice stops the start-up). */
export function areaNodes(areas: readonly AnyArea[], deps?: AreaDeps): Record<string, NodeSource> {
  const out: Record<string, NodeSource> = Object.create(null);
  for (const a of areas) {
    for (const [type, source] of Object.entries(a.nodes ?? {})) {
      if (out[type]) throw new Error(`Two areas provide node sources for ${type}`);
      out[type] = {
        key: source.key,
        load: (ctx, keys) => {
          if (!deps) throw new Error('node sources without the application');
          return source.load(ctx, keys, deps);
        },
      };
    }
  }
  return out;
}
