/**
 * Rivals, everyone the user follows (docs/domain/stats.md#rivals): the rival summary, the followed
 * players' stats and scores on a chart, near losses, BPI changes in a month.
 */
import { Prisma, type BestScore, type User } from '../../generated/prisma/client';
import { badInput, notFound } from '../../errors';
import { visibleFollowWhere, visibleThroughFollow, visibleUser } from '../../db/visibility';
import { round2, totalBpi } from '../../domain/bpi';
import { BPI_DIFFICULTIES, ClearLamp, PlayStyle } from '../../domain/constants';
import { keyCursor, keysetConnection } from '../../graphql/connection';
import { keyset, parseIntId, parseEnumList, parseLevels, parseVersion } from '../../graphql/args';
import { RivalryService, type RivalsScope } from './rivals.rivalry.service';
import { chartFilterJoin } from './rivals.loaders';

/** Cursor kinds of near losses: [exDiff, chartId, rival id]. */
const NEAR_LOSS_KEY = ['int', 'int', 'str'] as const;

/** The players a user follows (`ctx.services.rivals.following`). */
export class RivalsFollowingService {
  constructor(
    private readonly s: RivalsScope,
    private readonly rivalries: RivalryService,
  ) {}

  /** The players `userId` follows whose data `userId` may see: public, or private with an approved follow; by name. */
  private async followed(userId: string, opts: { publicOnly?: boolean } = {}): Promise<User[]> {
    const rows = await this.s.db.follow.findMany({
      where: {
        followerId: userId,
        ...(opts.publicOnly ? { following: { isPublic: true } } : visibleFollowWhere(userId)),
      },
      include: { following: true },
    });
    return rows
      .map((r) => r.following)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
  }

  /** The public players `userId` follows, by name (rival selection). */
  publicFollowing(userId: string): Promise<User[]> {
    return this.followed(userId, { publicOnly: true });
  }

  /**
   * The viewer (the owner: OWNER rule) against each player they follow and may see, with
   * the level / difficulty filter and optionally one of their follow lists; sorted. Two statements
   * for the rivalries whatever the number of players (rivals loaders).
   */
  async rivalSummary(
    userId: string,
    args: {
      version?: string | null;
      levels?: number[] | null;
      difficulties?: string[] | null;
      listId?: string | null;
      sort?: string | null;
      order?: 'ASC' | 'DESC' | null;
    },
  ) {
    const listId = args.listId == null ? null : parseIntId(args.listId, 'listId');
    let players = await this.followed(userId);
    if (listId !== null) {
      const list = await this.s.db.followList.findFirst({
        where: { id: listId, ownerId: userId },
        select: { members: { select: { userId: true } } },
      });
      if (!list) throw notFound('List not found');
      const members = new Set(list.members.map((m) => m.userId));
      players = players.filter((p) => members.has(p.id));
    }
    const rows = await Promise.all(
      players.map(async (user) => ({ userId: user.id, user, rivalry: (await this.rivalries.rivalry(user.id, args))! })),
    );
    const sort = args.sort ?? 'WINS';
    const order = args.order ?? (sort === 'NAME' ? 'ASC' : 'DESC');
    const value = (r: (typeof rows)[number]): number | string => {
      switch (sort) {
        case 'LOSSES':
          return r.rivalry.losses;
        case 'DRAWS':
          return r.rivalry.draws;
        case 'PLAYED':
          return r.rivalry.played;
        case 'BPI_DIFF':
          return r.rivalry.bpiDiff;
        case 'TOTAL_BPI':
          return r.rivalry.totalBpi;
        case 'NAME':
          return r.user.name;
        default:
          return r.rivalry.wins;
      }
    };
    const byName = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
      a.user.name < b.user.name ? -1 : a.user.name > b.user.name ? 1 : a.userId < b.userId ? -1 : 1;
    return rows.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      if (x === y) return byName(a, b);
      const c = x < y ? -1 : 1;
      return order === 'ASC' ? c : -c;
    });
  }

  /**
   * Per chart, the followed players (public, or approved) with a best: count, average
   * and top EX and BPI. One statement. Private players count but are never named (topPlayer null).
   */
  async followingChartStats(
    userId: string,
    args: {
      version?: string | null;
      levels?: number[] | null;
      difficulties?: string[] | null;
      chartIds?: string[] | null;
    },
  ) {
    const version = parseVersion(args.version);
    const levels = parseLevels(args.levels);
    const difficulties = parseEnumList(args.difficulties);
    if (args.chartIds && args.chartIds.length > 1000)
      throw badInput('chartIds holds more than 1000 charts', [
        { code: 'too_big', path: ['chartIds'], message: 'At most 1000 charts' },
      ]);
    const chartIds = args.chartIds ? [...new Set(args.chartIds.map((c) => parseIntId(c, 'chartIds')))] : null;
    if (chartIds && !chartIds.length) return [];
    const rows = await this.s.db.$queryRaw<{ userId: string; isPublic: boolean; chartId: number; exScore: number }[]>`
      SELECT b."userId", u."isPublic", b."chartId", b."exScore"
        FROM "Follow" f
        JOIN "User" u ON u."id" = f."followingId"
        JOIN "BestScore" b ON b."userId" = f."followingId" AND b."version" = ${version}
       WHERE f."followerId" = ${userId} AND ${visibleThroughFollow()}
         ${chartIds ? Prisma.sql`AND b."chartId" IN (${Prisma.join(chartIds)})` : Prisma.empty}`;
    const cat = this.s.catalogue;
    const byChart = new Map<number, typeof rows>();
    for (const r of rows) {
      const c = cat.chart(r.chartId);
      if (!c || (levels && !levels.includes(c.level)) || (difficulties && !difficulties.includes(c.difficulty)))
        continue;
      const list = byChart.get(r.chartId);
      if (list) list.push(r);
      else byChart.set(r.chartId, [r]);
    }
    const out = [];
    for (const [chartId, list] of byChart) {
      const chart = cat.chart(chartId)!;
      let sumEx = 0;
      let sumBpi = 0;
      let withBpi = 0;
      let top = list[0];
      for (const r of list) {
        sumEx += r.exScore;
        const bpi = cat.currentBpi(chartId, r.exScore);
        if (bpi !== null) {
          sumBpi += bpi;
          withBpi++;
        }
        if (r.exScore > top.exScore || (r.exScore === top.exScore && r.userId < top.userId)) top = r;
      }
      out.push({
        chartId,
        chart,
        players: list.length,
        averageExScore: round2(sumEx / list.length),
        averageBpi: withBpi ? round2(sumBpi / withBpi) : null,
        topExScore: top.exScore,
        topBpi: cat.currentBpi(chartId, top.exScore),
        topPlayerId: top.isPublic ? top.userId : null,
      });
    }
    return out.sort(
      (a, b) =>
        b.chart.level - a.chart.level ||
        (a.chart.title < b.chart.title ? -1 : a.chart.title > b.chart.title ? 1 : a.chartId - b.chartId),
    );
  }

  /**
   * The players `userId` follows with a best on one chart (any level or difficulty),
   * best EX first: public players, and private ones the caller may see (approved follower, self).
   */
  async followingScoresOn(userId: string, args: { chartId: string; version?: string | null }) {
    const version = parseVersion(args.version);
    const chartId = parseIntId(args.chartId, 'chartId');
    const chart = this.s.catalogue.chart(chartId);
    if (!chart) throw notFound('Chart not found');
    // the caller (not `userId`) must see each player; an administrator sees all, as the rule table
    const viewer = this.s.viewer;
    const rows = await this.s.db.$queryRaw<BestScore[]>`
      SELECT b.*
        FROM "Follow" f
        JOIN "User" u ON u."id" = f."followingId"
        JOIN "BestScore" b ON b."userId" = f."followingId" AND b."version" = ${version} AND b."chartId" = ${chartId}
       WHERE f."followerId" = ${userId} ${viewer?.isAdmin ? Prisma.empty : Prisma.sql`AND ${visibleUser(viewer?.id ?? null)}`}
       ORDER BY b."exScore" DESC, b."userId" ASC`;
    return rows.map((r) => ({
      userId: r.userId,
      chartId,
      chart,
      exScore: r.exScore,
      bpi: this.s.catalogue.currentBpi(chartId, r.exScore),
      clearLamp: r.clearLamp ?? ClearLamp.NO_PLAY,
      missCount: r.missCount,
      playedAt: r.playedAt,
    }));
  }

  /**
   * Charts where a followed player (public, or approved) leads the owner by minDiff..maxDiff
   * EX; exDiff ascending, then chart id, rival id; keyset pages over that triple (one statement a
   * page, plus the count).
   */
  async nearLosses(
    userId: string,
    args: {
      version?: string | null;
      levels?: number[] | null;
      difficulties?: string[] | null;
      minDiff?: number | null;
      maxDiff?: number | null;
      first?: number | null;
      after?: string | null;
    },
  ) {
    const version = parseVersion(args.version);
    const levels = parseLevels(args.levels);
    const difficulties = parseEnumList(args.difficulties);
    const ks = keyset({ first: args.first, after: args.after }, 'nearLosses', NEAR_LOSS_KEY);
    const size = ks.size;
    const minDiff = args.minDiff ?? 1;
    const maxDiff = args.maxDiff ?? 30;
    for (const [name, v] of [
      ['minDiff', minDiff],
      ['maxDiff', maxDiff],
    ] as const) {
      if (!Number.isInteger(v) || v < -20000 || v > 20000)
        throw badInput(`${name} must be an integer between -20000 and 20000`, [
          { code: 'out_of_range', path: [name], message: `${name} out of range` },
        ]);
    }
    if (minDiff > maxDiff)
      throw badInput('minDiff is larger than maxDiff', [
        { code: 'out_of_range', path: ['minDiff'], message: 'minDiff is larger than maxDiff' },
      ]);
    const cursor = ks.key;
    const chartFilter = chartFilterJoin(levels, difficulties);
    const from = Prisma.sql`
        FROM "BestScore" m
        ${chartFilter}
        JOIN "Follow" f ON f."followerId" = m."userId"
        JOIN "User" u ON u."id" = f."followingId" AND ${visibleThroughFollow()}
        JOIN "BestScore" o ON o."userId" = f."followingId" AND o."version" = m."version" AND o."chartId" = m."chartId"
       WHERE m."userId" = ${userId} AND m."version" = ${version}
         AND o."exScore" - m."exScore" BETWEEN ${minDiff} AND ${maxDiff}`;
    const after = cursor
      ? Prisma.sql`AND (o."exScore" - m."exScore", m."chartId", o."userId") > (${cursor[0]}::int, ${cursor[1]}::int, ${cursor[2]}::text)`
      : Prisma.empty;
    const [rows, count] = await Promise.all([
      this.s.db.$queryRaw<
        { chartId: number; rivalId: string; exScore: number; rivalExScore: number; exDiff: number }[]
      >`
        SELECT m."chartId", o."userId" AS "rivalId", m."exScore", o."exScore" AS "rivalExScore", (o."exScore" - m."exScore")::int AS "exDiff"
        ${from} ${after}
        ORDER BY 5, 1, 2 LIMIT ${size + 1}`,
      this.s.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n ${from}`,
    ]);
    const nodes = rows.map((r) => ({
      ...r,
      chartId: Number(r.chartId),
      exDiff: Number(r.exDiff),
      chart: this.s.catalogue.chart(Number(r.chartId)) ?? null,
      bpi: this.s.catalogue.currentBpi(Number(r.chartId), r.exScore),
    }));
    return keysetConnection(
      nodes,
      ks,
      (n) => keyCursor('nearLosses', NEAR_LOSS_KEY, [n.exDiff, n.chartId, n.rivalId]),
      Number(count[0]?.n ?? 0),
    );
  }

  /**
   * Each public player `userId` follows: ☆12 (SP HYPER / ANOTHER / LEGGENDARIA) total BPI
   * from their plays before the period and up to its end (per chart the latest play's stored BPI,
   * −15 when null; N = the ☆12 charts of that set). One statement for all players.
   */
  async followingBpiChanges(userId: string, args: { month: string; version?: string | null }) {
    const version = parseVersion(args.version);
    const m = /^(\d{4})(?:-(\d{2}))?$/.exec(args.month);
    const month = m ? Number(m[2] ?? 1) : 0;
    if (!m || month < 1 || month > 12)
      throw badInput('month must be YYYY-MM or YYYY', [
        { code: 'invalid_value', path: ['month'], message: 'month must be YYYY-MM or YYYY' },
      ]);
    const y = Number(m[1]);
    const JST = 9 * 3600_000;
    const start = new Date(Date.UTC(y, month - 1, 1) - JST);
    const end = new Date((m[2] ? Date.UTC(y, month, 1) : Date.UTC(y + 1, 0, 1)) - JST);
    const players = await this.followed(userId, { publicOnly: true });
    if (!players.length) return [];
    const set = [...this.s.catalogue.charts()].filter(
      (c) =>
        c.level === 12 &&
        c.playStyle === PlayStyle.SP &&
        (BPI_DIFFICULTIES as readonly string[]).includes(c.difficulty),
    );
    const ids = set.map((c) => c.id);
    if (!ids.length) return players.map((user) => ({ userId: user.id, user, bpiStart: -15, bpiEnd: -15, change: 0 }));
    const plays = await this.s.db.score.findMany({
      where: { userId: { in: players.map((p) => p.id) }, version, chartId: { in: ids }, playedAt: { lt: end } },
      select: { userId: true, chartId: true, bpi: true, playedAt: true },
      orderBy: [{ playedAt: 'asc' }, { id: 'asc' }],
    });
    const startMaps = new Map<string, Map<number, number>>();
    const endMaps = new Map<string, Map<number, number>>();
    for (const p of plays) {
      for (const [maps, keep] of [
        [endMaps, true],
        [startMaps, p.playedAt < start],
      ] as const) {
        if (!keep) continue;
        let mm = maps.get(p.userId);
        if (!mm) maps.set(p.userId, (mm = new Map()));
        mm.set(p.chartId, p.bpi ?? -15);
      }
    }
    const total = (mm: Map<number, number> | undefined) => totalBpi([...(mm?.values() ?? [])], ids.length);
    return players.map((user) => {
      const bpiStart = total(startMaps.get(user.id));
      const bpiEnd = total(endMaps.get(user.id));
      return { userId: user.id, user, bpiStart, bpiEnd, change: round2(bpiEnd - bpiStart) };
    });
  }
}
