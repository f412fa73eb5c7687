import type { Db } from '../../db/client';
import { Prisma, type Chart } from '../../generated/prisma/client';
import { badInput, notFound } from '../../errors';
import { offsetFromCursor, offsetPage, pageSize, type Page } from '../../graphql/connection';
import { BPI_DIFFICULTIES, BPI_LEVELS, Difficulty, LATEST_VERSION, PlayStyle, isGameVersion, type GameVersion } from '../../domain/constants';
import { attributeDistance, chartInVersion, toAttributeVector, type AttributeVector } from '../../domain/similarity';
import type { CatalogueChart } from './songs.catalogue';
import { ChartPopularityOrder } from './rankings.types';

export const SIMILAR_LIMIT_MAX = 50;
export const SIMILAR_LIMIT_DEFAULT = 10;

export function parseVersion(version: string | null | undefined): GameVersion {
  if (version == null || version === '') return LATEST_VERSION;
  if (!isGameVersion(version)) throw badInput(`Unknown game version: ${version}`, [{ code: 'invalid_enum_value', path: ['version'], message: 'Unknown game version' }]);
  return version;
}

/** One ranking row (the BPI of its EX score comes from the catalogue: currentBpi). */
export interface RankingRow {
  userId: string;
  exScore: number;
  rank: number;
}

export interface AttributeImportEntry {
  title: string;
  difficulty: string;
  playStyle?: string | null;
  attributes: unknown;
}

export interface AttributeImportReport {
  updated: number;
  unchanged: number;
  problems: { index: number; title: string | null; reason: string }[];
}

const DIFFICULTY_ORDER = Object.values(Difficulty) as string[];

/** How long per-chart player counts are reused (per process) before they are counted again. */
export const POPULARITY_TTL_MS = 60_000;
const popularityCache = new WeakMap<object, Map<string, { at: number; counts: Promise<{ chartId: number; playerCount: number }[]> }>>();

/** Per-chart rankings, similar charts, chart popularity and the profile song list. */
export class RankingsService {
  constructor(private readonly db: Db) {}

  /**
   * Players' best EX scores on one level 11/12 chart in one version, best first. Ranks are
   * competition ranks (ties share: 1, 2, 2, 4); tie order within a rank is by user id (stable pages).
   */
  async ranking(chartId: number, versionArg: string | null | undefined, first: number | null | undefined, after: string | null | undefined, selfUserId: string | null) {
    const version = parseVersion(versionArg);
    const size = pageSize(first);
    const offset = offsetFromCursor(after);
    const chart = await this.db.chart.findUnique({ where: { id: chartId }, select: { level: true } });
    if (!chart) throw notFound('Chart not found');
    if (!(BPI_LEVELS as readonly number[]).includes(chart.level)) {
      throw badInput('Rankings exist for level 11 and 12 charts only', [{ code: 'invalid_chart', path: ['chartId'], message: 'Rankings exist for level 11 and 12 charts only' }]);
    }
    const [rows, totalCount, selfRank] = await Promise.all([
      this.db.$queryRaw<RankingRow[]>`
        SELECT "userId", "exScore", (RANK() OVER (ORDER BY "exScore" DESC))::int AS "rank"
        FROM "BestScore" WHERE "chartId" = ${chartId} AND "version" = ${version}
        ORDER BY "exScore" DESC, "userId" ASC OFFSET ${offset} LIMIT ${size + 1}`,
      this.db.bestScore.count({ where: { chartId, version } }),
      selfUserId ? this.rankOf(chartId, version, selfUserId) : Promise.resolve(null),
    ]);
    return { version, selfRank, page: offsetPage(rows.map((r) => ({ ...r, rank: Number(r.rank) })), offset, size, totalCount) };
  }

  private async rankOf(chartId: number, version: string, userId: string): Promise<number | null> {
    const own = await this.db.bestScore.findUnique({ where: { userId_version_chartId: { userId, version, chartId } }, select: { exScore: true } });
    if (!own) return null;
    return 1 + (await this.db.bestScore.count({ where: { chartId, version, exScore: { gt: own.exScore } } }));
  }

  /**
   * Charts nearest to one chart by Euclidean distance over the attribute names both have.
   * Candidates: charts with attributes that exist in the version, the chart itself excluded.
   */
  async similar(chartId: number, versionArg: string | null | undefined, limitArg: number | null | undefined): Promise<{ chart: Chart; distance: number }[]> {
    const version = parseVersion(versionArg);
    const limit = limitArg ?? SIMILAR_LIMIT_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > SIMILAR_LIMIT_MAX) {
      throw badInput(`limit must be between 1 and ${SIMILAR_LIMIT_MAX}`, [{ code: 'too_big', path: ['limit'], message: `limit must be between 1 and ${SIMILAR_LIMIT_MAX}` }]);
    }
    const target = await this.db.chart.findUnique({ where: { id: chartId } });
    if (!target) throw notFound('Chart not found');
    const vector = toAttributeVector(target.attributes);
    if (!vector) return [];
    const candidates = await this.db.chart.findMany({ where: { id: { not: chartId }, NOT: { attributes: { equals: Prisma.DbNull } } } });
    const scored: { chart: Chart; distance: number }[] = [];
    for (const c of candidates) {
      if (!chartInVersion(c, version)) continue;
      const v = toAttributeVector(c.attributes);
      const distance = v ? attributeDistance(vector, v) : null;
      if (distance !== null) scored.push({ chart: c, distance });
    }
    scored.sort((a, b) => a.distance - b.distance || a.chart.id - b.chart.id);
    return scored.slice(0, limit);
  }

  /** Charts by number of players (best-score rows) in a version; charts nobody played are absent. */
  async popular(order: ChartPopularityOrder, versionArg: string | null | undefined, level: number | null | undefined, first: number | null | undefined, after: string | null | undefined): Promise<Page<{ chartId: number; playerCount: number }>> {
    const version = parseVersion(versionArg);
    const size = pageSize(first);
    const offset = offsetFromCursor(after);
    if (level != null && (!Number.isInteger(level) || level < 1 || level > 12)) throw badInput('level must be between 1 and 12');
    const levelFilter = level != null ? Prisma.sql`AND c."level" = ${level}` : Prisma.empty;
    // Counting players per chart scans every best of the version (millions of rows at scale), so
    // the counts are computed at most once per POPULARITY_TTL_MS per process and sorted in memory.
    const key = `${version}|${level ?? ''}`;
    let cache = popularityCache.get(this.db);
    if (!cache) popularityCache.set(this.db, (cache = new Map()));
    let entry = cache.get(key);
    if (!entry || Date.now() - entry.at > POPULARITY_TTL_MS) {
      const counts = this.db.$queryRaw<{ chartId: number; playerCount: number }[]>`
        SELECT b."chartId", COUNT(*)::int AS "playerCount"
        FROM "BestScore" b JOIN "Chart" c ON c."id" = b."chartId"
        WHERE b."version" = ${version} ${levelFilter}
        GROUP BY b."chartId"`.then((rows) => rows.map((r) => ({ chartId: Number(r.chartId), playerCount: Number(r.playerCount) })));
      entry = { at: Date.now(), counts };
      cache.set(key, entry);
      counts.catch(() => cache!.delete(key));
    }
    const counts = await entry.counts;
    const sign = order === ChartPopularityOrder.FEWEST ? 1 : -1;
    const sorted = [...counts].sort((a, b) => sign * (a.playerCount - b.playerCount) || a.chartId - b.chartId);
    return offsetPage(sorted.slice(offset, offset + size + 1), offset, size, sorted.length);
  }

  /**
   * The BPI song master list (level 11/12 HYPER/ANOTHER/LEGGENDARIA charts existing in the
   * version), ordered by title, play style, difficulty; from the in-memory catalogue.
   */
  masterList(catalogue: Iterable<CatalogueChart>, versionArg: string | null | undefined, first: number | null | undefined, after: string | null | undefined): { version: GameVersion; page: Page<CatalogueChart> } {
    const version = parseVersion(versionArg);
    const size = pageSize(first);
    const offset = offsetFromCursor(after);
    const charts = [...catalogue].filter(
      (c) => (BPI_LEVELS as readonly number[]).includes(c.level) && (BPI_DIFFICULTIES as readonly string[]).includes(c.difficulty) && chartInVersion(c, version),
    );
    const ps = (p: string) => (p === PlayStyle.SP ? 0 : 1);
    charts.sort(
      (a, b) =>
        (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) ||
        ps(a.playStyle) - ps(b.playStyle) ||
        DIFFICULTY_ORDER.indexOf(a.difficulty) - DIFFICULTY_ORDER.indexOf(b.difficulty) ||
        a.id - b.id,
    );
    return { version, page: offsetPage(charts.slice(offset, offset + size + 1), offset, size, charts.length) };
  }

  /**
   * Imports attribute vectors ({title, difficulty, playStyle?, attributes: {name: number}}),
   * matched by title + play style (default SP) + difficulty. One transaction; entries that do
   * not match or are malformed are reported, not fatal. Importing the same data twice changes nothing.
   */
  async importAttributes(entries: AttributeImportEntry[]): Promise<AttributeImportReport> {
    const charts = await this.db.chart.findMany({ select: { id: true, playStyle: true, difficulty: true, attributes: true, song: { select: { title: true } } } });
    const byKey = new Map(charts.map((c) => [`${c.song.title}\u0000${c.playStyle}\u0000${c.difficulty}`, c]));
    const report: AttributeImportReport = { updated: 0, unchanged: 0, problems: [] };
    const updates = new Map<number, AttributeVector>();
    entries.forEach((e, index) => {
      const title = typeof e?.title === 'string' ? e.title : null;
      const problem = (reason: string) => report.problems.push({ index, title, reason });
      if (!title) return problem('title is required');
      const difficulty = typeof e.difficulty === 'string' ? e.difficulty.toUpperCase() : '';
      if (!DIFFICULTY_ORDER.includes(difficulty)) return problem(`unknown difficulty: ${String(e.difficulty)}`);
      const playStyle = e.playStyle == null ? PlayStyle.SP : String(e.playStyle).toUpperCase();
      if (playStyle !== PlayStyle.SP && playStyle !== PlayStyle.DP) return problem(`unknown playStyle: ${String(e.playStyle)}`);
      const raw = e.attributes;
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return problem('attributes must be an object of numbers');
      const bad = Object.entries(raw as Record<string, unknown>).find(([, v]) => typeof v !== 'number' || !Number.isFinite(v));
      if (bad) return problem(`attribute ${bad[0]} is not a finite number`);
      const vector = toAttributeVector(raw);
      if (!vector) return problem('attributes is empty');
      const chart = byKey.get(`${title}\u0000${playStyle}\u0000${difficulty}`);
      if (!chart) return problem('no such chart');
      if (updates.has(chart.id)) return problem('duplicate entry for this chart');
      updates.set(chart.id, vector);
    });
    const current = new Map(charts.map((c) => [c.id, c.attributes]));
    const changed = [...updates].filter(([id, v]) => JSON.stringify(sortKeys(toAttributeVector(current.get(id)))) !== JSON.stringify(sortKeys(v)));
    report.unchanged = updates.size - changed.length;
    report.updated = changed.length;
    if (changed.length) {
      await this.db.$transaction(async (tx) => {
        for (const [id, v] of changed) await tx.chart.update({ where: { id }, data: { attributes: sortKeys(v) as Prisma.InputJsonValue } });
      });
    }
    return report;
  }
}

function sortKeys(v: AttributeVector | null): AttributeVector | null {
  if (!v) return null;
  return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

