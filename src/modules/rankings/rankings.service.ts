import type { Db } from '../../db/client';
import { Prisma, type BestScore, type Chart } from '../../generated/prisma/client';
import { badInput, notFound } from '../../errors';
import { keyset, parseIntId, parseVersion, type KeysetArgs } from '../../graphql/args';
import { CURSOR_KEY_PURPOSE, keyCursor, keysetConnection, keysetSlice, type Page } from '../../graphql/connection';
import { visibleUser } from '../../graphql/rules';
import { pageCompetitionRanks } from '../../domain/stats/common';
import { BPI_DIFFICULTIES, BPI_LEVELS, Difficulty, PlayStyle, type GameVersion } from '../../domain/constants';
import {
  chartInVersion,
  hasModeAttributes,
  modeDistance,
  toAttributeVector,
  type SimilarityMode,
} from '../../domain/similarity';
import type { AreaScope } from '../area';
import type { CatalogueChart } from '../catalogue/catalogue';
import type { CatalogueService } from '../catalogue/catalogue.service';
import { withCurrentBpi } from '../scores/plays';
import type { ScoresService } from '../scores/scores.service';
import { importChartAttributes, type AttributeImportEntry, type AttributeImportReport } from './rankings.attributes';
import { ChartPopularityOrder } from './rankings.types';

export const SIMILAR_LIMIT_MAX = 50;
export const SIMILAR_LIMIT_DEFAULT = 10;

/** One ranking row (the BPI of its EX score comes from the catalogue: currentBpi). */
export interface RankingRow {
  userId: string;
  exScore: number;
  rank: number;
}

const DIFFICULTY_ORDER = Object.values(Difficulty) as string[];

/**
 * How long per-chart player counts are reused (per process) before they are counted again; an
 * account deletion or a catalogue change drops them in every process (src/cluster/caches.ts).
 */
export const POPULARITY_TTL_MS = 60_000;
/** Per app (keyed by its catalogue, a per-app singleton): counts by version and level. */
const popularityCache = new WeakMap<
  object,
  Map<string, { at: number; counts: Promise<{ chartId: number; playerCount: number }[]> }>
>();

/** The popularity counts' name among the cluster's caches. */
export const POPULARITY_CACHE = 'rankings.popularity';

/** Drops an app's popularity counts (its catalogue identifies the app). */
export function dropPopularityCounts(owner: object): void {
  popularityCache.delete(owner);
}

type PageArgs = KeysetArgs;

/** Cursor kinds of a song ranking: [exScore, sealed user id] (an anonymous row's cursor must not name its player). */
const SONG_RANKING_KEY = ['int', 'sealed'] as const;
/** Cursor kinds of popular charts: [playerCount, chartId]. */
const POPULAR_KEY = ['int', 'int'] as const;
/** Cursor kinds of the song master list: [title, play style, difficulty, chartId]. */
const MASTER_KEY = ['str', 'int', 'int', 'int'] as const;

type Scope = Pick<AreaScope, 'ctx' | 'db' | 'catalogue' | 'auth'> & {
  services: { catalogue: CatalogueService; scores: ScoresService };
};

/**
 * Per-chart rankings, similar charts, chart popularity and the profile song list (the attribute
 * vectors' import: rankings.attributes.ts).
 */
export class RankingsService {
  constructor(private readonly scope: Scope) {}

  private get db(): Db {
    return this.scope.db;
  }

  /** Attribute vectors for similar songs (administrators; also `cli charts import-attributes`). */
  importAttributes(entries: AttributeImportEntry[]): Promise<AttributeImportReport> {
    return importChartAttributes(this.db, entries);
  }

  /**
   * A chart's ranking with players the caller may not see anonymised (visibleUser, batched);
   * isSelf / selfRank refer to `selfUserId` (the caller, or the profile user).
   */
  async rankingPage(chartIdArg: string, args: PageArgs & { version?: string | null }, selfUserId: string | null) {
    const chartId = parseIntId(chartIdArg, 'chartId');
    const { version, selfRank, page } = await this.ranking(chartId, args.version, args, selfUserId);
    const edges = await Promise.all(
      page.edges.map(async ({ cursor, node }) => {
        const player = await visibleUser(this.scope.ctx, node.userId);
        return {
          cursor,
          node: {
            rank: node.rank,
            player,
            anonymous: !player,
            chartId,
            exScore: node.exScore,
            bpi: this.scope.catalogue.currentBpi(chartId, node.exScore),
            isSelf: node.userId === selfUserId,
          },
        };
      }),
    );
    return { ...page, edges, version, selfRank };
  }

  /** Similar charts, with `userId`'s best on each when given (profile variant). */
  async similarCharts(
    args: { chartId: string; version?: string | null; limit?: number | null; mode?: SimilarityMode | null },
    userId: string | null,
  ) {
    const version = parseVersion(args.version);
    const rows = await this.similar(parseIntId(args.chartId, 'chartId'), version, args.limit, args.mode ?? 'SHARED');
    const scores = userId
      ? await Promise.all(rows.map((r) => this.scope.services.scores.bestOn(userId, version, r.chart.id)))
      : [];
    return rows.map((r, i) => ({
      chart: r.chart,
      distance: r.distance,
      score: userId ? this.toScore(scores[i]) : null,
    }));
  }

  /** A best as a PlayerChartScore: its BPI under the chart's current definition. */
  private toScore(s: BestScore | null | undefined) {
    return s ? withCurrentBpi(this.scope.catalogue, s) : null;
  }

  private async chartRows(ids: number[]): Promise<Chart[]> {
    const catalogue = this.scope.services.catalogue;
    return Promise.all(
      ids.map(async (id) => {
        const c = await catalogue.chart(id);
        if (!c) throw new Error(`chart ${id} vanished`);
        return c;
      }),
    );
  }

  /** Charts by number of players, with their chart rows. */
  async popularCharts(
    args: PageArgs & { order?: ChartPopularityOrder | null; version?: string | null; level?: number | null },
  ) {
    const page = await this.popular(args.order ?? ChartPopularityOrder.MOST, args.version, args.level, args);
    const charts = await this.chartRows(page.edges.map((e) => e.node.chartId));
    return {
      ...page,
      edges: page.edges.map((e, i) => ({
        cursor: e.cursor,
        node: { chart: charts[i], playerCount: e.node.playerCount },
      })),
    };
  }

  /** The BPI song master list with `userId`'s best scores. */
  async userSongs(args: PageArgs & { userId: string; version?: string | null }) {
    const { version, page } = this.masterList(this.scope.catalogue.charts(), args.version, args);
    const ids = page.edges.map((e) => e.node.id);
    const [charts, scores] = await Promise.all([
      this.chartRows(ids),
      Promise.all(ids.map((id) => this.scope.services.scores.bestOn(args.userId, version, id))),
    ]);
    return {
      ...page,
      edges: page.edges.map((e, i) => ({
        cursor: e.cursor,
        node: { chart: charts[i], score: this.toScore(scores[i]) },
      })),
    };
  }

  /** A chart's attribute vector as name/value pairs (null: none imported). Roots narrower than a chart row are loaded. */
  async attributes(chart: Pick<Chart, 'id'> & Partial<Pick<Chart, 'attributes'>>) {
    const raw =
      chart.attributes !== undefined
        ? chart.attributes
        : (await this.scope.services.catalogue.chart(chart.id))?.attributes;
    const v = toAttributeVector(raw);
    return v ? Object.entries(v).map(([name, value]) => ({ name, value })) : null;
  }

  /**
   * Players' best EX scores on one chart (any level or difficulty) in one version, best first. Ranks are
   * competition ranks (ties share: 1, 2, 2, 4); tie order within a rank is by user id. Keyset pages
   * over (exScore DESC, userId ASC), forward or backward; a row's rank is 1 + the rows ahead of it
   * (counted for the page's first score, pageCompetitionRanks), so no page reads the rows before it.
   */
  async ranking(chartId: number, versionArg: string | null | undefined, args: PageArgs, selfUserId: string | null) {
    const version = parseVersion(versionArg);
    const tag = `songRanking:${chartId}:${version}`;
    const key = this.scope.auth.deriveKey(CURSOR_KEY_PURPOSE);
    const ks = keyset(args, tag, SONG_RANKING_KEY, { key });
    // Any chart of the one catalogue, every difficulty and level (docs/domain/stats.md#rankings).
    const chart = await this.db.chart.findUnique({
      where: { id: chartId },
      select: { level: true, provisional: true },
    });
    // a provisional chart (learned from an export) is in no ranking: docs/imports-provisional.md
    if (!chart || chart.provisional) throw notFound('Chart not found');
    const where = Prisma.sql`"chartId" = ${chartId} AND "version" = ${version}`;
    // the redundant bound on exScore makes the cursor an index condition (chartId, version, exScore):
    // a deep page reads its rows only, not every row ahead of it
    const [score, userId] = ks.key ?? [0, ''];
    const query = !ks.backward
      ? Prisma.sql`SELECT "userId", "exScore" FROM "BestScore" WHERE ${where}
          ${ks.key ? Prisma.sql`AND "exScore" <= ${score} AND ("exScore" < ${score} OR ("exScore" = ${score} AND "userId" > ${userId}))` : Prisma.empty}
          ORDER BY "exScore" DESC, "userId" ASC LIMIT ${ks.size + 1}`
      : Prisma.sql`SELECT "userId", "exScore" FROM "BestScore" WHERE ${where}
          ${ks.key ? Prisma.sql`AND "exScore" >= ${score} AND ("exScore" > ${score} OR ("exScore" = ${score} AND "userId" < ${userId}))` : Prisma.empty}
          ORDER BY "exScore" ASC, "userId" DESC LIMIT ${ks.size + 1}`;
    const [rows, selfRank] = await Promise.all([
      this.db.$queryRaw<{ userId: string; exScore: number }[]>(query),
      selfUserId ? this.rankOf(chartId, version, selfUserId) : Promise.resolve(null),
    ]);
    // the page in list order; then one count: the total, and the rows ahead of / tied with the page's
    // first score (rank = 1 + the rows ahead: pageCompetitionRanks)
    const page = keysetConnection(
      rows.map((r) => ({ userId: r.userId, exScore: Number(r.exScore) })),
      ks,
      (r) => keyCursor(tag, SONG_RANKING_KEY, [r.exScore, r.userId], key),
      0,
    );
    const top = page.edges[0]?.node.exScore ?? null;
    const [c] = await this.db.$queryRaw<{ total: number; ahead: number; tied: number }[]>`
      SELECT COUNT(*)::int AS "total", COUNT(*) FILTER (WHERE "exScore" > ${top}::int)::int AS "ahead", COUNT(*) FILTER (WHERE "exScore" = ${top}::int)::int AS "tied"
        FROM "BestScore" WHERE ${where}`;
    page.totalCount = Number(c.total);
    const ranks = pageCompetitionRanks(
      page.edges.map((e) => e.node.exScore),
      Number(c.ahead),
      Number(c.tied),
    );
    const edges = page.edges.map((e, i): { cursor: string; node: RankingRow } => ({
      cursor: e.cursor,
      node: { ...e.node, rank: ranks[i] },
    }));
    return { version, selfRank, page: { ...page, edges } };
  }

  private async rankOf(chartId: number, version: string, userId: string): Promise<number | null> {
    const own = await this.db.bestScore.findUnique({
      where: { userId_version_chartId: { userId, version, chartId } },
      select: { exScore: true },
    });
    if (!own) return null;
    return 1 + (await this.db.bestScore.count({ where: { chartId, version, exScore: { gt: own.exScore } } }));
  }

  /**
   * Charts nearest to one chart by Euclidean distance (src/domain/similarity.ts): SHARED over the
   * attribute names both have; PROFILE / GLOBAL over the reference's 11 p_* / 9 g_* attributes,
   * missing ones 0. Candidates: charts with attributes (of the mode's family) that exist in the
   * version, the chart itself excluded; a target without them has none.
   */
  async similar(
    chartId: number,
    versionArg: string | null | undefined,
    limitArg: number | null | undefined,
    mode: SimilarityMode = 'SHARED',
  ): Promise<{ chart: Chart; distance: number }[]> {
    const version = parseVersion(versionArg);
    const limit = limitArg ?? SIMILAR_LIMIT_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > SIMILAR_LIMIT_MAX) {
      throw badInput(`limit must be between 1 and ${SIMILAR_LIMIT_MAX}`, [
        { code: 'too_big', path: ['limit'], message: `limit must be between 1 and ${SIMILAR_LIMIT_MAX}` },
      ]);
    }
    const target = await this.db.chart.findUnique({ where: { id: chartId } });
    if (!target || target.provisional) throw notFound('Chart not found');
    const vector = toAttributeVector(target.attributes);
    if (!vector || !hasModeAttributes(vector, mode)) return [];
    const candidates = await this.db.chart.findMany({
      where: { id: { not: chartId }, provisional: false, NOT: { attributes: { equals: Prisma.DbNull } } },
    });
    const scored: { chart: Chart; distance: number }[] = [];
    for (const c of candidates) {
      if (!chartInVersion(c, version)) continue;
      const v = toAttributeVector(c.attributes);
      const distance = v && hasModeAttributes(v, mode) ? modeDistance(vector, v, mode) : null;
      if (distance !== null) scored.push({ chart: c, distance });
    }
    scored.sort((a, b) => a.distance - b.distance || a.chart.id - b.chart.id);
    return scored.slice(0, limit);
  }

  /** Charts by number of players (best-score rows) in a version; charts nobody played are absent. */
  async popular(
    order: ChartPopularityOrder,
    versionArg: string | null | undefined,
    level: number | null | undefined,
    args: PageArgs,
  ): Promise<Page<{ chartId: number; playerCount: number }>> {
    const version = parseVersion(versionArg);
    const tag = `popularCharts:${order}:${version}:${level ?? ''}`;
    const ks = keyset(args, tag, POPULAR_KEY);
    if (level != null && (!Number.isInteger(level) || level < 1 || level > 12))
      throw badInput('level must be between 1 and 12');
    const levelFilter = level != null ? Prisma.sql`AND c."level" = ${level}` : Prisma.empty;
    // Counting players per chart scans every best of the version (millions of rows at scale), so
    // the counts are computed at most once per POPULARITY_TTL_MS per process and sorted in memory.
    const key = `${version}|${level ?? ''}`;
    let cache = popularityCache.get(this.scope.catalogue);
    if (!cache) popularityCache.set(this.scope.catalogue, (cache = new Map()));
    let entry = cache.get(key);
    if (!entry || Date.now() - entry.at > POPULARITY_TTL_MS) {
      const counts = this.db.$queryRaw<{ chartId: number; playerCount: number }[]>`
        SELECT b."chartId", COUNT(*)::int AS "playerCount"
        FROM "BestScore" b JOIN "Chart" c ON c."id" = b."chartId"
        WHERE b."version" = ${version} AND NOT c."provisional" ${levelFilter}
        GROUP BY b."chartId"`.then((rows) =>
        rows.map((r) => ({ chartId: Number(r.chartId), playerCount: Number(r.playerCount) })),
      );
      entry = { at: Date.now(), counts };
      cache.set(key, entry);
      counts.catch(() => cache.delete(key));
    }
    const counts = await entry.counts;
    const sign = order === ChartPopularityOrder.FEWEST ? 1 : -1;
    const cmp = (a: { playerCount: number; chartId: number }, b: { playerCount: number; chartId: number }) =>
      sign * (a.playerCount - b.playerCount) || a.chartId - b.chartId;
    const sorted = [...counts].sort(cmp);
    const rows = keysetSlice(sorted, ks, (r, [playerCount, chartId]) => cmp(r, { playerCount, chartId }));
    return keysetConnection(rows, ks, (r) => keyCursor(tag, POPULAR_KEY, [r.playerCount, r.chartId]), sorted.length);
  }

  /**
   * The BPI song master list (level 11/12 HYPER/ANOTHER/LEGGENDARIA charts existing in the
   * version), ordered by title, play style, difficulty; from the in-memory catalogue.
   */
  masterList(
    catalogue: Iterable<CatalogueChart>,
    versionArg: string | null | undefined,
    args: PageArgs,
  ): { version: GameVersion; page: Page<CatalogueChart> } {
    const version = parseVersion(versionArg);
    const tag = `userSongs:${version}`;
    const ks = keyset(args, tag, MASTER_KEY);
    const charts = [...catalogue].filter(
      (c) =>
        (BPI_LEVELS as readonly number[]).includes(c.level) &&
        (BPI_DIFFICULTIES as readonly string[]).includes(c.difficulty) &&
        chartInVersion(c, version),
    );
    const ps = (p: string) => (p === PlayStyle.SP ? 0 : 1);
    type Key = [string, number, number, number];
    const keyOf = (c: CatalogueChart): Key => [c.title, ps(c.playStyle), DIFFICULTY_ORDER.indexOf(c.difficulty), c.id];
    const cmp = (a: Key, b: Key) =>
      (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) || a[1] - b[1] || a[2] - b[2] || a[3] - b[3];
    charts.sort((a, b) => cmp(keyOf(a), keyOf(b)));
    const rows = keysetSlice(charts, ks, (c, k) => cmp(keyOf(c), [...k]));
    return { version, page: keysetConnection(rows, ks, (c) => keyCursor(tag, MASTER_KEY, keyOf(c)), charts.length) };
  }
}
