import { isIP } from 'node:net';
import { Redis } from 'ioredis';
import { rateLimited } from './errors';
import type { Logger } from './logger';

/**
 * Fixed-window rate limits per key (usually the client IP). The window starts at the first hit;
 * up to `max` hits pass, the next ones fail with RATE_LIMITED (REST 429 + Retry-After, GraphQL
 * extensions.code RATE_LIMITED + retryAfter). In memory per process by default; with REDIS_URL
 * the counters live in Redis so several server processes share them.
 */
export interface RateLimitPolicy {
  /** Bucket name: keys of different policies never collide. */
  name: string;
  max: number;
  windowSeconds: number;
}

/** The limits of the token and OAuth endpoints (per client IP). */
export const RATE_LIMITS = {
  /** POST /api/v1/token and Mutation.exchangeApiKey (one shared bucket). */
  token: { name: 'token', max: 20, windowSeconds: 60 },
  oauthRegister: { name: 'oauth-register', max: 20, windowSeconds: 60 },
  oauthToken: { name: 'oauth-token', max: 30, windowSeconds: 60 },
  oauthClient: { name: 'oauth-client', max: 60, windowSeconds: 60 },
} satisfies Record<string, RateLimitPolicy>;

export interface RateLimitStore {
  /** Counts `n` hits (default 1); returns the count in the current window and the ms until it resets. */
  hit(key: string, windowMs: number, n?: number): Promise<{ count: number; resetMs: number }>;
  close(): Promise<void>;
}

/**
 * One process's counters, in bounded memory: at most `maxKeys` windows, the least recently hit
 * one evicted beyond (a Map kept in recency order). A flood of new keys therefore evicts idle
 * windows only, never the live counters of the clients it is meant to limit (the old store
 * cleared everything when full, so 10,000 fresh keys reset every limit).
 */
export class MemoryStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  async hit(key: string, windowMs: number, n = 1) {
    const now = this.now();
    let w = this.windows.get(key);
    if (w) this.windows.delete(key); // re-inserted below: most recent last
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      while (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
    }
    this.windows.set(key, w);
    w.count += n;
    return { count: w.count, resetMs: w.resetAt - now };
  }

  get size() {
    return this.windows.size;
  }

  async close() {
    this.windows.clear();
  }
}

// INCR and set the expiry on the first hit, atomically; a key without TTL gets one.
const HIT_SCRIPT = `
local c = redis.call('INCRBY', KEYS[1], ARGV[2])
if c == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local t = redis.call('PTTL', KEYS[1])
if t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); t = tonumber(ARGV[1]) end
return {c, t}`;

/** Counters shared by every process using the same Redis. */
export class RedisStore implements RateLimitStore {
  constructor(
    readonly redis: Redis,
    private readonly prefix = 'bpigraph:rl:',
  ) {}

  static connect(url: string, log?: Logger): RedisStore {
    // Bounded waits while Redis is away: a command fails after 1 s and the limiter fails open.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 2000 });
    let lastLog = 0;
    redis.on('error', (err) => {
      // ioredis reconnects by itself; log at most once a minute instead of once per attempt.
      if (Date.now() - lastLog > 60_000) {
        lastLog = Date.now();
        log?.warn({ err }, 'rate-limit Redis connection error (reconnecting; limits fail open meanwhile)');
      }
    });
    return new RedisStore(redis);
  }

  async hit(key: string, windowMs: number, n = 1) {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs), String(n))) as [
      number,
      number,
    ];
    return { count: Number(count), resetMs: Number(ttl) };
  }

  async close() {
    this.redis.disconnect();
  }
}

export class RateLimiter {
  constructor(
    readonly store: RateLimitStore,
    private readonly log?: Logger,
  ) {}

  /**
   * Counts `n` hits for `id` under `policy`; throws rateLimited(retryAfterSeconds) past the limit.
   * An IPv6 address in `id` counts for its /64 (one subscriber's prefix: a client cannot get a
   * fresh limit per address); an IPv4-mapped one as the IPv4 address.
   */
  async consume(policy: RateLimitPolicy, id: string, n = 1): Promise<void> {
    let result: { count: number; resetMs: number };
    try {
      result = await this.store.hit(`${policy.name}:${clientKey(id)}`, policy.windowSeconds * 1000, n);
    } catch (err) {
      // A rate-limit store outage must not take authentication down with it: fail open, loudly.
      this.log?.warn({ err, policy: policy.name }, 'rate-limit store unavailable; request allowed');
      return;
    }
    if (result.count > policy.max) throw rateLimited(Math.max(1, Math.ceil(result.resetMs / 1000)));
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

export function createRateLimiter(config: { redisUrl?: string; rateLimitMaxKeys?: number }, log?: Logger): RateLimiter {
  return new RateLimiter(
    config.redisUrl ? RedisStore.connect(config.redisUrl, log) : new MemoryStore(Date.now, config.rateLimitMaxKeys),
    log,
  );
}

/**
 * The rate-limit key of a client: an IPv6 address (alone or after `ip:`) becomes its /64
 * network (`2001:db8:1:2::/64`), an IPv4-mapped IPv6 address its IPv4 address; anything else is
 * kept as it is.
 */
export function clientKey(id: string): string {
  const prefix = id.startsWith('ip:') ? 'ip:' : '';
  // No colon after the prefix: not IPv6 (an IPv4 address, a user id): the key as it is.
  if (id.indexOf(':', prefix.length) === -1) return id;
  const addr = id.slice(prefix.length);
  if (isIP(addr) !== 6) return id;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  if (mapped) return prefix + mapped[1];
  return `${prefix}${ipv6Prefix64(addr)}::/64`;
}

/** The first four 16-bit groups of an IPv6 address, normalised (lower case, no leading zeros). */
function ipv6Prefix64(addr: string): string {
  let a = addr.toLowerCase().split('%')[0];
  // An embedded IPv4 tail (::1.2.3.4) is in the host half: drop it before expanding.
  if (a.includes('.')) a = a.slice(0, a.lastIndexOf(':') + 1) + '0:0';
  const [head, tail] = a.includes('::') ? a.split('::') : [a, undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  return groups
    .slice(0, 4)
    .map((g) => (parseInt(g || '0', 16) || 0).toString(16))
    .join(':');
}
