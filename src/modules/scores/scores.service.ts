/**
 * Scores: a player's bests (at a point in time, per chart), the score lists, and the import use
 * cases (normalized rows, export files, the older app's data); plays over time and bests across
 * versions are `history` (scores.history.service.ts). Charts come from the in-memory catalogue
 * (current definitions); no GraphQL types here.
 */
import type { BestScore } from '../../generated/prisma/client';
import { BpiModel, PlayStyle, type ClearLamp, type Difficulty } from '../../domain/constants';
import { availableIn, totalOverSet, TOTAL_LEVEL } from '../../domain/totals';
import { bestBpis, computeTotal, totalSetIds } from './totals.service';
import { badInput, notFound } from '../../errors';
import { keyset, parseVersion, scoreListArgs } from '../../graphql/args';
import { keyCursor, keysetConnection, type Page } from '../../graphql/connection';
import {
  arraySource,
  positionOf,
  ScoreSortKey,
  selectPage,
  type ListEntry,
  type ListSource,
  type ScoreListFilter,
  type SortOrder,
  type SortPosition,
} from '../../domain/score-list';

/** Cursor kinds of a score list (tagged with its sort and order): [sort value, chartId]. */
const SCORE_LIST_KEY = ['num', 'int'] as const;
import type { AreaScope } from '../area';
import { loadTitleCorrections } from './corrections';
import { importScoreExport, importScores, MAX_IMPORT_ROWS, type ImportReport, type ImportRow } from './import.service';
import { migrateLegacyScores } from './migrate.service';
import { ScoresHistoryService } from './scores.history.service';
import {
  chartFields,
  entry,
  lampOf,
  loadPlays,
  replay,
  withCurrentBpi,
  type EntryData,
  type ReplayBest,
} from './plays';

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'events' | 'config' | 'loaders' | 'pool'>;

interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** A normalized row of the importScores mutation (ScoreRowInput). */
export interface ScoreRowData {
  title: string;
  playStyle?: PlayStyle | null;
  difficulty: Difficulty;
  level?: number | null;
  exScore: number;
  clearState: string;
  missCount?: number | null;
  lastPlayed?: string | null;
}

/** Paging, filters and sort of a score list (ScoreListArgs). */
type ListArgs = PageArgs & ScoreListFilter & { sort?: ScoreSortKey | null; order?: SortOrder | null };

/** A player's bests in a version as parallel columns (compactBests). */
interface BestColumns {
  chartId: number[];
  exScore: number[];
  exScoreId: number[];
  clearLamp: (ClearLamp | null)[];
  clearLampId: (number | null)[];
  missCount: (number | null)[];
  missCountId: (number | null)[];
  /** epoch ms */
  playedAt: number[];
}

export class ScoresService {
  constructor(private readonly s: Scope) {}

  private historyService: ScoresHistoryService | null = null;

  /** Plays over time and bests across versions (scores.history.service.ts). */
  get history(): ScoresHistoryService {
    return (this.historyService ??= new ScoresHistoryService(this.s));
  }

  // ───────────── bests (loaders) ─────────────

  /** The player's current BestScore rows in a version (batched per request). */
  bests(userId: string, version: string): Promise<BestScore[]> {
    return this.s.loaders.scores.bests.load({ userId, version });
  }

  /** The player's current best on one chart in a version, or null (batched per request). */
  bestOn(userId: string, version: string, chartId: number): Promise<BestScore | null> {
    return this.s.loaders.scores.best.load({ userId, version, chartId });
  }

  /** The best on one chart in a version as a score-list entry (null: not played); an unknown chart is NOT_FOUND. */
  async bestEntry(userId: string, chartId: number, versionArg: string | null | undefined): Promise<EntryData | null> {
    const version = parseVersion(versionArg);
    await this.s.catalogue.ensureCharts([chartId]);
    const c = this.s.catalogue.chart(chartId);
    if (!c) throw notFound('Chart not found');
    const b = await this.bestOn(userId, version, chartId);
    return b ? entry(c, version, { ...b, bpi: this.s.catalogue.currentBpi(chartId, b.exScore) }) : null;
  }

  // ───────────── reads ─────────────

  /**
   * The player's total BPI of a version under a model, from the current bests: V1 over the total
   * set (src/domain/totals.ts); V2 over the SP ☆12 charts available in the version that have V2
   * parameters, the same formula (missing charts −15). V1 of an empty set is −15 (the formula's);
   * V2 with no fitted chart in the set is null ("no V2 value").
   */
  async totalBpi(userId: string, versionArg: string | null | undefined, model: BpiModel): Promise<number | null> {
    const version = parseVersion(versionArg);
    const cat = this.s.catalogue;
    const bests = await this.bests(userId, version);
    if (model !== BpiModel.V2) {
      const setIds = totalSetIds(cat, version);
      return computeTotal(cat, version, bestBpis(cat, new Map(bests.map((b) => [b.chartId, b]))), setIds).totalBpi;
    }
    const setIds = new Set<number>();
    for (const c of cat.charts()) {
      if (c.playStyle === PlayStyle.SP && c.level === TOTAL_LEVEL && cat.bpiV2Params(c.id) && availableIn(c, version))
        setIds.add(c.id);
    }
    if (setIds.size === 0) return null;
    const bpis = new Map<number, number | null>();
    for (const b of bests) if (setIds.has(b.chartId)) bpis.set(b.chartId, cat.currentBpiV2(b.chartId, b.exScore));
    return totalOverSet(setIds, bpis).totalBpi;
  }

  /**
   * One page of a score list: the rows filtered (the reference's filters) and taken in the asked
   * order after the cursor's position (keyset: sort value + chart id, see
   * src/domain/score-list.ts). A player's list is bounded by the catalogue and a best's BPI is
   * derived from the in-memory catalogue, so the order is evaluated here over the player's rows
   * (one indexed read), one reused entry at a time; only the page's entries are built.
   */
  private listPage<T extends ListEntry>(src: ListSource<T>, args: ListArgs, parsed = scoreListArgs(args)): Page<T> {
    const { filter, sort } = parsed;
    // a cursor belongs to one sort and order: another's is BAD_USER_INPUT naming `after`
    const tag = `scores:${sort.key}:${sort.order}`;
    const ks = keyset({ first: args.first, after: args.after }, tag, SCORE_LIST_KEY);
    const size = ks.size;
    const cat = this.s.catalogue;
    const rank = (id: number) => cat.titleRank(id);
    let after: SortPosition | null = null;
    if (ks.key) {
      const [curValue, chartId] = ks.key;
      const c = cat.chart(chartId);
      if (!c)
        throw badInput('Invalid cursor: its chart no longer exists', [
          { code: 'invalid_cursor', path: ['after'], message: 'Invalid cursor' },
        ]);
      after = positionOf(c.id, curValue, c.level, c.title, filter.search?.toLowerCase() ?? '', rank);
    }
    const { rows, total } = selectPage(src, filter, sort, rank, after, size + 1);
    const values = new Map(rows.map((r) => [r.entry, r.value]));
    return keysetConnection(
      rows.map((r) => r.entry),
      ks,
      (e) => keyCursor(tag, SCORE_LIST_KEY, [values.get(e)!, e.chartId]),
      total,
    );
  }

  /**
   * The player's bests in a version on BPI charts (the reference's score list): now = BestScore,
   * BPI under the current definitions; asOf = replayed from the plays imported by then, with the
   * BPI stored on the best play (its definition). Filters and sort: ScoreListArgs.
   */
  async bestScores(
    userId: string,
    q: ListArgs & { version?: string | null; asOf?: Date | null },
  ): Promise<Page<EntryData>> {
    const version = parseVersion(q.version);
    const cat = this.s.catalogue;
    if (q.asOf) {
      const bests = replay(await loadPlays(this.s.db, { userId, version, createdAt: { lte: q.asOf } }));
      await cat.ensureCharts(bests.keys());
      const out: EntryData[] = [];
      for (const [chartId, b] of bests) {
        const c = cat.chart(chartId);
        // the BPI score list: charts with a definition (learned charts are in allDifficultyScores)
        if (c && c.definition) out.push(entry(c, version, b));
      }
      return this.listPage(arraySource(out), q);
    }
    const cols = await this.compactBests(userId, version);
    await cat.ensureCharts(cols.chartId);
    const parsed = scoreListArgs(q);
    const { sort, filter } = parsed;
    const needBpi = sort.key === ScoreSortKey.BPI || filter.bpiMin != null || filter.bpiMax != null;
    const at = new Date(0);
    const best = (i: number): ReplayBest => ({
      exScore: cols.exScore[i],
      exScoreId: cols.exScoreId[i],
      clearLamp: cols.clearLamp[i],
      clearLampId: cols.clearLampId[i],
      missCount: cols.missCount[i],
      missCountId: cols.missCountId[i],
      playedAt: new Date(cols.playedAt[i]),
      bpi: cat.currentBpi(cols.chartId[i], cols.exScore[i]),
    });
    return this.listPage<EntryData>(
      {
        length: cols.chartId.length,
        fill: (i, e) => {
          const c = cat.chart(cols.chartId[i]);
          // the BPI score list: charts with a definition (learned charts are in allDifficultyScores)
          if (!c || !c.definition) return false;
          e.chartId = c.id;
          e.title = c.title;
          e.difficulty = c.difficulty;
          e.level = c.level;
          e.notes = c.notes > 0 ? c.notes : null;
          e.bpm = c.bpm;
          e.releasedVersion = c.releasedVersion;
          e.radarTop = c.radarCategory;
          e.exScore = cols.exScore[i];
          e.bpi = needBpi ? cat.currentBpi(c.id, cols.exScore[i]) : null;
          e.clearLamp = cols.clearLamp[i];
          e.missCount = cols.missCount[i];
          at.setTime(cols.playedAt[i]);
          e.playedAt = at;
          return true;
        },
        build: (i) => entry(cat.chart(cols.chartId[i])!, version, best(i)),
      },
      q,
      parsed,
    );
  }

  /**
   * The player's bests in a version for a score list, as columns: one row of parallel arrays
   * (array_agg over the primary key range, sent as one JSON text), so 5,000 bests cost one small
   * result and no object per best.
   */
  private async compactBests(userId: string, version: string): Promise<BestColumns> {
    const [r] = await this.s.db.$queryRawUnsafe<{ j: string | null }[]>(
      `SELECT json_build_array(array_agg("chartId"), array_agg("exScore"), array_agg("exScoreId"), array_agg("clearLamp"::text),
              array_agg("clearLampId"), array_agg("missCount"), array_agg("missCountId"),
              array_agg(round(extract(epoch from "playedAt") * 1000)::float8))::text AS j
         FROM "BestScore" WHERE "userId" = $1 AND "version" = $2`,
      userId,
      version,
    );
    const j = r?.j ? (JSON.parse(r.j) as (unknown[] | null)[]) : null;
    if (!j?.[0])
      return {
        chartId: [],
        exScore: [],
        exScoreId: [],
        clearLamp: [],
        clearLampId: [],
        missCount: [],
        missCountId: [],
        playedAt: [],
      };
    return {
      chartId: j[0] as number[],
      exScore: j[1] as number[],
      exScoreId: j[2] as number[],
      clearLamp: j[3] as (ClearLamp | null)[],
      clearLampId: j[4] as (number | null)[],
      missCount: j[5] as (number | null)[],
      missCountId: j[6] as (number | null)[],
      playedAt: j[7] as number[],
    };
  }

  /**
   * Per chart, the most recently played best over all versions (every difficulty and level).
   * Provisional charts (learned from the player's exports) only in the player's own view
   * (`ownView`: the player or an administrator; docs/imports-provisional.md).
   */
  async allDifficultyScores(userId: string, q: ListArgs, ownView = true): Promise<Page<EntryData>> {
    const cat = this.s.catalogue;
    const rows = await this.s.db.bestScore.findMany({ where: { userId }, orderBy: { playedAt: 'asc' } });
    const latest = new Map<number, (typeof rows)[number]>();
    for (const r of rows) latest.set(r.chartId, r);
    await cat.ensureCharts(latest.keys());
    const out: EntryData[] = [];
    for (const r of latest.values()) {
      const c = cat.chart(r.chartId);
      if (c && (ownView || !c.provisional)) out.push(entry(c, r.version, withCurrentBpi(cat, r)));
    }
    return this.listPage(arraySource(out), q);
  }

  /** BPI charts (with a current definition) available in the version that the player has not played there; filters and sort: ScoreListArgs. */
  async unplayedCharts(userId: string, q: ListArgs & { version?: string | null }) {
    const version = parseVersion(q.version);
    const played = new Set((await this.bests(userId, version)).map((r) => r.chartId));
    const out = [];
    for (const c of this.s.catalogue.charts()) {
      if (c.playStyle !== 'SP' || !c.definition || played.has(c.id) || !availableIn(c, version)) continue;
      out.push(chartFields(c));
    }
    return this.listPage(arraySource(out), q);
  }

  // ───────────── imports ─────────────

  /** Normalized rows (the importScores mutation): ≤ 10,000, lamps as wire strings or enum names. */
  importRows(args: { userId: string; version: string; rows: readonly ScoreRowData[] }): Promise<ImportReport> {
    if (args.rows.length > MAX_IMPORT_ROWS)
      throw badInput(`At most ${MAX_IMPORT_ROWS} rows per import`, [
        { code: 'too_big', path: ['rows'], message: `At most ${MAX_IMPORT_ROWS} rows` },
      ]);
    const problems: {
      line: number;
      title: string;
      difficulty: string;
      column: string;
      reason: string;
      severity: 'error';
    }[] = [];
    const rows: ImportRow[] = [];
    args.rows.forEach((r, i) => {
      const clearLamp = lampOf(r.clearState);
      if (!clearLamp)
        return void problems.push({
          line: i + 1,
          title: r.title,
          difficulty: r.difficulty,
          column: 'clearState',
          reason: `unknown clear state ${JSON.stringify(r.clearState)}`,
          severity: 'error',
        });
      if (r.level != null && (!Number.isInteger(r.level) || r.level < 1 || r.level > 12)) {
        throw badInput(`rows[${i}].level must be between 1 and 12`, [
          { code: 'too_big', path: ['rows', i, 'level'], message: 'level must be between 1 and 12' },
        ]);
      }
      rows.push({
        line: i + 1,
        title: r.title,
        playStyle: r.playStyle ?? PlayStyle.SP,
        difficulty: r.difficulty,
        level: r.level ?? null,
        exScore: r.exScore,
        clearLamp: clearLamp === 'NO_PLAY' ? null : clearLamp,
        missCount: r.missCount ?? null,
        lastPlayed: r.lastPlayed ?? null,
      });
    });
    return importScores(this.s, {
      userId: args.userId,
      version: args.version,
      source: 'ROWS',
      format: 'rows',
      rows,
      parseIssues: problems,
      corrections: loadTitleCorrections(this.s.config.titleCorrectionsFile),
    });
  }

  /** An export file (official CSV, Reflux TSV, daken counter, result techo; detected) as one batch (the use case `cli scores import` shares). */
  importExport(args: {
    userId: string;
    version: string;
    csv: string;
    playStyle?: PlayStyle | null;
  }): Promise<ImportReport> {
    return importScoreExport(this.s, args, { corrections: loadTitleCorrections(this.s.config.titleCorrectionsFile) });
  }

  /** The older app's export (replaces the previous migration; idempotent). */
  migrateLegacy(userId: string, data: string) {
    return migrateLegacyScores(this.s, userId, data, this.s.config.migrationMaxBytes);
  }
}
