import type { PrismaClient } from '../generated/prisma/client';
import type { Logger } from '../logger';

/**
 * Read replicas (DATABASE_REPLICA_URLS): which client a request reads from.
 *
 * Routing is per REQUEST, not per statement: a read-only request (a GraphQL query, a REST GET)
 * reads from a replica — every statement, raw SQL included (the rankings and stats are raw SQL);
 * anything else (mutations, subscriptions, REST POST, jobs, the CLI) uses the primary for
 * everything, so a mutation reading back what it just wrote never meets replica lag. Should a
 * read-only request write all the same (a lazily filled cache row), model writes, transactions
 * and `$executeRaw` are sent to the primary by the replica client's wrapper.
 *
 * Read-your-writes: after a request of player P wrote, the primary's WAL insert position
 * (`pg_current_wal_insert_lsn()`: past P's commit record even with synchronous_commit off, when
 * the write position may still be before it) is recorded for P — here and, through the cluster bus, in every
 * process — before the response is sent. P's read-only requests go to the primary until every
 * replica has replayed past that position (`pg_last_wal_replay_lsn()`, polled every 100 ms), so
 * a lagging (or paused) replica never shows P stale data of their own; other players' reads
 * are not held back. A replica that cannot be polled sends every read to the primary.
 */
export interface ReplicaClient {
  prisma: PrismaClient;
  /** The URL without password. */
  where: string;
}

const MODEL_WRITES = new Set([
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
]);
const CLIENT_WRITES = new Set(['$transaction', '$executeRaw', '$executeRawUnsafe']);

/** "16/B374D848" → a comparable number. */
export function parseLsn(text: string): bigint {
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** A replica client whose writes (model writes, transactions, $executeRaw) go to the primary. */
function writesToPrimary(replica: PrismaClient, primary: PrismaClient): PrismaClient {
  const delegates = new Map<PropertyKey, unknown>();
  return new Proxy(replica, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && CLIENT_WRITES.has(prop)) {
        const f = (primary as unknown as Record<string, (...a: unknown[]) => unknown>)[prop];
        return f.bind(primary);
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || prop.startsWith('$') || typeof value !== 'object' || value === null) {
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      }
      let d = delegates.get(prop);
      if (!d) {
        const primaryDelegate = (primary as unknown as Record<string, Record<string, unknown>>)[prop];
        d = new Proxy(value, {
          get(t, op, r) {
            if (typeof op === 'string' && MODEL_WRITES.has(op)) return primaryDelegate[op];
            return Reflect.get(t, op, r);
          },
        });
        delegates.set(prop, d);
      }
      return d;
    },
  });
}

export class ReadRouter {
  /** Per player: the primary's WAL position after their last write not yet replayed everywhere. */
  private readonly pending = new Map<string, bigint>();
  /** The lowest replay position over the replicas (0 until polled, or when one cannot be reached). */
  private replayed = 0n;
  private healthy = false;
  private readonly readers: PrismaClient[];
  private timer: NodeJS.Timeout | null = null;
  private next = 0;
  /** Told of every write recorded here (the app publishes it on the cluster bus). */
  onWrite?: (userId: string, lsn: bigint) => void | Promise<void>;
  /** Reads sent to a replica / to the primary (tests, metrics). */
  readonly counts = { replica: 0, primary: 0 };

  constructor(
    private readonly primary: PrismaClient,
    readonly replicas: readonly ReplicaClient[],
    private readonly log?: Logger,
    private readonly opts: { pollMs?: number; maxPlayers?: number } = {},
  ) {
    this.readers = replicas.map((r) => writesToPrimary(r.prisma, primary));
  }

  /** Starts polling the replicas' replay positions (first poll awaited). */
  async start(): Promise<void> {
    await this.poll();
    const tick = () => {
      this.timer = setTimeout(() => void this.poll().finally(() => this.timer && tick()), this.opts.pollMs ?? 100);
      this.timer.unref();
    };
    tick();
  }

  async poll(): Promise<void> {
    try {
      const lsns = await Promise.all(
        this.replicas.map(async (r) => {
          const rows = await r.prisma.$queryRawUnsafe<{ lsn: string | null }[]>(
            'SELECT pg_last_wal_replay_lsn()::text AS lsn',
          );
          if (!rows[0]?.lsn) throw new Error(`${r.where} is not a replica (pg_last_wal_replay_lsn() is null)`);
          return parseLsn(rows[0].lsn);
        }),
      );
      this.replayed = lsns.reduce((a, b) => (b < a ? b : a));
      if (!this.healthy) this.log?.info({ replicas: this.replicas.length }, 'read replicas in use');
      this.healthy = true;
      for (const [user, lsn] of this.pending) if (lsn <= this.replayed) this.pending.delete(user);
    } catch (err) {
      if (this.healthy) this.log?.warn({ err }, 'a read replica cannot be polled: reads go to the primary');
      this.healthy = false;
    }
  }

  /** The client of a read-only request of `userId` (null: anonymous). */
  reader(userId: string | null | undefined): PrismaClient {
    if (!this.healthy || (userId && (this.pending.get(userId) ?? 0n) > this.replayed)) {
      this.counts.primary++;
      return this.primary;
    }
    this.counts.replica++;
    return this.readers[this.next++ % this.readers.length];
  }

  /** `userId` wrote: their reads stay on the primary until every replica replayed this far. Call before answering. */
  async wrote(userId: string): Promise<void> {
    const rows = await this.primary.$queryRawUnsafe<{ lsn: string }[]>(
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
    );
    const lsn = parseLsn(rows[0].lsn);
    this.note(userId, lsn);
    await this.onWrite?.(userId, lsn);
  }

  /** Records a write position of a player (this process's or another's, from the bus). */
  note(userId: string, lsn: bigint): void {
    if (lsn <= this.replayed) return;
    const prev = this.pending.get(userId);
    if (prev !== undefined && prev >= lsn) return;
    this.pending.delete(userId);
    this.pending.set(userId, lsn);
    const max = this.opts.maxPlayers ?? 100_000;
    // Beyond the bound the oldest entries go, and with them their guarantee: hold every read on the primary until the next poll instead.
    if (this.pending.size > max) {
      this.pending.delete(this.pending.keys().next().value!);
      this.healthy = false;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled(this.replicas.map((r) => r.prisma.$disconnect()));
  }
}
