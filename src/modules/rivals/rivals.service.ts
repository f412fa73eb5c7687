/**
 * Rivals: a player against the players they follow or look at — win/loss against a profile, the
 * rivals passed in an import period (logs), the followers an import passed (social notifications).
 * Reads bests through the scores area and radars through the stats area.
 */
import { Prisma, type BestScore } from '../../generated/prisma/client';
import { round2 } from '../../domain/bpi';
import { ClearLamp, PlayStyle } from '../../domain/constants';
import { comparePositions, compareSides, positionOf, winLossTrend, type ComparisonRow, type ComparisonSort, type SideScore, type TrendPlay } from '../../domain/rivals';
import { jstDate } from '../../domain/stats/common';
import { encodeCursor, keysetPage, type Page } from '../../graphql/connection';
import { intIdOrNull, pageSize, parseEnumList, parseLevels, parseSearch, parseVersion, sortKeyCursor } from '../../graphql/args';
import type { CatalogueChart } from '../catalogue/catalogue';
import type { AreaScope } from '../area';
import type { ReplayBest } from '../scores/plays';
import type { ScoresService } from '../scores/scores.service';
import type { StatsService } from '../stats/stats.service';

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

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'viewer' | 'loaders'> & { services: { scores: ScoresService; stats: StatsService } };

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
  async rivalry(userId: string, args: { version?: string | null; levels?: number[] | null; difficulties?: string[] | null }): Promise<RivalryData | null> {
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
    return { exScore: b.exScore, bpi: this.s.catalogue.currentBpi(b.chartId, b.exScore), clearLamp: b.clearLamp ?? ClearLamp.NO_PLAY, missCount: b.missCount, playedAt: b.playedAt };
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
    const c = compareSides({ chartId: chart.id, title: chart.title, level: chart.level, notes: chart.notes, bpm: chart.bpm }, a, b);
    return { chartId: chart.id, chart, mine: a, rival: b, exDiff: c.exDiff, bpiDiff: c.bpiDiff, outcome: c.outcome };
  }

  /** §5.1: the comparison list, filtered, sorted (total order) and paged with a keyset cursor holding the sort key. */
  async rivalCharts(r: RivalryData, args: RivalChartsArgs): Promise<Page<RivalChartData>> {
    const size = pageSize(args.first);
    const sort: ComparisonSort = args.sort ?? 'LEVEL';
    const order = args.order ?? 'DESC';
    const search = parseSearch(args.search)?.toLowerCase() ?? null;
    const outcomes = args.outcomes ? new Set(args.outcomes) : null;
    const after = args.after ? sortKeyCursor(args.after, sort, order) : null;
    const rows = (await this.comparisonRows(r)).filter(
      (x) => (!args.bothPlayed || (x.mine && x.rival)) && (!outcomes || outcomes.has(x.outcome)) && (!search || x.chart.title.toLowerCase().includes(search)),
    );
    const pos = (x: RivalChartData) => positionOf({ ...x, title: x.chart.title, level: x.chart.level, notes: x.chart.notes, bpm: x.chart.bpm, theirs: x.rival }, sort);
    let keyed = rows.map((x) => ({ x, p: pos(x) })).sort((a, b) => comparePositions(a.p, b.p, order));
    if (after) {
      // The position after which the page starts: the cursor's sort key, level and title from its chart.
      const c = this.s.catalogue.chart(after.chartId);
      const cur = { ...after, level: c?.level ?? 0, title: c?.title ?? '' };
      keyed = keyed.filter((k) => comparePositions(k.p, cur, order) > 0);
    }
    const cursorOf = (x: RivalChartData) => {
      const p = pos(x);
      return encodeCursor([sort, order, p.group, typeof p.value === 'number' ? `n:${p.value}` : `s:${p.value}`, p.chartId]);
    };
    const selected = keyed;
    return keysetPage(selected.slice(0, size + 1).map((k) => k.x), size, args.after, cursorOf, rows.length);
  }

  /** §5.2: the comparison on one chart (null: neither has a best, or an unknown chart). */
  async rivalChart(r: RivalryData, chartIdArg: string): Promise<RivalChartData | null> {
    const chartId = intIdOrNull(chartIdArg);
    const chart = chartId === null ? undefined : this.s.catalogue.chart(chartId);
    if (!chart) return null;
    const scores = this.s.services.scores;
    const [mine, theirs] = await Promise.all([scores.bestOn(r.viewerId, r.version, chart.id), scores.bestOn(r.userId, r.version, chart.id)]);
    if (!mine && !theirs) return null;
    return this.row(chart, mine ?? undefined, theirs ?? undefined);
  }

  /** §5.3: the win/loss trend against the rival from every play of both (JST days), on the filter's charts (and `level`). */
  async rivalTrend(r: RivalryData, levelArg: number | null | undefined) {
    const level = levelArg == null ? null : parseLevels([levelArg], 'level')![0];
    const plays = await this.s.loaders.rivals.plays.load({ userIds: [r.viewerId, r.userId].sort().join(','), version: r.version });
    const trendPlays: TrendPlay[] = [];
    for (const p of plays) {
      if (p.userId !== r.viewerId && p.userId !== r.userId) continue;
      const c = this.s.catalogue.chart(p.chartId);
      if (!c || !this.inFilter(r, c) || (level !== null && c.level !== level)) continue;
      trendPlays.push({ side: p.userId === r.viewerId ? 'mine' : 'theirs', chartId: p.chartId, exScore: p.exScore, date: jstDate(p.playedAt) });
    }
    return winLossTrend(trendPlays);
  }

  /** Win/loss of the viewer against the user and the user's radar, in a version (default latest). */
  async compare(userId: string, versionArg: string | null | undefined) {
    const version = parseVersion(versionArg);
    const [winLoss, radar] = await Promise.all([this.winLoss(userId, version), this.s.services.stats.radar(userId, version)]);
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
      if (!chart || chart.playStyle !== PlayStyle.SP || !(COMPARE_LEVELS as readonly number[]).includes(chart.level)) continue;
      const t = tally.get(chart.level) ?? { level: chart.level, win: 0, lose: 0, draw: 0 };
      if (b.exScore > other) t.win++;
      else if (b.exScore < other) t.lose++;
      else t.draw++;
      tally.set(chart.level, t);
    }
    return COMPARE_LEVELS.flatMap((l) => (tally.has(l) ? [tally.get(l)!] : []));
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
      where: { followerId: userId, OR: [{ following: { isPublic: true } }, { approvedAt: { not: null } }] },
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
        out.set(r.chartId, [...(out.get(r.chartId) ?? []), { rivalUserId: r.userId, rivalName: names.get(r.userId)!, rivalScore: rival, myNewScore: mine, myOldScore: old }]);
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
  e: { userId: string; version: string; batchId: string; chartIds: number[] },
): Promise<OvertakenFollower[]> {
  if (!e.chartIds.length) return [];
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
      AND (imp."isPublic" OR f."approvedAt" IS NOT NULL)
      AND b."exScore" < nb."exScore" AND b."exScore" >= COALESCE(prev.ex, -1)`;
  return rows.map((o) => ({ recipientId: o.recipientId, chartId: Number(o.chartId), myEx: Number(o.myEx), newEx: Number(o.newEx) }));
}
