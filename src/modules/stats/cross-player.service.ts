/**
 * Stats across players: the global total-BPI ranking, the tower ranking and its registration, the
 * radar-category ranking and the site summary. Players the caller may not see are anonymous rows.
 */
import { Prisma, type User } from '../../generated/prisma/client';
import { visibleUser as visibleUserSql } from '../../db/visibility';
import { ARENA_ORDER, LATEST_VERSION, type ArenaClass, type RadarCategory } from '../../domain/constants';
import { badInput } from '../../errors';
import { pageCompetitionRanks } from '../../domain/stats/common';
import { parseVersion } from '../../graphql/args';
import { visibleUser } from '../../graphql/rules';
import { type RadarValues } from '../../domain/radar';
import {
  jstDate,
  orThrow,
  parseCategory,
  parseDate,
  parseStatsQuery,
  parseTowerRegistration,
  radarCategoryRanking,
  siteSummary,
  towerHistory,
  towerPeriod,
  towerRanking,
  type GroupBy,
  type HourBucket,
  type RadarCacheRow,
} from '../../domain/stats';
import { keyset, type KeysetArgs } from '../../graphql/args';
import { CURSOR_KEY_PURPOSE, keyCursor, keysetConnection, keysetSlice, type Page } from '../../graphql/connection';
import type { RankingIdentity } from '../../domain/stats/ranking';
import type { AreaScope } from '../area';
import type { ScoresService } from '../scores/scores.service';
import { liveRadar } from './radar-cache';

export interface GlobalRankingQuery extends KeysetArgs {
  version?: string | null;
  area?: string | null;
  arenaClass?: ArenaClass | null;
}

/** Cursor kinds of the global ranking: [totalBpi, sealed user id] (an anonymous row's cursor must not name its player). */
const GLOBAL_RANKING_KEY = ['num', 'sealed'] as const;

export interface GlobalRankingRow {
  userId: string;
  totalBpi: number;
  rank: number;
}

/** Cursor kinds of the tower and radar rankings: [value, sealed user id] (an anonymous row's cursor must not name its player). */
const CROSS_RANKING_KEY = ['num', 'sealed'] as const;

/** Longest area name a ranking filters on. */
const AREA_MAX_LENGTH = 40;

type Scope = Pick<AreaScope, 'auth' | 'ctx' | 'db' | 'catalogue' | 'loaders' | 'viewer'> & {
  services: { scores: ScoresService };
};

/** Rankings and summaries over every player (`ctx.services.stats.crossPlayer`). */
export class CrossPlayerService {
  constructor(private readonly s: Scope) {}

  /**
   * Players with a total in the version, highest first (ties by user id, for stable pages), with
   * competition ranks over the filtered population. Unlike the reference (whole population in one
   * answer, ranks without ties) this pages with first/after. Players the caller may not see are
   * anonymous (player null); so is a player who hides the area or arena class the ranking is
   * filtered on (it would be revealed next to the name).
   */
  async globalRanking(q: GlobalRankingQuery) {
    const selfId = this.s.viewer?.id ?? null;
    const { version, area, arenaClass, selfRank, page } = await this.ranking(q, selfId);
    const edges = await Promise.all(
      page.edges.map(async ({ cursor, node }) => {
        const isSelf = node.userId === selfId;
        let player = await visibleUser(this.s.ctx, node.userId);
        if (
          player &&
          !isSelf &&
          ((area !== null && !player.showArea) || (arenaClass !== null && !player.showArenaClass))
        )
          player = null;
        return { cursor, node: { rank: node.rank, player, anonymous: !player, totalBpi: node.totalBpi, isSelf } };
      }),
    );
    return { ...page, edges, version, selfRank };
  }

  private async ranking(q: GlobalRankingQuery, selfUserId: string | null) {
    const version = parseVersion(q.version);
    const area = q.area == null ? null : q.area.trim();
    if (area !== null && (area.length === 0 || area.length > AREA_MAX_LENGTH)) {
      const message = `area must be 1–${AREA_MAX_LENGTH} characters`;
      throw badInput(message, [{ code: 'invalid_string', path: ['area'], message }]);
    }
    const tag = `globalRanking:${version}:${area ?? ''}:${q.arenaClass ?? ''}`;
    const key = this.s.auth.deriveKey(CURSOR_KEY_PURPOSE);
    const ks = keyset(q, tag, GLOBAL_RANKING_KEY, { key });
    const filter = (alias: string) => {
      const t = Prisma.raw(alias);
      const parts = [Prisma.sql`${t}."version" = ${version}`];
      // A player who hides their area / arena class is not in a ranking filtered on it at all:
      // shown anonymously, their total would still match their named row of the unfiltered ranking.
      if (area !== null)
        parts.push(
          Prisma.sql`${t}."area" = ${area} AND EXISTS (SELECT 1 FROM "User" hu WHERE hu."id" = ${t}."userId" AND hu."showArea")`,
        );
      if (q.arenaClass) {
        parts.push(
          Prisma.sql`${t}."arenaClass"::text = ${q.arenaClass} AND EXISTS (SELECT 1 FROM "User" hc WHERE hc."id" = ${t}."userId" AND hc."showArenaClass")`,
        );
      }
      return Prisma.join(parts, ' AND ');
    };
    // keyset over (totalBpi DESC, userId ASC), forward or backward (last / before); the redundant
    // bound on totalBpi makes the cursor an index condition (version, totalBpi)
    const [bpi, uid] = ks.key ?? [0, ''];
    const query = !ks.backward
      ? Prisma.sql`SELECT s."userId", s."totalBpi" FROM "PlayerVersionStatus" s WHERE ${filter('s')}
          ${ks.key ? Prisma.sql`AND s."totalBpi" <= ${bpi}::float8 AND (s."totalBpi" < ${bpi}::float8 OR (s."totalBpi" = ${bpi}::float8 AND s."userId" > ${uid}))` : Prisma.empty}
          ORDER BY s."totalBpi" DESC, s."userId" ASC LIMIT ${ks.size + 1}`
      : Prisma.sql`SELECT s."userId", s."totalBpi" FROM "PlayerVersionStatus" s WHERE ${filter('s')}
          ${ks.key ? Prisma.sql`AND s."totalBpi" >= ${bpi}::float8 AND (s."totalBpi" > ${bpi}::float8 OR (s."totalBpi" = ${bpi}::float8 AND s."userId" < ${uid}))` : Prisma.empty}
          ORDER BY s."totalBpi" ASC, s."userId" DESC LIMIT ${ks.size + 1}`;
    const [rows, self] = await Promise.all([
      this.s.db.$queryRaw<{ userId: string; totalBpi: number }[]>(query),
      selfUserId
        ? this.s.db.$queryRaw<{ rank: number }[]>`
            SELECT (1 + (SELECT COUNT(*) FROM "PlayerVersionStatus" s WHERE ${filter('s')} AND s."totalBpi" > me."totalBpi"))::int AS "rank"
              FROM "PlayerVersionStatus" me WHERE me."userId" = ${selfUserId} AND ${filter('me')}`
        : Promise.resolve([]),
    ]);
    // the page in list order; then one count: the total, and the rows ahead of / tied with the page's
    // first total (rank = 1 + the rows ahead: pageCompetitionRanks)
    const keyed = keysetConnection(
      rows.map((r) => ({ userId: r.userId, totalBpi: Number(r.totalBpi) })),
      ks,
      (r) => keyCursor(tag, GLOBAL_RANKING_KEY, [r.totalBpi, r.userId], key),
      0,
    );
    const top = keyed.edges[0]?.node.totalBpi ?? null;
    // ahead / tied: index range counts of (version, totalBpi); the unfiltered population's size is
    // kept per version by triggers (VersionPlayerCount), a ranking filtered on area / class counts its
    // (smaller) population
    const total =
      area === null && !q.arenaClass
        ? Prisma.sql`COALESCE((SELECT c."players" FROM "VersionPlayerCount" c WHERE c."version" = ${version}), 0)`
        : Prisma.sql`(SELECT COUNT(*) FROM "PlayerVersionStatus" s WHERE ${filter('s')})`;
    const [c] = await this.s.db.$queryRaw<{ total: number; ahead: number; tied: number }[]>`
      SELECT ${total}::int AS "total",
             (SELECT COUNT(*) FROM "PlayerVersionStatus" s WHERE ${filter('s')} AND s."totalBpi" > ${top}::float8)::int AS "ahead",
             (SELECT COUNT(*) FROM "PlayerVersionStatus" s WHERE ${filter('s')} AND s."totalBpi" = ${top}::float8)::int AS "tied"`;
    keyed.totalCount = Number(c.total);
    const ranks = pageCompetitionRanks(
      keyed.edges.map((e) => e.node.totalBpi),
      Number(c.ahead),
      Number(c.tied),
    );
    const page = {
      ...keyed,
      edges: keyed.edges.map((e, i): { cursor: string; node: GlobalRankingRow } => ({
        cursor: e.cursor,
        node: { ...e.node, rank: ranks[i] },
      })),
    };
    return { version, area, arenaClass: q.arenaClass ?? null, selfRank: self[0] ? Number(self[0].rank) : null, page };
  }

  /** SQL: may the viewer see the player of "User" u (the one visibility rule; an administrator sees all)? */
  private visibleSql(): Prisma.Sql {
    const viewer = this.s.viewer;
    return viewer?.isAdmin ? Prisma.sql`TRUE` : visibleUserSql(viewer?.id ?? null);
  }

  /** The tower days a player registers (self only: rule Mutation.registerTower), one statement in one transaction. */
  async registerTower(userId: string, input: { version?: string | null; rows?: unknown }) {
    const today = jstDate(new Date());
    const reg = orThrow(parseTowerRegistration(input, today));
    const values = reg.rows.map(
      (x) => Prisma.sql`(${userId}, ${reg.version}, ${x.playDate}::date, ${x.keyCount}, ${x.scratchCount}, now())`,
    );
    await this.s.db.$executeRaw`
      INSERT INTO "TowerEntry" ("userId", "version", "playDate", "keyCount", "scratchCount", "updatedAt") VALUES ${Prisma.join(values)}
      ON CONFLICT ("userId", "version", "playDate") DO UPDATE SET "keyCount" = EXCLUDED."keyCount", "scratchCount" = EXCLUDED."scratchCount", "updatedAt" = now()`;
    const rows = await this.s.db.towerEntry.findMany({ where: { userId, version: reg.version } });
    return { upsertedCount: reg.rows.length, history: towerHistory(rows) };
  }

  /**
   * A keyset page of a ranking computed in memory (value DESC, userId ASC — rankRows' order): the
   * selector rankRows calls, and the page built from the entries it ranked (cursor: value + sealed id).
   */
  private crossRankingPage(q: KeysetArgs, tag: string) {
    const key = this.s.auth.deriveKey(CURSOR_KEY_PURPOSE);
    const ks = keyset(q, tag, CROSS_RANKING_KEY, { key });
    let picked: readonly RankingIdentity[] = [];
    let valueOf: (r: RankingIdentity) => number = () => 0;
    const select = (sorted: readonly RankingIdentity[], value: (r: RankingIdentity) => number) => {
      valueOf = value;
      const cmpId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      picked = keysetSlice(sorted, ks, (r, [v, userId]) => v - value(r) || cmpId(r.userId, userId));
      return picked;
    };
    const page = <N>(nodes: N[], totalCount: number): Page<N> => {
      const keyed = nodes.map((node, i) => ({ node, value: valueOf(picked[i]), userId: picked[i].userId }));
      const p = keysetConnection(
        keyed,
        ks,
        (r) => keyCursor(tag, CROSS_RANKING_KEY, [r.value, r.userId], key),
        totalCount,
      );
      return { ...p, edges: p.edges.map((e) => ({ cursor: e.cursor, node: e.node.node })) };
    };
    return { select, page };
  }

  async towerRanking(q: KeysetArgs & { version?: string | null; period?: GroupBy | null; date?: string | null }) {
    const { version } = orThrow(parseStatsQuery({ version: q.version }));
    const date = orThrow(parseDate(q.date, 'date'));
    const period = towerPeriod(q.period ?? 'day', date, jstDate(new Date()));
    const paging = this.crossRankingPage(q, `towerRanking:${version}:${period.period}:${period.startDate}`);
    const rows = await this.s.db.$queryRaw<
      {
        userId: string;
        keyCount: number;
        scratchCount: number;
        name: string;
        profileImage: string | null;
        gameId: string | null;
        visible: boolean;
      }[]
    >`
      SELECT t."userId", SUM(t."keyCount")::int AS "keyCount", SUM(t."scratchCount")::int AS "scratchCount", u."name", u."profileImage", u."gameId",
             ${this.visibleSql()} AS "visible"
        FROM "TowerEntry" t JOIN "User" u ON u."id" = t."userId"
       WHERE t."version" = ${version} AND t."playDate" BETWEEN ${period.startDate}::date AND ${period.endDate}::date
       GROUP BY t."userId", u."id"`;
    const ranked = towerRanking(rows, period, this.s.viewer?.id ?? null, paging.select);
    const nodes = ranked.entries.map((e) => ({
      ...this.entry(e),
      keyCount: e.data.keyCount,
      scratchCount: e.data.scratchCount,
      radar: null,
    }));
    return {
      ...paging.page(nodes, ranked.totalCount),
      version,
      period: period.period,
      startDate: period.startDate,
      endDate: period.endDate,
      selfRank: ranked.selfRank,
    };
  }

  private entry(e: {
    rank: number;
    value: number;
    userId: string | null;
    name: string;
    isMasked: boolean;
    isSelf: boolean;
  }) {
    return {
      rank: e.rank,
      value: e.value,
      userId: e.userId,
      name: e.name,
      isMasked: e.isMasked,
      isSelf: e.isSelf,
      user: null as User | null,
    };
  }

  /** The caller's radar in a version: their RadarCache row, or computed from their bests. */
  async viewerRadar(version: string): Promise<RadarValues | null> {
    const viewer = this.s.viewer;
    if (!viewer) return null;
    return liveRadar(this.s.catalogue, version, await this.s.services.scores.bests(viewer.id, version));
  }

  async radarRanking(q: KeysetArgs & { version?: string | null; category?: string | null }) {
    const { version } = orThrow(parseStatsQuery({ version: q.version }));
    const category = orThrow(parseCategory(q.category, 'category')) as RadarCategory;
    const paging = this.crossRankingPage(q, `radarRanking:${version}:${category}`);
    const rows = await this.s.db.$queryRaw<(RadarCacheRow & { visible: boolean })[]>`
      SELECT c."userId", c."notes", c."chord", c."peak", c."charge", c."scratch", c."soflan", u."name", u."profileImage", u."gameId",
             ${this.visibleSql()} AS "visible"
        FROM "RadarCache" c JOIN "User" u ON u."id" = c."userId" WHERE c."version" = ${version}`;
    const [viewerRadar] = await Promise.all([this.viewerRadar(version)]);
    const ranked = radarCategoryRanking(rows, category, this.s.viewer?.id ?? null, paging.select, viewerRadar);
    const nodes = ranked.entries.map((e) => ({
      ...this.entry(e),
      keyCount: null,
      scratchCount: null,
      radar: e.isMasked ? null : e.data,
    }));
    return { ...paging.page(nodes, ranked.totalCount), version, category, selfRank: ranked.selfRank, viewerRadar };
  }

  async siteSummary() {
    const db = this.s.db;
    // createdAt is a UTC timestamp without time zone; JST = UTC + 9 h (no daylight saving)
    const hourly = (table: 'User' | 'ImportBatch' | 'Score') =>
      db.$queryRaw<HourBucket[]>(Prisma.sql`
        SELECT to_char("createdAt" + interval '9 hours', 'YYYY-MM-DD') AS "date",
               EXTRACT(hour FROM "createdAt" + interval '9 hours')::int AS "hour", COUNT(*)::int AS "count"
          FROM ${Prisma.raw(`"${table}"`)} GROUP BY 1, 2`);
    const [users, batches, plays, arenaClasses, areas, versions] = await Promise.all([
      hourly('User'),
      hourly('ImportBatch'),
      hourly('Score'),
      db.$queryRaw<{ arenaClass: (typeof ARENA_ORDER)[number]; count: number }[]>`
        SELECT "arenaClass"::text AS "arenaClass", COUNT(*)::int AS "count" FROM "PlayerVersionStatus"
         WHERE "version" = ${LATEST_VERSION} AND "arenaClass" IS NOT NULL GROUP BY 1`,
      db.$queryRaw<{ area: string; count: number }[]>`
        SELECT s."area", COUNT(*)::int AS "count" FROM "PlayerVersionStatus" s JOIN "User" u ON u."id" = s."userId"
         WHERE s."version" = ${LATEST_VERSION} AND s."area" IS NOT NULL AND u."showArea" GROUP BY 1`,
      db.$queryRaw<
        { version: string; count: number }[]
      >`SELECT "version", COUNT(*)::int AS "count" FROM "Score" GROUP BY 1`,
    ]);
    const s = siteSummary({ now: new Date(), users, batches, plays, arenaClasses, areas, versions });
    return {
      generatedAt: s.generatedAt,
      today: s.today,
      summary: s.summary,
      dailyRegistrations: s.dailyRegistrations,
      windows: (['all', 'd90', 'd30', 'd7'] as const).map((w) => ({
        window: w,
        hourly: s.hourly[w].map((h) => ({ key: h.hour, batches: h.batches, plays: h.plays })),
        weekday: s.weekday[w].map((h) => ({ key: h.weekday, batches: h.batches, plays: h.plays })),
      })),
      arenaClassDistribution: s.arenaClassDistribution.map((x) => ({ name: x.arenaClass, count: x.count })),
      areaDistribution: s.areaDistribution.map((x) => ({ name: x.area, count: x.count })),
      versionDistribution: s.versionDistribution.versions.map((x) => ({ name: x.version, count: x.count })),
    };
  }
}
