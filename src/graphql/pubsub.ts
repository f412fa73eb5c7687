import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import type { ClusterBus } from '../cluster/bus';
import type { Logger } from '../logger';

/**
 * Pub/sub for GraphQL subscriptions, carried by the cluster bus (src/cluster/bus.ts): in-process
 * on PGlite, LISTEN/NOTIFY on PostgreSQL, Redis with REDIS_URL — so that a subscriber connected
 * to one server process receives what another process published. Payloads are small JSON
 * objects (ids): subscribers load the row themselves, under their own access rules.
 */
export type PubSubTopics = {
  /** recipientId → a Notification row id */
  NOTIFICATION_ADDED: [recipientId: string, payload: { id: number }];
  /** viewerId (a follower of the player) → a Score row id */
  TIMELINE_ENTRY_ADDED: [viewerId: string, payload: { scoreId: number }];
};

export interface AppPubSub extends PubSub<PubSubTopics> {
  /** The carrier: 'memory' (one process), 'postgres' (LISTEN/NOTIFY) or 'redis'. */
  readonly kind: 'memory' | 'postgres' | 'redis';
  /** Open subscriptions of this process on a topic (routing key + id). */
  subscriberCount(routingKey: keyof PubSubTopics, id: string): number;
  /** Resolves when every subscription so far is live (the carrier acknowledged it). */
  settled(): Promise<void>;
  /** Ends every open subscription iterator (the bus is closed by the app). */
  close(): Promise<void>;
}

const CHANNEL_PREFIX = 'pubsub:';

type Listener = EventListenerOrEventListenerObject;

/** An EventTarget over the cluster bus: dispatchEvent publishes `detail`; listeners get every process's events. */
class BusEventTarget implements EventTarget {
  private readonly listeners = new Map<string, { set: Set<Listener>; unsubscribe: () => void }>();

  constructor(
    private readonly bus: ClusterBus,
    private readonly log: Logger,
  ) {}

  addEventListener(type: string, callback: Listener | null): void {
    if (!callback) return;
    let entry = this.listeners.get(type);
    if (!entry) {
      const set = new Set<Listener>();
      const unsubscribe = this.bus.subscribe(CHANNEL_PREFIX + type, (detail) => {
        const event = new CustomEvent(type, { detail });
        for (const l of [...set]) {
          if (typeof l === 'function') l(event);
          else l.handleEvent(event);
        }
      });
      this.listeners.set(type, (entry = { set, unsubscribe }));
    }
    entry.set.add(callback);
  }

  removeEventListener(type: string, callback: Listener | null): void {
    const entry = this.listeners.get(type);
    if (!entry || !callback) return;
    entry.set.delete(callback);
    if (!entry.set.size) {
      this.listeners.delete(type);
      entry.unsubscribe();
    }
  }

  dispatchEvent(event: Event): boolean {
    const detail = (event as CustomEvent).detail;
    this.bus
      .publish(CHANNEL_PREFIX + event.type, detail ?? null)
      .catch((err) => this.log.error({ err, type: event.type }, 'pub/sub publish failed'));
    return true;
  }
}

export function createAppPubSub(opts: { bus: ClusterBus; log: Logger }): AppPubSub {
  const open = new Set<{ return?: () => unknown }>();
  const counts = new Map<string, number>();
  const bump = (topic: string, by: number) => {
    const n = (counts.get(topic) ?? 0) + by;
    if (n > 0) counts.set(topic, n);
    else counts.delete(topic);
  };
  const inner = createPubSub<PubSubTopics>({ eventTarget: new BusEventTarget(opts.bus, opts.log) });
  return {
    kind: opts.bus.kind === 'local' ? 'memory' : opts.bus.kind,
    publish: inner.publish.bind(inner),
    subscribe: ((...args: Parameters<typeof inner.subscribe>) => {
      const it = inner.subscribe(...args);
      const topic = `${args[0]}:${args[1]}`;
      open.add(it);
      bump(topic, 1);
      const origReturn = it.return.bind(it);
      it.return = ((value?: unknown) => {
        if (open.delete(it)) bump(topic, -1);
        return origReturn(value);
      }) as typeof it.return;
      return it;
    }) as AppPubSub['subscribe'],
    subscriberCount: (routingKey, id) => counts.get(`${routingKey}:${id}`) ?? 0,
    settled: () => opts.bus.ready(),
    async close() {
      await Promise.allSettled([...open].map((it) => it.return?.()));
      open.clear();
    },
  };
}

/**
 * What type-graphql's buildSchema gets as `pubSub` (it insists on one when the schema has
 * subscriptions). The schema is built once per process while pub/subs are per App, so our
 * subscriptions use the `subscribe` option and take `ctx.app.pubsub`; topic-based
 * `@Subscription({ topics })` is not supported here and fails loudly.
 */
export const schemaPubSub = {
  publish(): void {
    throw new Error('Publish through ctx.app.pubsub (src/graphql/pubsub.ts)');
  },
  subscribe(): never {
    throw new Error('Use @Subscription({ subscribe }) with ctx.app.pubsub, not topics (src/graphql/pubsub.ts)');
  },
};
