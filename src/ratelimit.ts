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
  /** Counts one hit; returns the count in the current window and the ms until it resets. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  close(): Promise<void>;
}

/** One process's counters. Expired windows are swept when the table grows past maxKeys. */
export class MemoryStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {}

  async hit(key: string, windowMs: number) {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (!w && this.windows.size >= this.maxKeys) this.sweep(now);
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return { count: w.count, resetMs: w.resetAt - now };
  }

  get size() {
    return this.windows.size;
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    // Still full of live windows (a flood of distinct keys): start over rather than grow unbounded.
    if (this.windows.size >= this.maxKeys) this.windows.clear();
  }

  async close() {
    this.windows.clear();
  }
}

// INCR and set the expiry on the first hit, atomically; a key without TTL gets one.
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
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

  async hit(key: string, windowMs: number) {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs))) as [number, number];
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

  /** Counts one hit for `id` under `policy`; throws rateLimited(retryAfterSeconds) past the limit. */
  async consume(policy: RateLimitPolicy, id: string): Promise<void> {
    let result: { count: number; resetMs: number };
    try {
      result = await this.store.hit(`${policy.name}:${id}`, policy.windowSeconds * 1000);
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

export function createRateLimiter(config: { redisUrl?: string }, log?: Logger): RateLimiter {
  return new RateLimiter(config.redisUrl ? RedisStore.connect(config.redisUrl, log) : new MemoryStore(), log);
}
