/**
 * Scores: a player's bests and plays (at a point in time, per chart, over versions), and the
 * import use cases (normalized rows, export files, the older app's data). Charts come from the
 * in-memory catalogue (current definitions); no GraphQL types here.
 */
import type { BestScore } from '../../generated/prisma/client';
import { BPI_FLOOR, round2 } from '../../domain/bpi';
import { PlayStyle, type Difficulty } from '../../domain/constants';
import { availableIn } from '../../domain/totals';
import { badInput } from '../../errors';
import { offsetArgs, parseVersion, requireVersion } from '../../graphql/args';
import { offsetPage, type Page } from '../../graphql/connection';
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
  matchesFilter,
  PLAY_SELECT,
  playData,
  replay,
  snapshot,
  withCurrentBpi,
  type ChartFilter,
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

const page = <T>(all: T[], args: PageArgs): Page<T> => {
  const { size, offset } = offsetArgs(args);
  return offsetPage(all.slice(offset, offset + size + 1), offset, size, all.length);
};

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
   * The player's bests in a version: now = BestScore, BPI under the current definitions; asOf =
   * replayed from the plays imported by then, with the BPI stored on the best play (its definition).
   */
  async bestScores(userId: string, q: PageArgs & { version?: string | null; asOf?: Date | null } & ChartFilter): Promise<Page<EntryData>> {
    const version = parseVersion(q.version);
    const cat = this.s.catalogue;
    let bests: Map<number, ReplayBest>;
    if (q.asOf) {
      bests = replay(await loadPlays(this.s.db, { userId, version, createdAt: { lte: q.asOf } }));
    } else {
      bests = new Map((await this.bests(userId, version)).map((r) => [r.chartId, withCurrentBpi(cat, r)]));
    }
    const out: EntryData[] = [];
    for (const [chartId, b] of bests) {
      const c = cat.chart(chartId);
      // the BPI score list: charts with a definition (learned charts are in allDifficultyScores)
      if (c && c.definition && matchesFilter(c, q)) out.push(entry(c, version, b));
    }
    return page(out.sort(byLevelTitle), q);
  }

  /** Per chart, the most recently played best over all versions (every difficulty). */
  async allDifficultyScores(userId: string, q: PageArgs & ChartFilter): Promise<Page<EntryData>> {
    const cat = this.s.catalogue;
    const rows = await this.s.db.bestScore.findMany({ where: { userId }, orderBy: { playedAt: 'asc' } });
    const latest = new Map<number, (typeof rows)[number]>();
    for (const r of rows) latest.set(r.chartId, r);
    const out: EntryData[] = [];
    for (const r of latest.values()) {
      const c = cat.chart(r.chartId);
      if (c && matchesFilter(c, q)) out.push(entry(c, r.version, withCurrentBpi(cat, r)));
    }
    return page(out.sort(byLevelTitle), q);
  }

  /** Every stored play of the charts (all versions), newest play first. */
  async chartHistory(userId: string, chartIds: number[]) {
    const plays = await this.s.db.score.findMany({ where: { userId, chartId: { in: chartIds } }, select: PLAY_SELECT, orderBy: [{ playedAt: 'desc' }, { id: 'desc' }] });
    return plays.map((p) => playData(this.s.catalogue, p));
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
  async versionComparison(userId: string, currentVersionArg: string, targetVersionArg: string) {
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
        exDiff: a ? a.exScore - (b?.exScore ?? 0) : 0,
        bpiDiff: a ? round2((a.bpi ?? BPI_FLOOR) - (b ? b.bpi ?? BPI_FLOOR : BPI_FLOOR)) : 0,
      });
    }
    return out.sort(byLevelTitle);
  }

  /** BPI charts (with a current definition) available in the version that the player has not played there. */
  async unplayedCharts(userId: string, q: PageArgs & { version?: string | null } & ChartFilter) {
    const version = parseVersion(q.version);
    const played = new Set((await this.bests(userId, version)).map((r) => r.chartId));
    const out = [];
    for (const c of this.s.catalogue.charts()) {
      if (c.playStyle !== 'SP' || !c.definition || played.has(c.id) || !availableIn(c, version) || !matchesFilter(c, q)) continue;
      out.push(chartFields(c));
    }
    return page(out.sort(byLevelTitle), q);
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
