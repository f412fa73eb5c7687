import { EventEmitter } from 'node:events';

/**
 * In-process domain events, emitted AFTER the write committed. Areas react to each other's writes
 * through these instead of calling into each other (scores → social notifications, definitions →
 * recompute jobs). Listeners must not throw; errors are logged by the emitter's owner.
 */
export interface DomainEvents {
  /** One import batch committed (chartIds: charts whose best changed). */
  'scores.imported': {
    userId: string;
    version: string;
    batchId: string;
    chartIds: number[];
    /**
     * The player's best EX on each changed chart just before and just after this import (−1: no
     * best before), read in the import's transaction — so a listener running after a later import
     * of the same player committed still sees this import's own step. Absent: read from the database.
     */
    exSteps?: { chartId: number; before: number; after: number }[];
  };
  /** A batch was deleted. */
  'scores.batchDeleted': { userId: string; version: string; batchId: string };
  /** Charts were added to the catalogue outside a definitions import (learned from a score export). */
  'catalogue.chartsAdded': { chartIds: number[] };
  /** A definitions release was imported (something changed). */
  'definitions.imported': { version: string; changedChartIds: number[] };
  /** A follow was created (public follow or approved request). */
  'social.followed': { followerId: string; followingId: string; approved: boolean };
  /** An account was deleted with all its data (bestCharts: charts it had bests on, per version, for cached aggregates). */
  'users.deleted': { userId: string; bestCharts: { version: string; chartIds: number[] }[] };
}

export class EventBus {
  private readonly emitter = new EventEmitter();
  /** Listener work still running (a listener that returns a promise). */
  private readonly pending = new Set<Promise<void>>();
  constructor(private readonly onError: (err: unknown, event: string) => void = () => {}) {
    this.emitter.setMaxListeners(50);
  }

  on<K extends keyof DomainEvents>(event: K, listener: (payload: DomainEvents[K]) => void | Promise<void>): void {
    this.emitter.on(event, (payload: DomainEvents[K]) => {
      try {
        const r = listener(payload);
        if (r && typeof r.then === 'function') {
          const p: Promise<void> = r.catch((err) => this.onError(err, event)).finally(() => this.pending.delete(p));
          this.pending.add(p);
        }
      } catch (err) {
        this.onError(err, event);
      }
    });
  }

  emit<K extends keyof DomainEvents>(event: K, payload: DomainEvents[K]): void {
    this.emitter.emit(event, payload);
  }

  /**
   * Resolves when every listener's work has finished, including work started by listeners of
   * events emitted meanwhile — for a short-lived process (a CLI command) that must not exit
   * before the listeners' writes and announcements are done. Failures were already logged.
   */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
