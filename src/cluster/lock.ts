import { Client } from 'pg';
import type { Logger } from '../logger';

/**
 * A lock held by one process of the cluster at a time (the recompute job). On PostgreSQL it is a
 * session advisory lock (`pg_try_advisory_lock`) on a dedicated connection opened for the
 * holder — so a process that dies releases it with its connection. Without PostgreSQL (PGlite:
 * one process) it is a flag in this process.
 */
export interface ClusterLock {
  /** The release function when the lock was free, null when another holder has it. */
  tryAcquire(): Promise<(() => Promise<void>) | null>;
  /** Waits for the lock. */
  acquire(): Promise<() => Promise<void>>;
  /** Whether anyone (any process) holds it now. */
  isHeld(): Promise<boolean>;
}

export class LocalLock implements ClusterLock {
  private held = false;
  private waiters: (() => void)[] = [];

  async tryAcquire() {
    if (this.held) return null;
    this.held = true;
    return this.releaser();
  }

  async acquire() {
    while (this.held) await new Promise<void>((r) => this.waiters.push(r));
    this.held = true;
    return this.releaser();
  }

  async isHeld() {
    return this.held;
  }

  private releaser() {
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      this.held = false;
      this.waiters.shift()?.();
    };
  }
}

export class AdvisoryLock implements ClusterLock {
  constructor(
    private readonly url: string,
    /** The advisory lock key (one per purpose; below 2^31 so it reads back as pg_locks.objid). */
    private readonly key: number,
    private readonly log?: Logger,
  ) {}

  private async session(): Promise<Client> {
    const client = new Client({ connectionString: this.url, keepAlive: true });
    client.on('error', (err) =>
      this.log?.warn({ err, key: this.key }, 'advisory lock connection lost (the lock is released with it)'),
    );
    await client.connect();
    return client;
  }

  private releaser(client: Client) {
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      try {
        await client.query('SELECT pg_advisory_unlock($1)', [this.key]);
      } catch {
        // the connection is gone: so is the lock
      }
      await client.end().catch(() => {});
    };
  }

  async tryAcquire() {
    const client = await this.session();
    try {
      const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [this.key]);
      if (r.rows[0].ok) return this.releaser(client);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    await client.end().catch(() => {});
    return null;
  }

  async acquire() {
    const client = await this.session();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [this.key]);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    return this.releaser(client);
  }

  async isHeld() {
    const client = await this.session();
    try {
      const r = await client.query<{ held: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1 AND l.granted
            AND d.datname = current_database()) AS held`,
        [this.key],
      );
      return r.rows[0].held;
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** The recompute job's lock key. */
export const RECOMPUTE_LOCK_KEY = 727_301;
/** The BPI V2 fit job's lock (src/modules/catalogue/bpi-v2.job.ts). */
export const BPI_V2_LOCK_KEY = 727_302;

export function createClusterLock(databaseUrl: string | undefined, key: number, log?: Logger): ClusterLock {
  return databaseUrl ? new AdvisoryLock(databaseUrl, key, log) : new LocalLock();
}

/**
 * Runs of one job, one at a time across the cluster under its lock (the recompute job, the BPI V2
 * fit): `start` in the background (false when a run is already going on in this process or holds
 * the lock in another), `runNow` in the foreground (waits for another process's run first).
 */
export class LockedRuns {
  private current: Promise<void> | null = null;
  /** A `start` came while this process's run was going on (`again` mode): it runs once more. */
  private rerun = false;

  constructor(
    readonly lock: ClusterLock,
    /** Told when the lock cannot be asked (e.g. its database connection fails): the start answers false. */
    private readonly onLockError: (err: unknown) => void,
  ) {}

  /** Whether this process runs the job now. */
  get running(): boolean {
    return this.current !== null;
  }

  /**
   * Starts `run` in the background under the lock. The answer comes when `run` calls `started`
   * (e.g. once its progress row exists) or ends, whichever is first; false without the lock.
   * A failed background run is the job's to record (its status row); it is not rethrown here.
   *
   * With `again` (a job whose run must follow every change of what it derives from, however the
   * starts fall): a `start` while this process's run goes on still answers false, and the run
   * goes once more when it ends; and after each run, once the lock is released, `again()` says
   * whether what the run derived from changed since it began — a change whose `start` answered
   * false in another process while this one held the lock — and if so it runs once more (when the
   * lock is taken by then, its holder makes the same check after its own run, which began later).
   */
  start(run: (started: () => void) => Promise<unknown>, again?: () => Promise<boolean>): Promise<boolean> {
    if (this.current) {
      if (again) this.rerun = true;
      return Promise.resolve(false);
    }
    let answer!: (ok: boolean) => void;
    const answered = new Promise<boolean>((r) => (answer = r));
    const current: Promise<void> = (async () => {
      for (;;) {
        this.rerun = false;
        let release: (() => Promise<void>) | null = null;
        try {
          release = await this.lock.tryAcquire();
        } catch (err) {
          this.onLockError(err);
        }
        if (!release) {
          // Another process holds it: it looks at `again` after its run, which covers what happened
          // until now. A start here while the lock was asked may be later than that look: ask once more.
          if (again && this.rerun) continue;
          return answer(false);
        }
        try {
          await run(() => answer(true));
        } catch (err) {
          // a failed run ends the runs, unless a start came meanwhile (it asked for a run of its own)
          if (!this.rerun) throw err;
        } finally {
          answer(true); // no-op when already answered
          await release();
        }
        if (!again) return;
        let changed = this.rerun;
        if (!changed) {
          try {
            changed = await again();
          } catch (err) {
            this.onLockError(err);
          }
        }
        // (no await from the last look at `rerun` to giving up `current`: a start sees one or the other)
        if (!changed && !this.rerun) {
          this.current = null;
          return;
        }
      }
    })().finally(() => {
      if (this.current === current) this.current = null;
    });
    this.current = current;
    this.current.catch(() => {});
    return answered;
  }

  /** Runs `run` to the end under the lock (its error is thrown); when another process holds the lock, waits for it (`onWait` is told). */
  async runNow<T>(run: () => Promise<T>, onWait?: () => void): Promise<T> {
    let release = await this.lock.tryAcquire();
    if (!release) {
      onWait?.();
      release = await this.lock.acquire();
    }
    try {
      return await run();
    } finally {
      await release();
    }
  }

  /** Waits for this process's background run (if any). */
  async wait(): Promise<void> {
    await this.current?.catch(() => {});
  }
}
