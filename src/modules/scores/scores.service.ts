/**
 * Scores: a player's bests and plays (at a point in time, per chart, over versions), and the
 * import use cases (normalized rows, export files, the older app's data). Charts come from the
 * in-memory catalogue (current definitions); no GraphQL types here.
 */
import type { BestScore } from '../../generated/prisma/client';
import { BPI_FLOOR, round2 } from '../../domain/bpi';
import { PlayStyle, versionIndex, type Difficulty } from '../../domain/constants';
import { availableIn } from '../../domain/totals';
import { badInput } from '../../errors';
import { keyset, parseVersion, requireVersion, scoreListArgs } from '../../graphql/args';
import { keyCursor, keysetConnection, type Page } from '../../graphql/connection';

/** Cursor kinds of a score list (tagged with its sort and order): [sort value, chartId]. */
const SCORE_LIST_KEY = ['num', 'int'] as const;
import { matchesScoreFilter, pageAfter, positionOf, sortValue, type ListEntry, type ScoreListFilter, type ScoreSortKey, type SortOrder, type SortPosition } from '../../domain/score-list';
import type { AreaScope } from '../area';
import { loadTitleCorrections } from './corrections';
import { importScoreExport, importScores, MAX_IMPORT_ROWS, type ImportReport, type ImportRow } from './import.service';
import { migrateLegacyScores } from './migrate.service';
import {
  byLevelTitle,
  chartFields,
  entry,
  lampOf,
  loadPlays,
  PLAY_SELECT,
  playData,
  replay,
  snapshot,
  withCurrentBpi,
  type EntryData,
  type ReplayBest,
} from './plays';

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'events' | 'config' | 'loaders'>;

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

export class ScoresService {
  constructor(private readonly s: Scope) {}

  // ───────────── bests (loaders) ─────────────

  /** The player's current BestScore rows in a version (batched per request). */
  bests(userId: string, version: string): Promise<BestScore[]> {
    return this.s.loaders.scores.bests.load({ userId, version });
  }

  /** The player's current best on one chart in a version, or null (batched per request). */
  bestOn(userId: string, version: string, chartId: number): Promise<BestScore | null> {
    return this.s.loaders.scores.best.load({ userId, version, chartId });
  }

  // ───────────── reads ─────────────

  /**
   * One page of a score list: the entries filtered (the reference's filters) and taken in the
   * asked order after the cursor's position (keyset: sort value + chart id, see
   * src/domain/score-list.ts). A player's list is bounded by the catalogue and a best's BPI is
   * derived from the in-memory catalogue, so the order is evaluated here over the player's rows
   * (one indexed read) and only the page is kept (bounded selection, no offset).
   */
  private listPage<T extends ListEntry>(entries: readonly T[], args: ListArgs): Page<T> {
    const { filter, sort } = scoreListArgs(args);
    // a cursor belongs to one sort and order: another's is BAD_USER_INPUT naming `after`
    const tag = `scores:${sort.key}:${sort.order}`;
    const ks = keyset({ first: args.first, after: args.after }, tag, SCORE_LIST_KEY);
    const size = ks.size;
    const cat = this.s.catalogue;
    const rank = (id: number) => cat.titleRank(id);
    const searchLower = filter.search?.toLowerCase() ?? '';
    const rows = entries.filter((e) => matchesScoreFilter(e, filter, searchLower));
    let after: SortPosition | null = null;
    if (ks.key) {
      const [curValue, chartId] = ks.key;
      const c = cat.chart(chartId);
      if (!c) throw badInput('Invalid cursor: its chart no longer exists', [{ code: 'invalid_cursor', path: ['after'], message: 'Invalid cursor' }]);
      after = positionOf(c.id, curValue, c.level, c.title, searchLower, rank);
    }
    const value = (e: T) => sortValue(e, sort.key, rank);
    const page = pageAfter(rows, (e) => positionOf(e.chartId, value(e), e.level, e.title, searchLower, rank), sort.order, after, size + 1);
    return keysetConnection(page, ks, (e) => keyCursor(tag, SCORE_LIST_KEY, [value(e), e.chartId]), rows.length);
  }

  /**
   * The player's bests in a version on BPI charts (the reference's score list): now = BestScore,
   * BPI under the current definitions; asOf = replayed from the plays imported by then, with the
   * BPI stored on the best play (its definition). Filters and sort: ScoreListArgs.
   */
  async bestScores(userId: string, q: ListArgs & { version?: string | null; asOf?: Date | null }): Promise<Page<EntryData>> {
    const version = parseVersion(q.version);
    const cat = this.s.catalogue;
    let bests: Map<number, ReplayBest>;
    if (q.asOf) {
      bests = replay(await loadPlays(this.s.db, { userId, version, createdAt: { lte: q.asOf } }));
    } else {
      bests = await this.compactBests(userId, version);
    }
    await cat.ensureCharts(bests.keys());
    const out: EntryData[] = [];
    for (const [chartId, b] of bests) {
      const c = cat.chart(chartId);
      // the BPI score list: charts with a definition (learned charts are in allDifficultyScores)
      if (c && c.definition) out.push(entry(c, version, b));
    }
    return this.listPage(out, q);
  }

  /**
   * The player's bests in a version for a score list: one row of parallel arrays (array_agg over
   * the primary key range), so 5,000 bests cost one small result instead of 5,000 client rows;
   * each best with its current BPI (catalogue).
   */
  private async compactBests(userId: string, version: string): Promise<Map<number, ReplayBest>> {
    const [r] = await this.s.db.$queryRawUnsafe<
      { c: number[] | null; e: number[] | null; ei: number[] | null; l: (string | null)[] | null; li: (number | null)[] | null; m: (number | null)[] | null; mi: (number | null)[] | null; p: number[] | null }[]
    >(
      `SELECT array_agg("chartId") AS c, array_agg("exScore") AS e, array_agg("exScoreId") AS ei, array_agg("clearLamp"::text) AS l,
              array_agg("clearLampId") AS li, array_agg("missCount") AS m, array_agg("missCountId") AS mi,
              array_agg(round(extract(epoch from "playedAt") * 1000)::float8) AS p
         FROM "BestScore" WHERE "userId" = $1 AND "version" = $2`,
      userId,
      version,
    );
    const out = new Map<number, ReplayBest>();
    if (!r?.c) return out;
    const cat = this.s.catalogue;
    for (let i = 0; i < r.c.length; i++) {
      const chartId = Number(r.c[i]);
      const exScore = Number(r.e![i]);
      out.set(chartId, {
        exScore,
        exScoreId: Number(r.ei![i]),
        clearLamp: (r.l![i] as ReplayBest['clearLamp']) ?? null,
        clearLampId: r.li![i] === null ? null : Number(r.li![i]),
        missCount: r.m![i] === null ? null : Number(r.m![i]),
        missCountId: r.mi![i] === null ? null : Number(r.mi![i]),
        playedAt: new Date(Number(r.p![i])),
        bpi: cat.currentBpi(chartId, exScore),
      });
    }
    return out;
  }

  /** Per chart, the most recently played best over all versions (every difficulty and level, learned charts too). */
  async allDifficultyScores(userId: string, q: ListArgs): Promise<Page<EntryData>> {
    const cat = this.s.catalogue;
    const rows = await this.s.db.bestScore.findMany({ where: { userId }, orderBy: { playedAt: 'asc' } });
    const latest = new Map<number, (typeof rows)[number]>();
    for (const r of rows) latest.set(r.chartId, r);
    await cat.ensureCharts(latest.keys());
    const out: EntryData[] = [];
    for (const r of latest.values()) {
      const c = cat.chart(r.chartId);
      if (c) out.push(entry(c, r.version, withCurrentBpi(cat, r)));
    }
    return this.listPage(out, q);
  }

  /** Every stored play of the charts (all versions), newest play first. */
  async chartHistory(userId: string, chartIds: number[]) {
    const plays = await this.s.db.score.findMany({ where: { userId, chartId: { in: chartIds } }, select: PLAY_SELECT, orderBy: [{ playedAt: 'desc' }, { id: 'desc' }] });
    return plays.map((p) => playData(this.s.catalogue, p));
  }

  /**
   * Every stored play of one chart grouped by version, as the reference's history answers
   * (`{ [version]: plays }`): versions in game order (26 … 34, INF), plays newest first.
   */
  async chartHistoryByVersion(userId: string, chartId: number) {
    const plays = await this.chartHistory(userId, [chartId]);
    const groups = new Map<string, typeof plays>();
    for (const p of plays) {
      const list = groups.get(p.version);
      if (list) list.push(p);
      else groups.set(p.version, [p]);
    }
    return [...groups].sort((a, b) => versionIndex(a[0]) - versionIndex(b[0])).map(([version, list]) => ({ version, plays: list }));
  }

  /** Every stored play of all difficulties of one song. */
  songHistory(userId: string, songId: number) {
    return this.chartHistory(userId, [...this.s.catalogue.charts()].filter((c) => c.songId === songId).map((c) => c.id));
  }

  /** Per chart, the best EX over versions (optionally excluding the current one). */
  async bestEver(userId: string, currentVersionArg: string, excludeCurrent: boolean) {
    const currentVersion = requireVersion(currentVersionArg, 'currentVersion');
    const cat = this.s.catalogue;
    const rows = await this.s.db.bestScore.findMany({
      where: { userId, ...(excludeCurrent ? { version: { not: currentVersion } } : {}) },
      orderBy: [{ exScore: 'desc' }, { playedAt: 'desc' }],
    });
    const best = new Map<number, (typeof rows)[number]>();
    for (const r of rows) if (!best.has(r.chartId)) best.set(r.chartId, r);
    const out = [];
    for (const r of best.values()) {
      const c = cat.chart(r.chartId);
      if (c) out.push({ ...chartFields(c), bestExScore: r.exScore, bestBpi: cat.currentBpi(r.chartId, r.exScore), bestVersion: r.version });
    }
    return out.sort(byLevelTitle);
  }

  /** My bests in `currentVersion` against `targetVersion` (charts with at least one side). */
  async versionComparison(userId: string, currentVersionArg: string, targetVersionArg: string, opts: { summaryDiffs?: boolean } = {}) {
    const currentVersion = requireVersion(currentVersionArg, 'currentVersion');
    const targetVersion = requireVersion(targetVersionArg, 'targetVersion');
    if (currentVersion === targetVersion) {
      throw badInput('currentVersion and targetVersion must differ.', [{ code: 'custom', path: ['targetVersion'], message: 'currentVersion and targetVersion must differ.' }]);
    }
    const cat = this.s.catalogue;
    const rows = (await this.s.db.bestScore.findMany({ where: { userId, version: { in: [currentVersion, targetVersion] } } })).map((r) => withCurrentBpi(cat, r));
    const cur = new Map(rows.filter((r) => r.version === currentVersion).map((r) => [r.chartId, r]));
    const prev = new Map(rows.filter((r) => r.version === targetVersion).map((r) => [r.chartId, r]));
    const out = [];
    for (const chartId of new Set([...cur.keys(), ...prev.keys()])) {
      const c = cat.chart(chartId);
      if (!c || !c.definition) continue;
      if (currentVersion !== 'INF' && !availableIn(c, currentVersion) && !prev.has(chartId)) continue;
      const a = cur.get(chartId);
      const b = prev.get(chartId);
      out.push({
        ...chartFields(c),
        current: a ? snapshot(a) : null,
        previous: b ? snapshot(b) : null,
        // both sides: current − previous; one side missing: null (the reference omits them).
        // summaryDiffs (logs' versionSummary, §5.4): only current ⇒ EX = current, BPI = current + 15; no current ⇒ 0.
        exDiff: a && b ? a.exScore - b.exScore : opts.summaryDiffs ? (a ? a.exScore : 0) : null,
        bpiDiff: a && b ? round2((a.bpi ?? BPI_FLOOR) - (b.bpi ?? BPI_FLOOR)) : opts.summaryDiffs ? (a ? round2((a.bpi ?? BPI_FLOOR) - BPI_FLOOR) : 0) : null,
      });
    }
    return out.sort(byLevelTitle);
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
    return this.listPage(out, q);
  }

  // ───────────── imports ─────────────

  /** Normalized rows (the importScores mutation): ≤ 10,000, lamps as wire strings or enum names. */
  importRows(args: { userId: string; version: string; rows: readonly ScoreRowData[] }): Promise<ImportReport> {
    if (args.rows.length > MAX_IMPORT_ROWS) throw badInput(`At most ${MAX_IMPORT_ROWS} rows per import`, [{ code: 'too_big', path: ['rows'], message: `At most ${MAX_IMPORT_ROWS} rows` }]);
    const problems: { line: number; title: string; difficulty: string; column: string; reason: string; severity: 'error' }[] = [];
    const rows: ImportRow[] = [];
    args.rows.forEach((r, i) => {
      const clearLamp = lampOf(r.clearState);
      if (!clearLamp) return void problems.push({ line: i + 1, title: r.title, difficulty: r.difficulty, column: 'clearState', reason: `unknown clear state ${JSON.stringify(r.clearState)}`, severity: 'error' });
      if (r.level != null && (!Number.isInteger(r.level) || r.level < 1 || r.level > 12)) {
        throw badInput(`rows[${i}].level must be between 1 and 12`, [{ code: 'too_big', path: ['rows', i, 'level'], message: 'level must be between 1 and 12' }]);
      }
      rows.push({ line: i + 1, title: r.title, playStyle: r.playStyle ?? PlayStyle.SP, difficulty: r.difficulty, level: r.level ?? null, exScore: r.exScore, clearLamp: clearLamp === 'NO_PLAY' ? null : clearLamp, missCount: r.missCount ?? null, lastPlayed: r.lastPlayed ?? null });
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
  importExport(args: { userId: string; version: string; csv: string; playStyle?: PlayStyle | null }): Promise<ImportReport> {
    return importScoreExport(this.s, args, { corrections: loadTitleCorrections(this.s.config.titleCorrectionsFile) });
  }

  /** The older app's export (replaces the previous migration; idempotent). */
  migrateLegacy(userId: string, data: string) {
    return migrateLegacyScores(this.s, userId, data, this.s.config.migrationMaxBytes);
  }
}
