import type { Db } from '../../db/client';
import { safeBpi } from '../../domain/bpi';
import type { Difficulty, PlayStyle, RadarCategory } from '../../generated/prisma/enums';

export interface CatalogueDefinition {
  id: number;
  definitionsVersion: string;
  wr: number | null;
  kaidenAvg: number | null;
  coef: number | null;
  notes: number;
}

export interface CatalogueChart {
  id: number;
  songId: number;
  title: string;
  playStyle: PlayStyle;
  difficulty: Difficulty;
  level: number;
  /** Note count; 0 = unknown (a chart learned from a score export: Chart.notes is null). */
  notes: number;
  bpm: string;
  releasedVersion: number | null;
  removedInVersion: string | null;
  radarCategory: RadarCategory | null;
  definition: CatalogueDefinition | null;
}

/**
 * Charts by exact title + play style + difficulty: the one way rows of an import (scores,
 * radar categories, attribute vectors, legacy data, the calculator) are matched to charts.
 */
export class ChartMatcher<C extends { title: string; playStyle: PlayStyle; difficulty: Difficulty }> {
  private readonly byKey = new Map<string, C>();

  constructor(charts: Iterable<C>) {
    for (const c of charts) this.byKey.set(ChartMatcher.key(c.title, c.playStyle, c.difficulty), c);
  }

  private static key(title: string, playStyle: PlayStyle, difficulty: Difficulty): string {
    return `${title}\u0000${playStyle}\u0000${difficulty}`;
  }

  find(title: string, playStyle: PlayStyle, difficulty: Difficulty): C | undefined {
    return this.byKey.get(ChartMatcher.key(title, playStyle, difficulty));
  }
}

/**
 * In-memory catalogue: every chart with its current definition, by id and by
 * title + play style + difficulty. Loaded once at start and reloaded after a definitions
 * import, so hot paths (the BPI calculator, CSV matching) never query the database for charts.
 */
/** The catalogue's name among the cluster's caches (src/cluster/caches.ts): `caches.changed(CATALOGUE_CACHE)` reloads it everywhere. */
export const CATALOGUE_CACHE = 'catalogue';

export class Catalogue {
  private byId = new Map<number, CatalogueChart>();
  private matcher = new ChartMatcher<CatalogueChart>([]);
  private currentDefinitionsVersion: string | null = null;

  /** chart id → rank of its title in collation order (built on first use after each load). */
  private titleRanks: Map<number, number> | null = null;
  /** The reload under way (callers share it) and when a reload for unknown chart ids last ran. */
  private reloading: Promise<void> | null = null;
  private lastMissReload = 0;

  constructor(private readonly db: Db) {}

  /** load(), shared by concurrent callers. */
  reload(): Promise<void> {
    this.reloading ??= this.load().finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  /**
   * Charts are added by score imports too (charts learned from an export, in any process): a
   * chart id this catalogue does not hold means another process added it since the last load,
   * and the catalogue reloads once (at most once a second for ids that stay unknown).
   */
  async ensureCharts(ids: Iterable<number>): Promise<void> {
    for (const id of ids) {
      if (this.byId.has(id)) continue;
      if (this.reloading) return this.reloading;
      if (Date.now() - this.lastMissReload < 1000) return;
      this.lastMissReload = Date.now();
      return this.reload();
    }
  }

  async load(): Promise<void> {
    const charts = await this.db.chart.findMany({
      include: {
        song: { select: { title: true } },
        definitions: { where: { isCurrent: true }, take: 1 },
      },
    });
    const byId = new Map<number, CatalogueChart>();
    for (const c of charts) {
      const d = c.definitions[0];
      const entry: CatalogueChart = {
        id: c.id,
        songId: c.songId,
        title: c.song.title,
        playStyle: c.playStyle,
        difficulty: c.difficulty,
        level: c.level,
        notes: c.notes ?? 0,
        bpm: c.bpm,
        releasedVersion: c.releasedVersion,
        removedInVersion: c.removedInVersion,
        radarCategory: c.radarCategory,
        definition: d
          ? { id: d.id, definitionsVersion: d.definitionsVersion, wr: d.wr, kaidenAvg: d.kaidenAvg, coef: d.coef, notes: d.notes }
          : null,
      };
      byId.set(c.id, entry);
    }
    const latest = await this.db.definitionsRelease.findFirst({ orderBy: { importedAt: 'desc' } });
    this.byId = byId;
    this.matcher = new ChartMatcher(byId.values());
    this.titleRanks = null;
    this.currentDefinitionsVersion = latest?.version ?? null;
  }

  get size(): number {
    return this.byId.size;
  }

  get definitionsVersion(): string | null {
    return this.currentDefinitionsVersion;
  }

  chart(id: number): CatalogueChart | undefined {
    return this.byId.get(id);
  }

  find(title: string, playStyle: PlayStyle, difficulty: Difficulty): CatalogueChart | undefined {
    return this.matcher.find(title, playStyle, difficulty);
  }

  charts(): IterableIterator<CatalogueChart> {
    return this.byId.values();
  }

  /**
   * The rank of a chart's title in the catalogue's title order (Intl collation, as the
   * reference's localeCompare): score lists sort titles by comparing integers. Unknown ids rank last.
   */
  titleRank(chartId: number): number {
    if (!this.titleRanks) {
      const collator = new Intl.Collator();
      const titles = [...new Set([...this.byId.values()].map((c) => c.title))].sort(collator.compare);
      const rank = new Map(titles.map((t, i) => [t, i]));
      this.titleRanks = new Map([...this.byId.values()].map((c) => [c.id, rank.get(c.title)!]));
    }
    return this.titleRanks.get(chartId) ?? Number.MAX_SAFE_INTEGER;
  }

  /**
   * The BPI of `exScore` on a chart under the chart's CURRENT definition (src/domain/bpi safeBpi;
   * null: no current definition, or a score over the maximum). This is the BPI of a best score
   * everywhere it is shown or summed — BestScore stores none, so a definitions update changes it
   * at the next catalogue load. (Score.bpi is different: the BPI with the definition in force at
   * import, stored.) Not memoised: the formula costs ≈ 0.13 µs per score (5,000 bests ≈ 0.7 ms), the
   * same as a lookup in a per-chart table, which cost ≈ 130 MB and 0.37 s to fill for a 5,000-chart
   * catalogue.
   */
  currentBpi(chartId: number, exScore: number): number | null {
    const def = this.byId.get(chartId)?.definition;
    return def ? safeBpi(exScore, def) : null;
  }
}
