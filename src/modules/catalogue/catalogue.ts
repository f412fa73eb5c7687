import type { Db } from '../../db/client';
import { ChunkSizer, yieldToEventLoop } from '../../db/yield';
import { titleKey, titleKeyCached } from '../../domain/titles';
import { safeBpi } from '../../domain/bpi';
import { exScoreForBpiV2, safeBpiV2, type BpiV2Params } from '../../domain/bpi-v2/model';
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
  /**
   * Learned from a player's export and not yet listed by definitions nor adopted (absent: false):
   * only its holders' own lists show it (docs/imports-provisional.md).
   */
  provisional?: boolean;
}

/** A song as import matching sees it: the exact stored title, and whether any chart of it is public. */
export interface CatalogueSong {
  title: string;
  public: boolean;
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

  private static key(title: string, playStyle: PlayStyle, difficulty: Difficulty, key = titleKey): string {
    // both sides normalised the same way (NFKC, trimmed and collapsed whitespace): src/domain/titles.ts
    return `${key(title)}\u0000${playStyle}\u0000${difficulty}`;
  }

  /** Per lookup (the calculator, every import row): the title's key remembered (titleKeyCached). */
  find(title: string, playStyle: PlayStyle, difficulty: Difficulty): C | undefined {
    return this.byKey.get(ChartMatcher.key(title, playStyle, difficulty, titleKeyCached));
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
  /** The public charts (not provisional): what charts() serves. */
  private publicCharts: CatalogueChart[] = [];
  /** title key → a song of the catalogue: its exact title, and whether it has a public chart. */
  private songTitles = new Map<string, CatalogueSong>();
  private matcher = new ChartMatcher<CatalogueChart>([]);
  private currentDefinitionsVersion: string | null = null;

  /** chart id → rank of its title in collation order (built on first use after each load). */
  private titleRanks: Map<number, number> | null = null;
  /** The reload under way (callers share it) and when a reload for unknown chart ids last ran. */
  private reloading: Promise<void> | null = null;
  private lastMissReload = 0;
  /** chart id → fitted BPI V2 parameters of the current definitions vintage (loadBpiV2). */
  private v2 = new Map<number, BpiV2Params>();
  /** Loads started, and the latest started one that was applied (an older one finishing later is dropped). */
  private loadsStarted = 0;
  private loadApplied = 0;

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

  /**
   * Reads the whole catalogue and swaps it in. Loads may overlap (a reload after a change, a score
   * writer that found its catalogue stale: src/modules/scores/current-definitions.ts); one that
   * started before another already applied is dropped when it ends, so an older reading never
   * replaces a newer one.
   */
  async load(): Promise<void> {
    const ticket = ++this.loadsStarted;
    const byId = new Map<number, CatalogueChart>();
    // Read in pages by id (keyset), sized by their time, with the event loop let through between
    // them: PGlite runs each statement on the main thread, and the whole table in one read (with
    // the songs and definitions of 3,000+ charts) held the process 0.3–0.6 s on a busy machine
    // (issue #27). Charts only gain ids upwards; a concurrent change is followed by its own reload.
    const sizer = new ChunkSizer({ first: 200, min: 50, max: 5000 });
    for (let after = 0, more = true; more;) {
      if (after > 0) await yieldToEventLoop();
      const take = sizer.size;
      const t = performance.now();
      const page = await this.readPage(after, take);
      sizer.took(page.length, performance.now() - t);
      more = page.length === take;
      if (page.length) after = page[page.length - 1].id;
      this.addCharts(byId, page);
    }
    const latest = await this.db.definitionsRelease.findFirst({ orderBy: { importedAt: 'desc' } });
    if (ticket < this.loadApplied) return; // a load started later is in already
    this.loadApplied = ticket;
    this.byId = byId;
    this.publicCharts = [...byId.values()].filter((c) => !c.provisional);
    const songTitles = new Map<string, CatalogueSong>();
    for (const c of byId.values()) {
      const key = titleKey(c.title);
      const song = songTitles.get(key);
      if (!song) songTitles.set(key, { title: c.title, public: !c.provisional });
      else if (!c.provisional) song.public = true;
    }
    this.songTitles = songTitles;
    this.matcher = new ChartMatcher(byId.values());
    this.titleRanks = null;
    this.currentDefinitionsVersion = latest?.version ?? null;
    await this.loadBpiV2();
  }

  /** Charts after id `after` (`take` of them, by id) with their song's title and current definition. */
  private readPage(after: number, take: number) {
    return this.db.chart.findMany({
      where: { id: { gt: after } },
      orderBy: { id: 'asc' },
      take,
      include: {
        song: { select: { title: true } },
        definitions: { where: { isCurrent: true }, take: 1 },
      },
    });
  }

  /** One page of load(): the charts as the catalogue holds them. */
  private addCharts(byId: Map<number, CatalogueChart>, charts: Awaited<ReturnType<Catalogue['readPage']>>): void {
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
        provisional: c.provisional,
        definition: d
          ? {
              id: d.id,
              definitionsVersion: d.definitionsVersion,
              wr: d.wr,
              kaidenAvg: d.kaidenAvg,
              coef: d.coef,
              notes: d.notes,
            }
          : null,
      };
      byId.set(c.id, entry);
    }
  }

  /**
   * (Re)loads the fitted BPI V2 parameters of the current definitions vintage (the BPI V2 job's
   * store; cache `bpiV2`). A vintage never fitted has none: every V2 BPI is null until the job runs.
   */
  async loadBpiV2(): Promise<void> {
    const vintage = this.currentDefinitionsVersion;
    const rows = vintage
      ? await this.db.bpiV2ChartParams.findMany({
          where: { definitionsVersion: vintage },
          select: { chartId: true, mu: true, sigma: true, z0: true, z100: true, gamma: true },
        })
      : [];
    const v2 = new Map<number, BpiV2Params>();
    for (const r of rows) v2.set(r.chartId, { mu: r.mu, sigma: r.sigma, z0: r.z0, z100: r.z100, gamma: r.gamma });
    this.v2 = v2;
  }

  /** The chart's fitted V2 parameters (null: not fitted for the current vintage). */
  bpiV2Params(chartId: number): BpiV2Params | null {
    return this.v2.get(chartId) ?? null;
  }

  /** Charts with V2 parameters. */
  get bpiV2Charts(): number {
    return this.v2.size;
  }

  /**
   * The BPI V2 of `exScore` on a chart (src/domain/bpi-v2 safeBpiV2 with the chart's fitted
   * parameters; null: not fitted, no notes, or a score over the maximum).
   */
  currentBpiV2(chartId: number, exScore: number): number | null {
    const c = this.byId.get(chartId);
    if (!c) return null;
    return safeBpiV2(exScore, c.definition?.notes ?? c.notes, this.v2.get(chartId));
  }

  /** The EX score for a target V2 BPI (ceiled; null: not fitted or no notes). */
  exScoreForBpiV2(chartId: number, target: number): number | null {
    const c = this.byId.get(chartId);
    if (!c) return null;
    return exScoreForBpiV2(target, c.definition?.notes ?? c.notes, this.v2.get(chartId));
  }

  /** Public charts (provisional ones are not counted). */
  get size(): number {
    return this.publicCharts.length;
  }

  get definitionsVersion(): string | null {
    return this.currentDefinitionsVersion;
  }

  /** Any chart by id, provisional ones included (a player's own lists reach them through their bests). */
  chart(id: number): CatalogueChart | undefined {
    return this.byId.get(id);
  }

  /** Import matching: any chart, provisional ones included (a second player's rows meet the chart a first one learned). */
  find(title: string, playStyle: PlayStyle, difficulty: Difficulty): CatalogueChart | undefined {
    return this.matcher.find(title, playStyle, difficulty);
  }

  /** The catalogue's song with this title's key (src/domain/titles.ts), if any. */
  song(title: string): CatalogueSong | undefined {
    return this.songTitles.get(titleKey(title));
  }

  /**
   * The PUBLIC charts: every list, ranking, statistic and candidate set across players iterates
   * these — provisional charts are never among them (docs/imports-provisional.md).
   */
  charts(): IterableIterator<CatalogueChart> {
    return this.publicCharts.values();
  }

  /** Every chart, provisional ones included (import matching, a player's own lists). */
  allCharts(): IterableIterator<CatalogueChart> {
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
