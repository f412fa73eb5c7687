import type { Db } from '../db/client';
import { recomputeDuration } from '../metrics';
import type { Logger } from '../logger';
import { LocalLock, LockedRuns, type ClusterLock } from '../cluster/lock';

export interface RecomputeStep {
  name: string;
  /** lower runs first */
  order: number;
  run(version: string, progress: (done: number, total: number) => void): Promise<void>;
}

export interface RecomputeState {
  running: boolean;
  step: string | null;
  done: number;
  total: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
}

/** How often a running job writes its progress to the RecomputeStatus row (besides step changes). */
const PROGRESS_WRITE_MS = 500;

/**
 * Recomputes stored derived values (totals per user and version, arena averages…) after a
 * definitions update, for every version that has scores. (A best's BPI is not stored: it follows
 * the definitions by itself, see Catalogue.currentBpi.) Areas register their
 * steps; re-runnable; progress is observable (GraphQL recomputeStatus, CLI bar).
 *
 * One run at a time across the cluster: a run holds the cluster lock (a PostgreSQL advisory
 * lock, src/cluster/lock.ts), so `start` on two processes at once runs the job once and the
 * second answers false. The progress is written to the one RecomputeStatus row (at each step and
 * at most every 500 ms), which `status()` reads on every process.
 */
export class RecomputeJob {
  private readonly steps: RecomputeStep[] = [];
  /** This process's run (the last one it ran); `status()` is the cluster's view. */
  readonly state: RecomputeState = {
    running: false,
    step: null,
    done: 0,
    total: 0,
    startedAt: null,
    finishedAt: null,
    error: null,
  };
  private readonly runs: LockedRuns;
  private lastWrite = 0;
  private writing: Promise<unknown> = Promise.resolve();
  private trailing: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly log?: Logger,
    private readonly opts: {
      lock?: ClusterLock;
      instanceId?: string;
      /**
       * What the steps derive from, as a value that changes with it (the app passes the current
       * definitions' fingerprint, src/db/definitions.ts): with it a run follows every change — see
       * `start`.
       */
      generation?: () => Promise<string>;
    } = {},
  ) {
    this.runs = new LockedRuns(opts.lock ?? new LocalLock(), (err) =>
      this.log?.error({ err }, 'recompute lock unavailable'),
    );
  }

  addStep(step: RecomputeStep): void {
    if (this.steps.some((s) => s.name === step.name)) return;
    this.steps.push(step);
    this.steps.sort((a, b) => a.order - b.order);
  }

  get stepNames(): string[] {
    return this.steps.map((s) => s.name);
  }

  /**
   * Starts a run in the background; false when one is already running (in any process of the
   * cluster). With `generation` no change is left behind: a start while this process runs the job
   * has it run once more when it ends, and a run that ends with another generation than it began
   * with (a definitions update committed meanwhile, its start answered false here or in another
   * process) runs once more — LockedRuns.start. Those further runs take every version with scores.
   */
  start(versions?: string[], onProgress?: (step: string, done: number, total: number) => void): Promise<boolean> {
    const generation = this.opts.generation;
    let first = true;
    let ranFrom: string | null = null;
    return this.runs.start(
      async (started) => {
        // read before any step: a change after this reading makes the run go again
        ranFrom = generation ? await generation().catch(() => null) : null;
        const only = first ? versions : undefined;
        first = false;
        started(); // (runLocked marks the state running at once: whoever was answered sees it)
        return this.runLocked(only, onProgress);
      },
      generation && (async () => (await generation()) !== ranFrom),
    );
  }

  /**
   * The job's state as every process sees it: this process's run when it runs one, else the
   * RecomputeStatus row (a row left `running` by a process that died without releasing the lock
   * reads as not running).
   */
  async status(): Promise<RecomputeState> {
    if (this.state.running) return { ...this.state };
    const row = await this.db.recomputeStatus.findUnique({ where: { id: 1 } });
    if (!row) return { ...this.state };
    const running = row.running && (await this.runs.lock.isHeld());
    return {
      running,
      step: row.step,
      done: row.done,
      total: row.total,
      startedAt: row.startedAt,
      finishedAt: row.finishedAt,
      error: row.error ?? (row.running && !running ? 'interrupted (the process running it stopped)' : null),
    };
  }

  /** Waits for the running job (if any). */
  wait(): Promise<void> {
    return this.runs.wait();
  }

  /**
   * Versions that have best scores, in SQL: a loose index scan over the (chartId, version, exScore)
   * index — one probe per distinct (chart, version) pair, not a read of every best.
   */
  private async versionsWithScores(): Promise<string[]> {
    const rows = await this.db.$queryRawUnsafe<{ version: string }[]>(
      `WITH RECURSIVE v("chartId", "version") AS (
         (SELECT "chartId", "version" FROM "BestScore" ORDER BY "chartId", "version" LIMIT 1)
         UNION ALL
         SELECT x."chartId", x."version" FROM v CROSS JOIN LATERAL (
           SELECT b."chartId", b."version" FROM "BestScore" b WHERE (b."chartId", b."version") > (v."chartId", v."version")
            ORDER BY b."chartId", b."version" LIMIT 1) x
       )
       SELECT DISTINCT "version" FROM v ORDER BY 1`,
    );
    return rows.map((r) => r.version);
  }

  /**
   * Runs the job to the end in the foreground (throws on failure); when another process runs it,
   * waits for that run to end first (`onWait` is told), then runs.
   */
  run(
    versions?: string[],
    onProgress?: (step: string, done: number, total: number) => void,
    onWait?: () => void,
  ): Promise<void> {
    return this.runs.runNow(() => this.runLocked(versions, onProgress), onWait);
  }

  /** Writes the state to the RecomputeStatus row (in order; at most every 500 ms unless forced). */
  private persist(force: boolean): Promise<unknown> {
    const now = Date.now();
    if (!force && now - this.lastWrite < PROGRESS_WRITE_MS) {
      // a trailing write, so that the last progress of a quiet step is stored too
      this.trailing ??= setTimeout(
        () => {
          this.trailing = null;
          void this.persist(true);
        },
        PROGRESS_WRITE_MS - (now - this.lastWrite),
      );
      return this.writing;
    }
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = null;
    this.lastWrite = now;
    const s = { ...this.state };
    const data = {
      running: s.running,
      step: s.step,
      done: s.done,
      total: s.total,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt,
      error: s.error,
      holder: this.opts.instanceId ?? null,
    };
    this.writing = this.writing
      .then(() => this.db.recomputeStatus.upsert({ where: { id: 1 }, create: { id: 1, ...data }, update: data }))
      .catch((err) => this.log?.warn({ err }, 'recompute progress not stored'));
    return this.writing;
  }

  private async runLocked(
    versions?: string[],
    onProgress?: (step: string, done: number, total: number) => void,
  ): Promise<void> {
    const s = this.state;
    Object.assign(s, {
      running: true,
      step: null,
      done: 0,
      total: 0,
      startedAt: new Date(),
      finishedAt: null,
      error: null,
    });
    await this.persist(true);

    const runTimer = recomputeDuration.startTimer({ step: 'all' });
    try {
      const targets = versions ?? (await this.versionsWithScores());
      for (const version of targets) {
        for (const step of this.steps) {
          const stepTimer = recomputeDuration.startTimer({ step: step.name });
          s.step = `${step.name} (${version})`;
          s.done = 0;
          s.total = 0;
          void this.persist(true);
          await step.run(version, (done, total) => {
            s.done = done;
            s.total = total;
            void this.persist(false);
            onProgress?.(s.step!, done, total);
          });
          stepTimer();
          this.log?.info({ step: step.name, version }, 'recompute step done');
        }
      }
    } catch (err) {
      s.error = (err as Error).message;
      this.log?.error({ err }, 'recompute failed');
      throw err;
    } finally {
      runTimer();
      s.running = false;
      s.finishedAt = new Date();
      await this.persist(true);
    }
  }
}
