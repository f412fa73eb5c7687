import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import { Redis } from 'ioredis';
import type { Logger } from '../logger';

/**
 * Pub/sub for GraphQL subscriptions. In-process by default; with REDIS_URL the events go through
 * Redis channels so that a subscriber connected to one server process receives what another
 * process published. Payloads are small JSON objects (ids): subscribers load the row themselves,
 * under their own access rules.
 */
export type PubSubTopics = {
  /** recipientId → a Notification row id */
  NOTIFICATION_ADDED: [recipientId: string, payload: { id: number }];
  /** viewerId (a follower of the player) → a Score row id */
  TIMELINE_ENTRY_ADDED: [viewerId: string, payload: { scoreId: number }];
};

export interface AppPubSub extends PubSub<PubSubTopics> {
  readonly kind: 'memory' | 'redis';
  /** Open subscriptions of this process on a topic (routing key + id). */
  subscriberCount(routingKey: keyof PubSubTopics, id: string): number;
  /** Resolves when every subscription so far is live (Redis acknowledged the SUBSCRIBE). */
  settled(): Promise<void>;
  /** Ends every open subscription iterator and closes Redis connections. */
  close(): Promise<void>;
}

const CHANNEL_PREFIX = 'bpigraph:pubsub:';

type Listener = EventListenerOrEventListenerObject;

/**
 * A minimal EventTarget over Redis pub/sub: dispatchEvent publishes `detail` as JSON; listeners
 * receive every message on their topic's channel (including this process's own).
 */
class RedisEventTarget implements EventTarget {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Redis SUBSCRIBE commands not yet acknowledged. */
  readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly log: Logger,
  ) {
    sub.on('message', (channel: string, message: string) => {
      const topic = channel.slice(CHANNEL_PREFIX.length);
      const set = this.listeners.get(topic);
      if (!set?.size) return;
      let detail: unknown;
      try {
        detail = JSON.parse(message);
      } catch {
        return;
      }
      const event = new CustomEvent(topic, { detail });
      for (const l of set) {
        if (typeof l === 'function') l(event);
        else l.handleEvent(event);
      }
    });
  }

  addEventListener(type: string, callback: Listener | null): void {
    if (!callback) return;
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
      const p: Promise<unknown> = this.sub
        .subscribe(CHANNEL_PREFIX + type)
        .catch((err) => this.log.error({ err, type }, 'redis subscribe failed'))
        .finally(() => this.pending.delete(p));
      this.pending.add(p);
    }
    set.add(callback);
  }

  removeEventListener(type: string, callback: Listener | null): void {
    const set = this.listeners.get(type);
    if (!set || !callback) return;
    set.delete(callback);
    if (!set.size) {
      this.listeners.delete(type);
      if (this.sub.status === 'ready') this.sub.unsubscribe(CHANNEL_PREFIX + type).catch(() => {});
    }
  }

  dispatchEvent(event: Event): boolean {
    const detail = (event as CustomEvent).detail;
    this.pub.publish(CHANNEL_PREFIX + event.type, JSON.stringify(detail ?? null)).catch((err) => this.log.error({ err, type: event.type }, 'redis publish failed'));
    return true;
  }
}

export function createAppPubSub(opts: { redisUrl?: string; log: Logger }): AppPubSub {
  const open = new Set<{ return?: () => unknown }>();
  const counts = new Map<string, number>();
  const bump = (topic: string, by: number) => {
    const n = (counts.get(topic) ?? 0) + by;
    if (n > 0) counts.set(topic, n);
    else counts.delete(topic);
  };
  let redis: { pub: Redis; sub: Redis } | undefined;
  let eventTarget: RedisEventTarget | undefined;
  if (opts.redisUrl) {
    const pub = new Redis(opts.redisUrl, { maxRetriesPerRequest: 2 });
    const sub = new Redis(opts.redisUrl);
    pub.on('error', (err) => opts.log.warn({ err }, 'redis (pub/sub publisher) error'));
    sub.on('error', (err) => opts.log.warn({ err }, 'redis (pub/sub subscriber) error'));
    redis = { pub, sub };
    eventTarget = new RedisEventTarget(pub, sub, opts.log);
  }
  const inner = createPubSub<PubSubTopics>(eventTarget ? { eventTarget: eventTarget as never } : undefined);
  return {
    kind: redis ? 'redis' : 'memory',
    publish: inner.publish.bind(inner),
    subscribe: ((...args: Parameters<typeof inner.subscribe>) => {
      const it = inner.subscribe(...args);
      const topic = `${args[0]}:${args[1]}`;
      open.add(it);
      bump(topic, 1);
      const origReturn = it.return.bind(it);
      it.return = ((value?: unknown) => {
        if (open.delete(it)) bump(topic, -1);
        return origReturn(value as never);
      }) as typeof it.return;
      return it;
    }) as AppPubSub['subscribe'],
    subscriberCount: (routingKey, id) => counts.get(`${routingKey}:${id}`) ?? 0,
    async settled() {
      if (eventTarget) await Promise.all([...eventTarget.pending]);
    },
    async close() {
      await Promise.allSettled([...open].map((it) => it.return?.()));
      open.clear();
      if (redis) await Promise.allSettled([redis.pub.quit(), redis.sub.quit()]);
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
