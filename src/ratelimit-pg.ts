/**
 * A rate-limit store on PostgreSQL (table "RateLimitWindow"): the CPU budgets' counters shared by
 * every process of a cluster that has PostgreSQL but no Redis (docs/limits-and-pool.md). One
 * statement per hit — an upsert that restarts an expired window in place — so concurrent hits on
 * one key from any process are serialized by the row lock and none is lost. Only the CPU budgets
 * use it (a heavy field already costs database work); the per-request rate limits stay in memory
 * without Redis, as a statement on every request would cost the hot path.
 */
import type { Db } from './db/client';
import type { RateLimitStore } from './ratelimit';

const HIT = `INSERT INTO "RateLimitWindow" ("key", "count", "resetAt")
  VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3::double precision / 1000))
  ON CONFLICT ("key") DO UPDATE SET
    "count" = CASE WHEN "RateLimitWindow"."resetAt" <= clock_timestamp() THEN EXCLUDED."count"
                   ELSE "RateLimitWindow"."count" + EXCLUDED."count" END,
    "resetAt" = CASE WHEN "RateLimitWindow"."resetAt" <= clock_timestamp() THEN EXCLUDED."resetAt"
                     ELSE "RateLimitWindow"."resetAt" END
  RETURNING "count", (extract(epoch FROM ("resetAt" - clock_timestamp())) * 1000)::double precision AS "resetMs"`;

/** Rows idle this long are deleted (at most once a minute per process). */
const IDLE_MS = 3600_000;

export class PostgresStore implements RateLimitStore {
  private lastSweep = Date.now();

  constructor(private readonly db: Pick<Db, '$queryRawUnsafe' | '$executeRawUnsafe'>) {}

  async hit(key: string, windowMs: number, n = 1) {
    const [row] = await this.db.$queryRawUnsafe<{ count: number; resetMs: number }[]>(HIT, key, n, windowMs);
    if (Date.now() - this.lastSweep > 60_000) {
      this.lastSweep = Date.now();
      void this.db
        .$executeRawUnsafe(
          `DELETE FROM "RateLimitWindow" WHERE "resetAt" < clock_timestamp() - make_interval(secs => $1::double precision / 1000)`,
          IDLE_MS,
        )
        .catch(() => {}); // a failed sweep is retried a minute later
    }
    return { count: Number(row.count), resetMs: Math.max(0, Number(row.resetMs)) };
  }

  async close() {}
}
