import type { Db } from '../db/client';
import { recomputeDuration } from '../metrics';
import type { Logger } from '../logger';

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

/**
 * Recomputes stored derived values (totals per user and version, arena averages…) after a
 * definitions update, for every version that has scores. (A best's BPI is not stored: it follows
 * the definitions by itself, see Catalogue.currentBpi.) Areas register their
 * steps; one run at a time; re-runnable; progress is observable (GraphQL recomputeStatus, CLI bar).
 */
export class RecomputeJob {
  private readonly steps: RecomputeStep[] = [];
  private current: Promise<void> | null = null;
  readonly state: RecomputeState = { running: false, step: null, done: 0, total: 0, startedAt: null, finishedAt: null, error: null };

  constructor(private readonly db: Db, private readonly log?: Logger) {}

  addStep(step: RecomputeStep): void {
    if (this.steps.some((s) => s.name === step.name)) return;
    this.steps.push(step);
    this.steps.sort((a, b) => a.order - b.order);
  }

  get stepNames(): string[] {
    return this.steps.map((s) => s.name);
  }

  /** Starts a run in the background; false when one is already running. */
  start(versions?: string[], onProgress?: (step: string, done: number, total: number) => void): boolean {
    if (this.current) return false;
    this.current = this.run(versions, onProgress).finally(() => {
      this.current = null;
    });
    this.current.catch(() => {});
    return true;
  }

  /** Waits for the running job (if any). */
  async wait(): Promise<void> {
    await this.current?.catch(() => {});
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

  /** Runs the job to the end (throws on failure). */
  async run(versions?: string[], onProgress?: (step: string, done: number, total: number) => void): Promise<void> {
    const s = this.state;
    Object.assign(s, { running: true, step: null, done: 0, total: 0, startedAt: new Date(), finishedAt: null, error: null });
    const runTimer = recomputeDuration.startTimer({ step: 'all' });
    try {
      const targets = versions ?? (await this.versionsWithScores());
      for (const version of targets) {
        for (const step of this.steps) {
          const stepTimer = recomputeDuration.startTimer({ step: step.name });
          s.step = `${step.name} (${version})`;
          s.done = 0;
          s.total = 0;
          await step.run(version, (done, total) => {
            s.done = done;
            s.total = total;
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
    }
  }
}
