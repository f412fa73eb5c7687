import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { yieldToEventLoop } from './yield';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client';
import { acquireDataDirLock } from './lock';
import { ReadRouter } from './replicas';
import { trackPool } from '../metrics';

export type Db = PrismaClient;

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  prisma: PrismaClient;
  /** The adapter factory, also used by the migration engine. */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** Human-readable location (data dir or URL without password). */
  where: string;
  /** PostgreSQL: the connection string (for the cluster bus's and locks' own connections). */
  url?: string;
  /** With read replicas (DATABASE_REPLICA_URLS): the client of each read-only request (src/db/replicas.ts). */
  reads?: ReadRouter;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgresql:// URL; when absent PGlite is used. */
  url?: string;
  /** PGlite data dir; 'memory://' for an in-memory database. */
  dataDir?: string;
  /** PGlite only: start from a dumped data dir (tests clone a migrated template). */
  loadDataDir?: Blob;
  /**
   * PGlite only: run on this already started instance instead of opening one; `close()` then calls
   * `release` and leaves the instance to its owner (the test suite's pool of reset instances,
   * test/helpers/pglite-pool.ts).
   */
  pglite?: { instance: PGlite; release(): Promise<void> | void };
  poolMax?: number;
  /** Count/observe every SQL statement (tests, benchmarks). */
  onQuery?: (e: { query: string; durationMs: number }) => void;
  /** Who holds the PGlite lock (shown to a second process). */
  purpose?: string;
  /** PostgreSQL streaming replicas for read-only requests (src/db/replicas.ts). */
  replicaUrls?: readonly string[];
}

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;

/**
 * One statement at a time on a transaction's connection. An interactive transaction owns one pg
 * client; code that starts two queries on it at once (`Promise.all` over `tx.…` calls) would
 * queue them inside pg — deprecated ("client.query() when the client is already executing a
 * query") and gone in pg 9. Here each transaction's statements wait for the previous one, so
 * such code stays correct (callers should still await one after the other: see
 * test/unit/no-parallel-tx.test.ts, which finds them).
 */
export function serialiseTransactions(adapter: Adapter): Adapter {
  const start = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => {
    const tx = await start(isolationLevel);
    let last: Promise<unknown> = Promise.resolve();
    const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
      const next = last.then(run, run);
      last = next.catch(() => undefined);
      return next;
    };
    const queryRaw = tx.queryRaw.bind(tx);
    const executeRaw = tx.executeRaw.bind(tx);
    tx.queryRaw = (q) => inTurn(() => queryRaw(q));
    tx.executeRaw = (q) => inTurn(() => executeRaw(q));
    return tx;
  };
  return adapter;
}

/**
 * PGlite answers a statement through promises only (no I/O): a transaction of many statements is
 * one chain of microtasks, and the event loop — every other request, /healthz — waits for its
 * end (seconds for an import at the row cap on a busy machine). Each statement here first lets the
 * event loop through (one macrotask), so a long transaction is held between statements no
 * longer than one statement takes. PostgreSQL needs nothing: its answers arrive as I/O.
 */
export function yieldingStatements(adapter: Adapter): Adapter {
  const wrap = (q: { queryRaw: Adapter['queryRaw']; executeRaw: Adapter['executeRaw'] }) => {
    const queryRaw = q.queryRaw.bind(q);
    const executeRaw = q.executeRaw.bind(q);
    q.queryRaw = async (query) => {
      await yieldToEventLoop();
      return queryRaw(query);
    };
    q.executeRaw = async (query) => {
      await yieldToEventLoop();
      return executeRaw(query);
    };
  };
  wrap(adapter);
  const start = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => {
    const tx = await start(isolationLevel);
    wrap(tx);
    return tx;
  };
  return adapter;
}

/** The one factory for database clients: PGlite when no URL is given, PostgreSQL otherwise. */
export async function openDatabase(opts: DatabaseOptions): Promise<DatabaseHandle> {
  let adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  let kind: DatabaseHandle['kind'];
  let where: string;
  let closeDriver: () => Promise<void>;
  if (opts.url) {
    kind = 'postgres';
    const u = new URL(opts.url);
    u.password = '';
    where = u.toString();
    const max = opts.poolMax ?? 10;
    const factory = new PrismaPg({ connectionString: opts.url, max });
    // The pools the adapter opens, for the pool-use gauge (src/metrics.ts bpigraph_db_pool_connections).
    const untrack: (() => void)[] = [];
    adapterFactory = Object.assign(Object.create(factory) as typeof factory, {
      async connect() {
        const adapter = serialiseTransactions(await factory.connect());
        const pool = adapter.underlyingDriver() as { totalCount: number; idleCount: number; waitingCount: number };
        untrack.push(
          trackPool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max })),
        );
        return adapter;
      },
    });
    closeDriver = async () => {
      for (const u of untrack) u();
    };
  } else {
    kind = 'pglite';
    const dataDir = opts.dataDir ?? 'memory://';
    const inMemory = opts.pglite !== undefined || dataDir.startsWith('memory://');
    let release = () => {};
    if (!inMemory) release = acquireDataDirLock(path.resolve(dataDir), opts.purpose ?? `pid ${process.pid}`);
    const pg =
      opts.pglite?.instance ??
      new PGlite({
        dataDir: inMemory ? undefined : path.join(path.resolve(dataDir), 'pglite'),
        loadDataDir: opts.loadDataDir,
      });
    try {
      await pg.waitReady;
      // A new WAL segment (16 MiB, every ~20,000 plays written) is not zero-filled first: on
      // PGlite's in-memory file system that fill ran inside the statement that needed the
      // segment, on the main thread — 0.1–0.2 s, more on a busy machine (issue #27). Nothing is
      // less safe: the zeroes only reserve disk space ahead (PostgreSQL's own advice for
      // copy-on-write file systems), and PGlite runs with fsync off.
      await pg.exec('SET wal_init_zero = off');
    } catch (err) {
      release();
      throw err;
    }
    where = inMemory ? 'memory' : path.resolve(dataDir);
    const factory = new PrismaPGlite(pg);
    adapterFactory = Object.assign(Object.create(factory) as typeof factory, {
      async connect() {
        return yieldingStatements((await factory.connect()) as unknown as Adapter);
      },
    });
    const lent = opts.pglite;
    closeDriver = async () => {
      if (lent) return lent.release();
      await pg.close();
      release();
    };
  }
  const prisma = new PrismaClient({
    adapter: adapterFactory,
    log: opts.onQuery ? [{ emit: 'event', level: 'query' }] : [],
  });
  if (opts.onQuery) {
    const cb = opts.onQuery;
    (prisma as unknown as { $on(ev: 'query', f: (e: { query: string; duration: number }) => void): void }).$on(
      'query',
      (e) => cb({ query: e.query, durationMs: e.duration }),
    );
  }
  let reads: ReadRouter | undefined;
  if (opts.url && opts.replicaUrls?.length) {
    const replicas = opts.replicaUrls.map((url) => {
      const u = new URL(url);
      u.password = '';
      return {
        prisma: new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: opts.poolMax ?? 10 }) }),
        where: u.toString(),
      };
    });
    reads = new ReadRouter(prisma, replicas);
    await reads.start();
  }
  return {
    kind,
    prisma,
    reads,
    adapterFactory,
    where,
    url: opts.url,
    async close() {
      await reads?.close();
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}
