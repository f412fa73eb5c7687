/**
 * Transactions that PostgreSQL may abort for reasons that are not the caller's: a serialization
 * failure (SQLSTATE 40001) or a deadlock victim (40P01). Such a transaction did nothing; running
 * it again from the start is correct and usually succeeds. `retryTransaction` does that with
 * exponential backoff and jitter, so the client never sees these as INTERNAL errors.
 */

const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

/** Whether `err` (a Prisma error, a driver adapter error or a pg error, however nested) is 40001 / 40P01. */
export function isRetryableTxError(err: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || depth > 6 || seen.has(e)) return false;
    seen.add(e);
    const o = e as Record<string, unknown>;
    if (o.code === 'P2034') return true; // Prisma: "Transaction failed due to a write conflict or a deadlock"
    if (typeof o.code === 'string' && RETRYABLE_SQLSTATES.has(o.code)) return true;
    if (typeof o.originalCode === 'string' && RETRYABLE_SQLSTATES.has(o.originalCode)) return true;
    if (o.kind === 'TransactionWriteConflict') return true;
    if (
      typeof o.message === 'string' &&
      /\b(40P01|40001)\b|deadlock detected|could not serialize access/.test(o.message)
    )
      return true;
    const meta = o.meta as Record<string, unknown> | undefined;
    return walk(o.cause, depth + 1) || walk(meta?.driverAdapterError, depth + 1) || walk(meta, depth + 1);
  };
  return walk(err, 0);
}

export interface RetryOptions {
  /** Attempts in all (default 6). */
  attempts?: number;
  /** First backoff in ms (default 20), doubled each time, with full jitter. */
  baseMs?: number;
  /** Told of each retry (for a log line / metric). */
  onRetry?: (attempt: number, err: unknown) => void;
}

/** Runs `run` (one whole transaction) again after a 40001 / 40P01, up to `attempts` times. */
export async function retryTransaction<T>(run: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? 6;
  const base = opts.baseMs ?? 20;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= attempts || !isRetryableTxError(err)) throw err;
      opts.onRetry?.(attempt, err);
      const ceiling = base * 2 ** (attempt - 1);
      await new Promise((r) => setTimeout(r, ceiling / 2 + Math.random() * (ceiling / 2)));
    }
  }
}
