import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { Redis } from 'ioredis';
import type { Logger } from '../logger';

/**
 * The cluster bus: small JSON messages on named channels, delivered to every process of the
 * deployment (including the sender's own subscribers). One interface, three carriers:
 *
 * - `local` — in-process (PGlite, or one process): an EventEmitter-like dispatch;
 * - `postgres` — PostgreSQL LISTEN/NOTIFY (the default on PostgreSQL, no extra service): one
 *   dedicated connection LISTENs on one channel and reconnects with a back-off; messages are sent
 *   with `pg_notify` from a separate small pool, so they are delivered after they commit;
 * - `redis` — Redis pub/sub when REDIS_URL is set (one channel per bus channel).
 *
 * A message carries the sender's `instanceId`, so a subscriber can tell its own messages
 * (caches invalidate themselves before publishing and skip their echo). After a lost connection
 * messages may have been missed: `onResync` handlers run once the carrier is back (the cache
 * registry then reloads everything).
 */
export type BusHandler = (message: unknown, origin: string) => void;

export interface ClusterBus {
  readonly kind: 'local' | 'postgres' | 'redis';
  /** This bus's id (one per app instance), sent with every message. */
  readonly instanceId: string;
  /** Sends `message` (JSON) to every subscriber of `channel` in every process. */
  publish(channel: string, message: unknown): Promise<void>;
  /** Receives the channel's messages (own ones included); returns the unsubscribe function. */
  subscribe(channel: string, handler: BusHandler): () => void;
  /** Runs `handler` after the carrier reconnected (messages may have been lost meanwhile). */
  onResync(handler: () => void): void;
  /** Resolves when every subscription so far is live. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** PostgreSQL's NOTIFY payload limit is 8000 bytes; larger messages are refused on every carrier. */
export const MAX_MESSAGE_BYTES = 7900;
const PG_CHANNEL = 'bpigraph_bus';
const REDIS_PREFIX = 'bpigraph:bus:';

interface Envelope {
  c: string;
  o: string;
  m: unknown;
}

abstract class BaseBus implements ClusterBus {
  abstract readonly kind: ClusterBus['kind'];
  readonly instanceId = randomUUID();
  protected readonly handlers = new Map<string, Set<BusHandler>>();
  protected readonly resync = new Set<() => void>();
  protected closed = false;

  constructor(protected readonly log?: Logger) {}

  abstract publish(channel: string, message: unknown): Promise<void>;
  abstract ready(): Promise<void>;
  abstract close(): Promise<void>;
  /** A channel got its first subscriber / lost its last one. */
  protected channelAdded(_channel: string): void {}
  protected channelRemoved(_channel: string): void {}

  subscribe(channel: string, handler: BusHandler): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      this.channelAdded(channel);
    }
    set.add(handler);
    return () => {
      const s = this.handlers.get(channel);
      if (!s?.delete(handler) || s.size) return;
      this.handlers.delete(channel);
      this.channelRemoved(channel);
    };
  }

  onResync(handler: () => void): void {
    this.resync.add(handler);
  }

  protected encode(channel: string, message: unknown): string {
    const text = JSON.stringify({ c: channel, o: this.instanceId, m: message ?? null } satisfies Envelope);
    if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES)
      throw new Error(`bus message on ${channel} is larger than ${MAX_MESSAGE_BYTES} bytes`);
    return text;
  }

  protected deliver(text: string): void {
    let env: Envelope;
    try {
      env = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    const set = this.handlers.get(env.c);
    if (!set) return;
    for (const h of [...set]) {
      try {
        h(env.m, env.o);
      } catch (err) {
        this.log?.error({ err, channel: env.c }, 'bus handler failed');
      }
    }
  }

  protected resynced(): void {
    for (const h of this.resync) {
      try {
        h();
      } catch (err) {
        this.log?.error({ err }, 'bus resync handler failed');
      }
    }
  }
}

/** One process: messages are delivered in this process only (asynchronously, like the others). */
export class LocalBus extends BaseBus {
  readonly kind = 'local' as const;

  async publish(channel: string, message: unknown): Promise<void> {
    const text = this.encode(channel, message);
    queueMicrotask(() => this.deliver(text));
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
  }
}

/** LISTEN/NOTIFY on a dedicated connection (reconnects with a back-off, then resyncs). */
export class PostgresBus extends BaseBus {
  readonly kind = 'postgres' as const;
  private listener: Client | null = null;
  private readonly notifier: Pool;
  private connecting: Promise<void>;
  private retryMs = 100;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    log?: Logger,
  ) {
    super(log);
    this.notifier = new Pool({ connectionString: url, max: 2, idleTimeoutMillis: 30_000 });
    this.notifier.on('error', (err) => this.log?.warn({ err }, 'bus notifier connection error'));
    this.connecting = this.connect(false);
  }

  /** Never rejects: a failed attempt schedules the next one. */
  private async connect(isReconnect: boolean): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.url, keepAlive: true });
    client.on('notification', (n) => {
      if (n.channel === PG_CHANNEL && n.payload) this.deliver(n.payload);
    });
    const lost = (err?: unknown) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.closed) return;
      this.log?.warn({ err }, 'bus LISTEN connection lost; reconnecting');
      this.schedule();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
    } catch (err) {
      client.end().catch(() => {});
      if (this.closed) return;
      this.log?.warn({ err }, 'bus LISTEN connection failed; retrying');
      this.schedule();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
    this.retryMs = 100;
    if (isReconnect) this.resynced();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 5000);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connecting = this.connect(true);
    }, wait);
    this.timer.unref();
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.notifier.query('SELECT pg_notify($1, $2)', [PG_CHANNEL, this.encode(channel, message)]);
  }

  async ready(): Promise<void> {
    await this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.connecting.catch(() => {});
    const l = this.listener;
    this.listener = null;
    await Promise.allSettled([l?.end(), this.notifier.end()]);
    this.handlers.clear();
  }
}

/** Redis pub/sub: one Redis channel per bus channel (SUBSCRIBE on first subscriber). */
export class RedisBus extends BaseBus {
  readonly kind = 'redis' as const;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly pending = new Set<Promise<unknown>>();
  private everReady = false;

  constructor(url: string, log?: Logger) {
    super(log);
    this.pub = new Redis(url, { maxRetriesPerRequest: 2 });
    this.sub = new Redis(url);
    this.pub.on('error', (err) => this.log?.warn({ err }, 'bus Redis publisher error'));
    this.sub.on('error', (err) => this.log?.warn({ err }, 'bus Redis subscriber error'));
    this.sub.on('message', (_channel: string, text: string) => this.deliver(text));
    // ioredis re-subscribes by itself after a reconnect; what was published meanwhile is lost.
    this.sub.on('ready', () => {
      if (this.everReady) this.resynced();
      this.everReady = true;
    });
  }

  protected channelAdded(channel: string): void {
    const p: Promise<unknown> = this.sub
      .subscribe(REDIS_PREFIX + channel)
      .catch((err) => this.log?.error({ err, channel }, 'bus Redis subscribe failed'))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  protected channelRemoved(channel: string): void {
    if (this.sub.status === 'ready') this.sub.unsubscribe(REDIS_PREFIX + channel).catch(() => {});
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.pub.publish(REDIS_PREFIX + channel, this.encode(channel, message));
  }

  async ready(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }
}

/** Redis when REDIS_URL is set, else LISTEN/NOTIFY on PostgreSQL, else in-process (PGlite). */
export function createClusterBus(opts: { redisUrl?: string; databaseUrl?: string; log?: Logger }): ClusterBus {
  if (opts.redisUrl) return new RedisBus(opts.redisUrl, opts.log);
  if (opts.databaseUrl) return new PostgresBus(opts.databaseUrl, opts.log);
  return new LocalBus(opts.log);
}
