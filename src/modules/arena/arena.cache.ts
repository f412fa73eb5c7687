import type { Db } from '../../db/client';
import type { ArenaAverage } from '../../generated/prisma/client';
import { A_CLASSES, LATEST_VERSION, type ArenaClass } from '../../domain/constants';
import { round2 } from '../../domain/bpi';
import type { Catalogue } from '../catalogue/catalogue';

export interface ArenaAverageView {
  arenaClass: ArenaClass;
  avgExScore: number;
  /** % of the max EX score, 2 decimals */
  rate: number;
  count: number;
  avgBpi: number | null;
}

/**
 * In-memory view of the cached averages, loaded per version on first use and dropped when a
 * recompute writes new values — the calculator does not query the database for them.
 */
export class ArenaAverageCache {
  private readonly versions = new Map<string, Promise<Map<number, ArenaAverage[]>>>();
  /** The versions whose load has finished (the same maps as `versions` resolves to): read with no promise. */
  private readonly loaded = new Map<string, Map<number, ArenaAverage[]>>();
  constructor(
    private readonly db: Db,
    private readonly catalogue: Catalogue,
  ) {}

  invalidate(version?: string): void {
    if (version) {
      this.versions.delete(version);
      this.loaded.delete(version);
    } else {
      this.versions.clear();
      this.loaded.clear();
    }
  }

  async forChart(chartId: number, version: string = LATEST_VERSION): Promise<ArenaAverageView[] | null> {
    return this.view(await this.load(version), chartId);
  }

  /**
   * forChart without a promise when the version's averages are in memory already (the
   * calculator's hot path); undefined when they are still to be loaded (then call forChart).
   */
  forChartLoaded(chartId: number, version: string = LATEST_VERSION): ArenaAverageView[] | null | undefined {
    const byChart = this.loaded.get(version);
    return byChart === undefined ? undefined : this.view(byChart, chartId);
  }

  private load(version: string): Promise<Map<number, ArenaAverage[]>> {
    let loading = this.versions.get(version);
    if (!loading) {
      const pending = this.db.arenaAverage.findMany({ where: { version } }).then((rows) => {
        const m = new Map<number, ArenaAverage[]>();
        for (const r of rows) m.set(r.chartId, [...(m.get(r.chartId) ?? []), r]);
        // Not when an invalidation came while loading: the next request loads again.
        if (this.versions.get(version) === pending) this.loaded.set(version, m);
        return m;
      });
      loading = pending;
      loading.catch(() => this.versions.delete(version));
      this.versions.set(version, loading);
    }
    return loading;
  }

  private view(byChart: Map<number, ArenaAverage[]>, chartId: number): ArenaAverageView[] | null {
    const rows = byChart.get(chartId);
    const chart = this.catalogue.chart(chartId);
    if (!rows || !chart) return null;
    const max = chart.notes * 2;
    return A_CLASSES.flatMap((cls) => {
      const r = rows.find((x) => x.arenaClass === cls);
      return r
        ? [
            {
              arenaClass: cls,
              avgExScore: r.avgExScore,
              rate: round2((r.avgExScore / max) * 100),
              count: r.count,
              avgBpi: r.avgBpi,
            },
          ]
        : [];
    });
  }
}
