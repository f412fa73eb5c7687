/**
 * Rivals: a player against the players they follow or look at — win/loss against a profile, the
 * rivals passed in an import period (logs), the followers an import passed (social notifications).
 * Reads bests through the scores area and radars through the stats area.
 */
import { Prisma, type BestScore, type User } from '../../generated/prisma/client';
import { badInput, notFound } from '../../errors';
import { visibleFollowWhere, visibleThroughFollow, visibleUser } from '../../db/visibility';
import { round2, totalBpi } from '../../domain/bpi';
import { BPI_DIFFICULTIES, ClearLamp, PlayStyle } from '../../domain/constants';
import {
  comparePositions,
  compareSides,
  positionOf,
  winLossTrend,
  type ComparisonRow,
  type ComparisonSort,
  type SideScore,
  type TrendPlay,
} from '../../domain/rivals';
import { jstDate } from '../../domain/stats/common';
import { keyCursor, keysetConnection, type Page } from '../../graphql/connection';
import {
  intIdOrNull,
  keyset,
  pageSize,
  parseIntId,
  parseEnumList,
  parseLevels,
  parseSearch,
  parseVersion,
} from '../../graphql/args';
import type { CatalogueChart } from '../catalogue/catalogue';
import type { AreaScope } from '../area';
import type { ReplayBest } from '../scores/plays';
import type { ScoresService } from '../scores/scores.service';
import type { StatsService } from '../stats/stats.service';
import { nameOrGameId, parseOffset, suggestRivals, type SuggestArgs } from './rivals.suggest';
import { SuggestionOrder } from './rivals.types';

export interface WinLoss {
  level: number;
  win: number;
  lose: number;
  draw: number;
}

export interface OvertakenData {
  rivalUserId: string;
  rivalName: string;
  rivalScore: number;
  myNewScore: number;
  myOldScore: number | null;
}

/** A follower passed on a chart by an import of the player they follow. */
export interface OvertakenFollower {
  recipientId: string;
  chartId: number;
  myEx: number;
  newEx: number;
}

const COMPARE_LEVELS = [11, 12] as const;

/** Cursor kinds of the comparison list: [group, sort value ('n:' number or 's:' text), chartId]; of near losses: [exDiff, chartId, rival id]. */
const RIVAL_CHART_KEY = ['int', 'str', 'int'] as const;
const NEAR_LOSS_KEY = ['int', 'int', 'str'] as const;

/** A comparison cursor's position (BAD_USER_INPUT naming `after` when its value is neither form). */
function rivalCursorPosition([group, value, chartId]: readonly [number, string, number]): {
  group: number;
  value: number | string;
  chartId: number;
} {
  const n = value.startsWith('n:') ? Number(value.slice(2)) : NaN;
  if (value.startsWith('n:') && Number.isFinite(n)) return { group, value: n, chartId };
  if (value.startsWith('s:')) return { group, value: value.slice(2), chartId };
  throw badInput('Invalid cursor', [{ code: 'invalid_cursor', path: ['after'], message: 'Invalid cursor' }]);
}

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'viewer' | 'loaders'> & {
  services: { scores: ScoresService; stats: StatsService };
};

/** The viewer against one player: what `User.rivalry` resolves to (the pair and filter ride along for the nested lists). */
export interface RivalryData {
  version: string;
  viewerId: string;
  userId: string;
  levels: number[] | null;
  difficulties: string[] | null;
  wins: number;
  losses: number;
  draws: number;
  played: number;
  bpiDiff: number;
  viewerTotalBpi: number;
  totalBpi: number;
}

/** A side of a comparison row as the API shows it. */
export interface RivalSideData extends SideScore {
  /** The chart (not a field: for bpi(model: V2)). */
  chartId: number;
  clearLamp: ClearLamp;
  missCount: number | null;
}

export interface RivalChartData {
  chartId: number;
  chart: CatalogueChart;
  mine: RivalSideData | null;
  rival: RivalSideData | null;
  exDiff: number;
  bpiDiff: number;
  outcome: ComparisonRow['outcome'];
}

interface RivalChartsArgs {
  first?: number | null;
  after?: string | null;
  sort?: ComparisonSort | null;
  order?: 'ASC' | 'DESC' | null;
  outcomes?: ComparisonRow['outcome'][] | null;
  bothPlayed?: boolean | null;
  search?: string | null;
}

export class RivalsService {
  constructor(private readonly s: Scope) {}

  // ───────────── rivalry: the viewer against one player (nested, batched) ─────────────

  /**
   * The viewer against `userId` in a version, on the charts both played (optionally of some levels /
   * difficulties); null for an anonymous viewer. Batched: any number of players in one request
   * cost the same statements (rivals loaders).
   */
  async rivalry(
    userId: string,
    args: { version?: string | null; levels?: number[] | null; difficulties?: string[] | null },
  ): Promise<RivalryData | null> {
    const v = this.s.viewer;
    const version = parseVersion(args.version);
    const levels = parseLevels(args.levels);
    const difficulties = parseEnumList(args.difficulties);
    if (!v) return null;
    const l = this.s.loaders.rivals;
    const [counts, viewerTotalBpi, totalBpi] = await Promise.all([
      l.rivalry.load({ viewerId: v.id, userId, version, levels, difficulties }),
      l.totalBpi.load({ userId: v.id, version }),
      l.totalBpi.load({ userId, version }),
    ]);
    return {
      version,
      viewerId: v.id,
      userId,
      levels,
      difficulties,
      ...counts,
      played: counts.wins + counts.losses + counts.draws,
      bpiDiff: round2(viewerTotalBpi - totalBpi),
      viewerTotalBpi,
      totalBpi,
    };
  }

  /** Is the chart in the rivalry's filter? */
  private inFilter(r: Pick<RivalryData, 'levels' | 'difficulties'>, c: CatalogueChart): boolean {
    return (!r.levels || r.levels.includes(c.level)) && (!r.difficulties || r.difficulties.includes(c.difficulty));
  }

  private side(b: BestScore | undefined): RivalSideData | null {
    if (!b) return null;
    return {
      chartId: b.chartId,
      exScore: b.exScore,
      bpi: this.s.catalogue.currentBpi(b.chartId, b.exScore),
      clearLamp: b.clearLamp ?? ClearLamp.NO_PLAY,
      missCount: b.missCount,
      playedAt: b.playedAt,
    };
  }

  /** Every chart of the filter where at least one of the pair has a best, compared (unsorted). */
  private async comparisonRows(r: RivalryData): Promise<RivalChartData[]> {
    const scores = this.s.services.scores;
    const [mine, theirs] = await Promise.all([scores.bests(r.viewerId, r.version), scores.bests(r.userId, r.version)]);
    const m = new Map(mine.map((b) => [b.chartId, b]));
    const t = new Map(theirs.map((b) => [b.chartId, b]));
    const out: RivalChartData[] = [];
    for (const chartId of new Set([...m.keys(), ...t.keys()])) {
      const chart = this.s.catalogue.chart(chartId);
      if (!chart || !this.inFilter(r, chart)) continue;
      out.push(this.row(chart, m.get(chartId), t.get(chartId)));
    }
    return out;
  }

  private row(chart: CatalogueChart, mine: BestScore | undefined, theirs: BestScore | undefined): RivalChartData {
    const a = this.side(mine);
    const b = this.side(theirs);
    const c = compareSides(
      { chartId: chart.id, title: chart.title, level: chart.level, notes: chart.notes, bpm: chart.bpm },
      a,
      b,
    );
    return { chartId: chart.id, chart, mine: a, rival: b, exDiff: c.exDiff, bpiDiff: c.bpiDiff, outcome: c.outcome };
  }

  /** §5.1: the comparison list, filtered, sorted (total order) and paged with a keyset cursor holding the sort key. */
  async rivalCharts(r: RivalryData, args: RivalChartsArgs): Promise<Page<RivalChartData>> {
    const sort: ComparisonSort = args.sort ?? 'LEVEL';
    const order = args.order ?? 'DESC';
    // cursor [group, sort value ('n:' number or 's:' text), chartId], tagged with the sort and order
    const search = parseSearch(args.search)?.toLowerCase() ?? null;
    const tag = `rivalCharts:${sort}:${order}${search === null ? '' : `:${search}`}`;
    const ks = keyset({ first: args.first, after: args.after }, tag, RIVAL_CHART_KEY);
    const outcomes = args.outcomes ? new Set(args.outcomes) : null;
    const after = ks.key ? rivalCursorPosition(ks.key) : null;
    const rows = (await this.comparisonRows(r)).filter(
      (x) => (!args.bothPlayed || (x.mine && x.rival)) && (!outcomes || outcomes.has(x.outcome)),
    );
    // A search reorders, as the reference: exact title first, then titles starting with it, then the rest (group × 100).
    const tier = (t: string) => (search === null ? 0 : t === search ? 0 : t.startsWith(search) ? 1 : 2);
    const pos = (x: RivalChartData) => {
      const c = x.chart;
      const p = positionOf(
        {
          ...x,
          title: c.title,
          level: c.level,
          notes: c.notes,
          bpm: c.bpm,
          releasedVersion: c.releasedVersion,
          theirs: x.rival,
        },
        sort,
      );
      return { ...p, group: tier(c.title.toLowerCase()) * 100 + p.group };
    };
    let keyed = rows.map((x) => ({ x, p: pos(x) })).sort((a, b) => comparePositions(a.p, b.p, order));
    if (after) {
      // The position after which the page starts: the cursor's sort key, level and title from its chart.
      const c = this.s.catalogue.chart(after.chartId);
      const cur = { ...after, level: c?.level ?? 0, title: c?.title ?? '' };
      keyed = keyed.filter((k) => comparePositions(k.p, cur, order) > 0);
    }
    const cursorOf = (x: RivalChartData) => {
      const p = pos(x);
      return keyCursor(tag, RIVAL_CHART_KEY, [
        p.group,
        typeof p.value === 'number' ? `n:${p.value}` : `s:${p.value}`,
        p.chartId,
      ]);
    };
    return keysetConnection(
      keyed.slice(0, ks.size + 1).map((k) => k.x),
      ks,
      cursorOf,
      rows.length,
    );
  }

  /** §5.2: the comparison on one chart (null: neither has a best, or an unknown chart). */
  async rivalChart(r: RivalryData, chartIdArg: string): Promise<RivalChartData | null> {
    const chartId = intIdOrNull(chartIdArg);
    const chart = chartId === null ? undefined : this.s.catalogue.chart(chartId);
    if (!chart) return null;
    const scores = this.s.services.scores;
    const [mine, theirs] = await Promise.all([
      scores.bestOn(r.viewerId, r.version, chart.id),
      scores.bestOn(r.userId, r.version, chart.id),
    ]);
    if (!mine && !theirs) return null;
    return this.row(chart, mine ?? undefined, theirs ?? undefined);
  }

  /** §5.3: the win/loss trend against the rival from every play of both (JST days), on the filter's charts (and `level`). */
  async rivalTrend(r: RivalryData, levelArg: number | null | undefined) {
    const level = levelArg == null ? null : parseLevels([levelArg], 'level')![0];
    const plays = await this.s.loaders.rivals.plays.load({
      userIds: [r.viewerId, r.userId].sort().join(','),
      version: r.version,
    });
    const trendPlays: TrendPlay[] = [];
    for (const p of plays) {
      if (p.userId !== r.viewerId && p.userId !== r.userId) continue;
      const c = this.s.catalogue.chart(p.chartId);
      if (!c || !this.inFilter(r, c) || (level !== null && c.level !== level)) continue;
      trendPlays.push({
        side: p.userId === r.viewerId ? 'mine' : 'theirs',
        chartId: p.chartId,
        exScore: p.exScore,
        date: jstDate(p.playedAt),
      });
    }
    return winLossTrend(trendPlays);
  }

  /** Win/loss of the viewer against the user and the user's radar, in a version (default latest). */
  async compare(userId: string, versionArg: string | null | undefined) {
    const version = parseVersion(versionArg);
    const [winLoss, radar] = await Promise.all([
      this.winLoss(userId, version),
      this.s.services.stats.radar(userId, version),
    ]);
    return { version, winLoss, radar };
  }

  /** Viewer against the user: per level (11, 12) wins/losses/draws on SP charts both played; null for anonymous viewers. */
  async winLoss(userId: string, version: string): Promise<WinLoss[] | null> {
    const v = this.s.viewer;
    if (!v) return null;
    const scores = this.s.services.scores;
    const [mine, theirs] = await Promise.all([scores.bests(v.id, version), scores.bests(userId, version)]);
    const theirMap = new Map(theirs.map((b) => [b.chartId, b.exScore]));
    const tally = new Map<number, WinLoss>();
    for (const b of mine) {
      const other = theirMap.get(b.chartId);
      if (other === undefined) continue;
      const chart = this.s.catalogue.chart(b.chartId);
      if (!chart || chart.playStyle !== PlayStyle.SP || !(COMPARE_LEVELS as readonly number[]).includes(chart.level))
        continue;
      const t = tally.get(chart.level) ?? { level: chart.level, win: 0, lose: 0, draw: 0 };
      if (b.exScore > other) t.win++;
      else if (b.exScore < other) t.lose++;
      else t.draw++;
      tally.set(chart.level, t);
    }
    return COMPARE_LEVELS.flatMap((l) => (tally.has(l) ? [tally.get(l)!] : []));
  }

  // ───────────── ranks (§4.3) ─────────────

  /**
   * §4.3: the player's rank on every chart they have a best on (all levels and difficulties), best
   * rank first, from the rank tree the BestScore triggers keep in the import's transaction (a new
   * best shows at once; the reference reads a cache rebuilt twice a day). Batched per request.
   */
  async chartRanks(
    userId: string,
    args: { version?: string | null; levels?: number[] | null; difficulties?: string[] | null },
  ) {
    const version = parseVersion(args.version);
    const levels = parseLevels(args.levels);
    const difficulties = parseEnumList(args.difficulties);
    const rows = await this.s.loaders.rivals.chartRanks.load({ userId, version });
    const cat = this.s.catalogue;
    const out = [];
    for (const r of rows) {
      const chart = cat.chart(r.chartId);
      if (
        !chart ||
        (levels && !levels.includes(chart.level)) ||
        (difficulties && !difficulties.includes(chart.difficulty))
      )
        continue;
      out.push({ ...r, chart, bpi: cat.currentBpi(r.chartId, r.exScore) });
    }
    return out;
  }

  // ───────────── discovery (§5.11, user search) ─────────────

  /**
   * §5.11: public players to follow, by the basis and order asked (rivals.suggest.ts). The default
   * (total BPI, nearest, no search, first page) reads two index range scans of (version, totalBpi),
   * one above and one below the owner's stored total, whatever the population.
   */
  async suggestedRivals(userId: string, args: Omit<SuggestArgs, 'version'> & { version?: string | null }) {
    const version = parseVersion(args.version);
    const mine = args.category
      ? (await this.s.services.stats.radar(userId, version))[args.category]
      : await this.s.loaders.rivals.totalBpi.load({ userId, version });
    const simple =
      !args.category && (args.order ?? SuggestionOrder.NEAREST) === SuggestionOrder.NEAREST && !args.search?.trim();
    if (!simple || parseOffset(args.offset) > 0) return suggestRivals(this.s.db, userId, mine, { ...args, version });
    const n = pageSize(args.first, 50, 20);
    const rows = await this.s.db.$queryRaw<{ userId: string; totalBpi: number }[]>`
      (SELECT s."userId", s."totalBpi" FROM "PlayerVersionStatus" s JOIN "User" u ON u."id" = s."userId" AND u."isPublic"
        WHERE s."version" = ${version} AND s."totalBpi" >= ${mine} AND s."userId" <> ${userId} ORDER BY s."totalBpi" ASC LIMIT ${n})
      UNION ALL
      (SELECT s."userId", s."totalBpi" FROM "PlayerVersionStatus" s JOIN "User" u ON u."id" = s."userId" AND u."isPublic"
        WHERE s."version" = ${version} AND s."totalBpi" < ${mine} AND s."userId" <> ${userId} ORDER BY s."totalBpi" DESC LIMIT ${n})`;
    return rows
      .map((r) => ({
        userId: r.userId,
        totalBpi: r.totalBpi,
        value: r.totalBpi,
        distance: round2(Math.abs(r.totalBpi - mine)),
        raw: Math.abs(r.totalBpi - mine),
      }))
      .sort((a, b) => a.raw - b.raw || (a.userId < b.userId ? -1 : 1))
      .slice(0, n)
      .map(({ raw: _raw, ...r }) => r);
  }

  /**
   * Players whose name starts with `prefix`, or (`search`) whose name or game id holds it (dashes
   * ignored), case-insensitive, by name: public profiles, and private ones the caller may see
   * (themself, or as an approved follower). Exactly one of the two. One statement.
   */
  async searchUsers(args: { prefix?: string | null; search?: string | null; first?: number | null }): Promise<User[]> {
    const prefix = parseSearch(args.prefix, 'prefix', 20);
    const search = parseSearch(args.search, 'search', 50);
    if (!prefix === !search) {
      const path = prefix ? 'search' : 'prefix';
      const message = prefix ? 'give prefix or search, not both' : 'prefix or search must not be empty';
      throw badInput(message, [{ code: prefix ? 'invalid_argument' : 'too_small', path: [path], message }]);
    }
    const n = pageSize(args.first, 50, 20);
    const match = prefix
      ? Prisma.sql`u."nameKey" LIKE ${`${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`
      : nameOrGameId(search!);
    const viewerId = this.s.viewer?.id ?? null;
    return this.s.db.$queryRaw<User[]>`
      SELECT u.* FROM "User" u
       WHERE ${match}
         AND ${visibleUser(viewerId)}
       ORDER BY u."nameKey" LIMIT ${n}`;
  }

  // ───────────── everyone the user follows (§5.4–§5.10) ─────────────

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

  /** §5.6: the public players `userId` follows, by name (rival selection). */
  publicFollowing(userId: string): Promise<User[]> {
    return this.followed(userId, { publicOnly: true });
  }

  /**
   * §5.10: the viewer (the owner: OWNER rule) against each player they follow and may see, with
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
      players.map(async (user) => ({ userId: user.id, user, rivalry: (await this.rivalry(user.id, args))! })),
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
   * §5.4 + §5.5: per chart, the followed players (public, or approved) with a best: count, average
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
   * §5.9 / §5.13: the players `userId` follows with a best on one chart (any level or difficulty),
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
   * §5.8: charts where a followed player (public, or approved) leads the owner by minDiff..maxDiff
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
    const chartFilter =
      levels || difficulties
        ? Prisma.sql`JOIN "Chart" c ON c."id" = m."chartId"
            ${levels ? Prisma.sql`AND c."level" IN (${Prisma.join(levels)})` : Prisma.empty}
            ${difficulties ? Prisma.sql`AND c."difficulty"::text IN (${Prisma.join(difficulties)})` : Prisma.empty}`
        : Prisma.empty;
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
   * §5.7: each public player `userId` follows: ☆12 (SP HYPER / ANOTHER / LEGGENDARIA) total BPI
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

  /**
   * Rivals overtaken in a period = users I follow (public, or private with an approved follow)
   * whose best EX as of the end of the period (by import time) lies between my best before and
   * after it; per chart.
   */
  async overtakenInPeriod(
    userId: string,
    version: string,
    charts: Set<number>,
    before: Map<number, ReplayBest>,
    after: Map<number, ReplayBest>,
    at: Date | null,
  ): Promise<Map<number, OvertakenData[]>> {
    const out = new Map<number, OvertakenData[]>();
    if (!charts.size || !at) return out;
    const db = this.s.db;
    const follows = await db.follow.findMany({
      where: { followerId: userId, ...visibleFollowWhere(userId) },
      select: { following: { select: { id: true, name: true } } },
    });
    if (!follows.length) return out;
    const names = new Map(follows.map((f) => [f.following.id, f.following.name]));
    const rows = await db.score.groupBy({
      by: ['userId', 'chartId'],
      where: { userId: { in: [...names.keys()] }, version, chartId: { in: [...charts] }, createdAt: { lte: at } },
      _max: { exScore: true },
    });
    for (const r of rows) {
      const rival = r._max.exScore ?? 0;
      const mine = after.get(r.chartId)!.exScore;
      const old = before.get(r.chartId)?.exScore ?? null;
      if (mine > rival && (old === null || old <= rival)) {
        out.set(r.chartId, [
          ...(out.get(r.chartId) ?? []),
          {
            rivalUserId: r.userId,
            rivalName: names.get(r.userId)!,
            rivalScore: rival,
            myNewScore: mine,
            myOldScore: old,
          },
        ]);
      }
    }
    return out;
  }
}

/**
 * The followers an import passed, per changed chart: a follower who may see the importer (public
 * importer, or approved follower) whose best EX on the chart (same version) was at or above the
 * importer's previous best (none = −1) and is now below the importer's new best. Runs after the
 * commit, outside any request (the social area's listener of `scores.imported`).
 */
export async function followersOvertaken(
  db: AreaScope['db'],
  e: {
    userId: string;
    version: string;
    batchId: string;
    chartIds: number[];
    exSteps?: { chartId: number; before: number; after: number }[];
  },
): Promise<OvertakenFollower[]> {
  if (!e.chartIds.length) return [];
  if (e.exSteps) {
    // The import's own step per chart (before → after, from its transaction): the result does
    // not depend on when this runs, even after a later import of the same player.
    const steps = e.exSteps.filter((x) => x.after > x.before);
    if (!steps.length) return [];
    const rows = await db.$queryRaw<{ recipientId: string; chartId: number; myEx: number; newEx: number }[]>`
      SELECT b."userId" AS "recipientId", s."chartId", b."exScore" AS "myEx", s."after" AS "newEx"
      FROM jsonb_to_recordset(${JSON.stringify(steps)}::jsonb) AS s("chartId" int, "before" int, "after" int)
      JOIN "User" imp ON imp."id" = ${e.userId}
      JOIN "Follow" f ON f."followingId" = imp."id"
      JOIN "BestScore" b ON b."userId" = f."followerId" AND b."version" = ${e.version} AND b."chartId" = s."chartId"
      WHERE (imp."isPublic" OR f."approvedAt" IS NOT NULL) AND b."exScore" < s."after" AND b."exScore" >= s."before"
      ORDER BY 2, 1`;
    return rows.map((o) => ({
      recipientId: o.recipientId,
      chartId: Number(o.chartId),
      myEx: Number(o.myEx),
      newEx: Number(o.newEx),
    }));
  }
  const chartIds = Prisma.join(e.chartIds);
  const rows = await db.$queryRaw<{ recipientId: string; chartId: number; myEx: number; newEx: number }[]>`
    SELECT b."userId" AS "recipientId", nb."chartId", b."exScore" AS "myEx", nb."exScore" AS "newEx"
    FROM "BestScore" nb
    JOIN "User" imp ON imp."id" = nb."userId"
    JOIN "Follow" f ON f."followingId" = nb."userId"
    JOIN "BestScore" b ON b."userId" = f."followerId" AND b."version" = nb."version" AND b."chartId" = nb."chartId"
    LEFT JOIN LATERAL (
      SELECT max(p."exScore") AS ex FROM "Score" p
      WHERE p."userId" = nb."userId" AND p."chartId" = nb."chartId" AND p."version" = nb."version" AND p."batchId" <> ${e.batchId}
    ) prev ON true
    WHERE nb."userId" = ${e.userId} AND nb."version" = ${e.version} AND nb."chartId" IN (${chartIds})
      AND ${visibleThroughFollow('f', 'imp')}
      AND b."exScore" < nb."exScore" AND b."exScore" >= COALESCE(prev.ex, -1)`;
  return rows.map((o) => ({
    recipientId: o.recipientId,
    chartId: Number(o.chartId),
    myEx: Number(o.myEx),
    newEx: Number(o.newEx),
  }));
}
