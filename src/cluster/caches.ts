import type { Logger } from '../logger';
import type { ClusterBus } from './bus';

/**
 * Every process-local cache, by name, and how to drop or reload it — so that a committed change
 * made anywhere (another server, the CLI, an admin mutation) reaches every process.
 *
 * The writer calls `changed(name, detail)` AFTER its transaction committed: its own process
 * invalidates at once (awaited: the writer's next read is fresh), then the change is published
 * on the cluster bus and every other process invalidates within milliseconds. When the bus
 * reconnects after an outage (messages may be lost), every cache is invalidated.
 *
 * Areas register their caches through their manifest (`caches` in src/modules/area.ts). A cache
 * may `follow` other names: it is invalidated whenever one of them changes (popularity follows
 * the catalogue, whose chart levels it filters on).
 */
export interface CacheSpec {
  /** Unique, e.g. 'catalogue', 'arena.averages'. */
  name: string;
  /** Drops (or reloads) the cache; `detail` narrows it (e.g. `{ version }`), absent = everything. */
  invalidate(detail?: CacheDetail): void | Promise<void>;
  /** Other caches whose change also invalidates this one (invalidated after them). */
  follows?: readonly string[];
}

/** A JSON object narrowing an invalidation. */
export type CacheDetail = Record<string, string | number | boolean | null>;

const CHANNEL = 'caches';

interface Message {
  name: string;
  detail?: CacheDetail;
}

export class ClusterCaches {
  private readonly specs = new Map<string, CacheSpec>();
  /** Per cache, the invalidation in progress (they run one after the other: a slow, older reload never lands last). */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly unsubscribe: () => void;
  /** Invalidations this process applied for other processes (tests, metrics). */
  received = 0;

  constructor(
    private readonly bus: ClusterBus,
    private readonly log?: Logger,
  ) {
    this.unsubscribe = bus.subscribe(CHANNEL, (m, origin) => {
      if (origin === bus.instanceId) return; // applied before publishing
      const msg = m as Message;
      if (!msg || typeof msg.name !== 'string') return;
      this.received++;
      this.apply(msg.name, msg.detail).catch((err) =>
        this.log?.error({ err, cache: msg.name }, 'cache invalidation failed'),
      );
    });
    bus.onResync(() => {
      this.log?.info('bus reconnected: invalidating every cache');
      for (const name of this.specs.keys())
        this.run(name, undefined).catch((err) => this.log?.error({ err, cache: name }, 'cache invalidation failed'));
    });
  }

  register(spec: CacheSpec): void {
    if (this.specs.has(spec.name)) throw new Error(`Two caches are named ${spec.name}`);
    this.specs.set(spec.name, spec);
  }

  get names(): string[] {
    return [...this.specs.keys()];
  }

  /**
   * A committed change of what `name` caches: invalidates it here (and the caches following it),
   * then tells the other processes. Call after the commit, never inside a transaction.
   */
  async changed(name: string, detail?: CacheDetail): Promise<void> {
    if (!this.specs.has(name)) throw new Error(`No cache named ${name}`);
    await this.apply(name, detail);
    try {
      await this.bus.publish(CHANNEL, { name, detail } satisfies Message);
    } catch (err) {
      // The change is committed; the other processes catch up at their next resync.
      this.log?.error({ err, cache: name }, 'cache change not published');
    }
  }

  /** Invalidates `name` and its followers in this process. */
  private async apply(name: string, detail?: CacheDetail): Promise<void> {
    if (!this.specs.has(name)) return; // a cache of a newer release: unknown here
    await this.run(name, detail);
    for (const spec of this.specs.values()) {
      if (spec.follows?.includes(name)) await this.run(spec.name, undefined);
    }
  }

  private run(name: string, detail?: CacheDetail): Promise<void> {
    const spec = this.specs.get(name)!;
    const next = (this.chains.get(name) ?? Promise.resolve()).catch(() => {}).then(() => spec.invalidate(detail));
    this.chains.set(name, next);
    void next
      .finally(() => {
        if (this.chains.get(name) === next) this.chains.delete(name);
      })
      .catch(() => {});
    return next;
  }

  close(): void {
    this.unsubscribe();
  }
}
