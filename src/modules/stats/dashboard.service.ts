/**
 * The player dashboard (`User.dashboard`; the cross-player stats are in cross-player.service.ts):
 * the service level over the pure calculators of src/domain/stats and the SVG renderers
 * of src/domain/charts.
 *
 * Data: every part reads the request's shared loaders — bests (scores area), plays, tower days,
 * arena rows, stored statuses (this area) — so asking every part of a dashboard reads each once;
 * the SQL of one request does not grow with the player's bests, plays or batches. Charts and
 * current definitions come from the in-memory catalogue, never from SQL.
 */
import { Prisma, type User } from '../../generated/prisma/client';
import { visibleThroughFollow } from '../../db/visibility';
import { BPI_FLOOR } from '../../domain/bpi';
import { renderBpiDistributionSvg, renderRadarSvg, renderTrendSvg, type ChartTheme } from '../../domain/charts';
import {
  aaaTable,
  activeDates,
  activityCalendar,
  arenaTrend,
  bpiBoxPlot,
  bpiDistribution,
  bpmBands,
  djRankDistribution,
  jstDate,
  DEFAULT_NEIGHBOURS,
  MAX_NEIGHBOURS,
  MIN_NEIGHBOURS,
  MIN_NEIGHBOURS_PER_CHART,
  monthlyReview,
  byDayOfWeek,
  growthLines,
  monthsOfPlays,
  neighbourRecommendations,
  orThrow,
  parseAaaGoal,
  parseAsOf,
  parseDateRange,
  parseIntIn,
  parsePage,
  parseReviewPeriod,
  parseStatsQuery,
  parseStep,
  pickNeighbours,
  radarWithSongs,
  reviewPeriods,
  scoreRateDistribution,
  totalBpiAsOf,
  totalBpiNow,
  totalBpiTrend,
  towerHistory,
  towerPeriodRanks,
  type ChartFilter,
  type DistributionStep,
  type GroupBy,
  type NeighbourCandidate,
  type PlayInput,
  type StatsQuery,
} from '../../domain/stats';
import type { AreaScope } from '../area';
import type { ScoresService } from '../scores/scores.service';

/** The parent object of the Dashboard fields: the player and the parsed standard stats query. */
export interface DashboardRoot extends StatsQuery {
  userId: string;
  user: User;
}

type Scope = Pick<AreaScope, 'auth' | 'ctx' | 'db' | 'catalogue' | 'loaders' | 'viewer'> & {
  services: { scores: ScoresService };
};

const JSON_CHART = <T extends { chartId: number }>(cat: AreaScope['catalogue'], x: T) => ({
  ...x,
  chart: cat.chart(x.chartId) ?? null,
});

/** The standard stats query of the GraphQL field (BAD_USER_INPUT naming the argument). */
export function parseDashboardQuery(args: {
  version?: string | null;
  levels?: number[] | null;
  difficulties?: string[] | null;
}): StatsQuery {
  return orThrow(parseStatsQuery({ version: args.version, levels: args.levels, difficulties: args.difficulties }));
}

export class DashboardService {
  constructor(private readonly s: Scope) {}

  /** Results shared by a JSON part and its picture within the request (the service lives per request). */
  private readonly memo = new Map<string, Promise<unknown>>();

  private once<T>(r: StatsQuery & { userId: string }, part: string, compute: () => Promise<T>): Promise<T> {
    const key = `${r.userId}|${r.version}|${r.levels?.join(',') ?? ''}|${r.difficulties?.join(',') ?? ''}|${part}`;
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) this.memo.set(key, (p = compute()));
    return p;
  }

  private radarOf(r: DashboardRoot) {
    return this.once(r, 'radar', async () =>
      radarWithSongs(this.s.catalogue, r.version, this.filter(r), await this.bests(r)),
    );
  }

  private trendOf(r: DashboardRoot, groupBy: GroupBy) {
    return this.once(r, `trend:${groupBy}`, async () =>
      totalBpiTrend(this.s.catalogue, r.version, this.filter(r), groupBy, await this.plays(r)),
    );
  }

  private bpiHistogram(r: DashboardRoot, step: DistributionStep) {
    return this.once(r, `bpi:${step}`, async () =>
      bpiDistribution(this.s.catalogue, await this.bests(r), this.filter(r), step),
    );
  }

  private filter(r: DashboardRoot): ChartFilter {
    return { levels: r.levels, difficulties: r.difficulties };
  }

  private isOwner(userId: string): boolean {
    return this.s.viewer?.id === userId;
  }

  private bests(r: { userId: string; version: string }) {
    return this.s.services.scores.bests(r.userId, r.version);
  }

  private plays(r: { userId: string; version: string }): Promise<PlayInput[]> {
    return this.s.loaders.stats.plays.load({ userId: r.userId, version: r.version });
  }

  private tower(r: { userId: string; version: string }) {
    return this.s.loaders.stats.tower.load({ userId: r.userId, version: r.version });
  }

  // ───────────── distributions, tables ─────────────

  async bpiDistribution(r: DashboardRoot, stepArg: number | null | undefined) {
    return this.bpiHistogram(r, orThrow(parseStep(stepArg)));
  }

  async djRankDistribution(r: DashboardRoot) {
    return { ...djRankDistribution(this.s.catalogue, await this.bests(r), this.filter(r)), step: null };
  }

  async scoreRateDistribution(r: DashboardRoot, stepArg: number | null | undefined) {
    const step = orThrow(parseStep(stepArg));
    return scoreRateDistribution(this.s.catalogue, await this.bests(r), this.filter(r), step);
  }

  async aaaTable(r: DashboardRoot, ratio: number | null | undefined, offset: number | null | undefined) {
    const goal = orThrow(parseAaaGoal(ratio, offset));
    const t = aaaTable(this.s.catalogue, r.version, this.filter(r), await this.bests(r), goal);
    return { ...t, rows: t.rows.map((x) => JSON_CHART(this.s.catalogue, x)) };
  }

  async bpmBands(r: DashboardRoot) {
    const bands = bpmBands(this.s.catalogue, r.version, this.filter(r), await this.bests(r));
    return bands.map((b) => ({ ...b, songs: b.songs.map((x) => JSON_CHART(this.s.catalogue, x)) }));
  }

  // ───────────── totals and trends ─────────────

  async totalBpi(r: DashboardRoot, asOfArg: string | null | undefined) {
    const asOf = orThrow(parseAsOf(asOfArg));
    if (asOf === null) return totalBpiNow(this.s.catalogue, r.version, await this.bests(r));
    return totalBpiAsOf(this.s.catalogue, r.version, await this.plays(r), asOf);
  }

  async trend(r: DashboardRoot, groupBy: GroupBy | null | undefined) {
    const t = await this.trendOf(r, groupBy ?? 'day');
    return {
      ...t,
      points: t.points.map((p) => ({ ...p, updates: p.updates.map((u) => JSON_CHART(this.s.catalogue, u)) })),
    };
  }

  async radar(r: DashboardRoot) {
    const radar = await this.radarOf(r);
    return {
      ...radar,
      categories: radar.categories.map((c) => ({ ...c, songs: c.songs.map((x) => JSON_CHART(this.s.catalogue, x)) })),
    };
  }

  async activity(r: DashboardRoot, from: string | null | undefined, to: string | null | undefined) {
    const range = orThrow(parseDateRange(from, to));
    const plays = await this.plays(r);
    return {
      ...activityCalendar(this.s.catalogue, this.filter(r), plays, range),
      activeDates: activeDates(this.s.catalogue, plays, range),
    };
  }

  async boxPlot(r: DashboardRoot, unit: GroupBy | null | undefined) {
    const [plays, tower] = await Promise.all([this.plays(r), this.tower(r)]);
    return bpiBoxPlot(this.s.catalogue, this.filter(r), unit ?? 'day', plays, tower);
  }

  async reviewPeriods(r: DashboardRoot) {
    return reviewPeriods(monthsOfPlays((await this.plays(r)).map((p) => p.playedAt)));
  }

  async towerHistory(r: DashboardRoot, from: string | null | undefined, to: string | null | undefined) {
    const range = orThrow(parseDateRange(from, to));
    return towerHistory(await this.tower(r), range);
  }

  // ───────────── arena ─────────────

  /** The arena trend; for others, class hidden by showArenaClass and ranks / wins by showArenaRank (statsPrivacy). */
  async arenaTrend(r: DashboardRoot, from: string | null | undefined, to: string | null | undefined) {
    const range = orThrow(parseDateRange(from, to));
    if (!r.user.gameId) return { points: [], best: null };
    const { observations, classCounts } = await this.s.loaders.stats.arena.load({
      gameId: r.user.gameId,
      version: r.version,
    });
    const inRange = observations.filter((o) => {
      const d = jstDate(o.fetchedAt);
      return (!range.from || d >= range.from) && (!range.to || d <= range.to);
    });
    const t = arenaTrend(inRange, classCounts);
    const owner = this.isOwner(r.userId);
    const showClass = owner || r.user.showArenaClass;
    const showRank = owner || r.user.showArenaRank;
    if (!showClass && !showRank) return { points: [], best: null };
    const mask = <P extends (typeof t.points)[number]>(p: P) => ({
      ...p,
      arenaClass: showClass ? p.arenaClass : null,
      classRank: showRank ? p.classRank : null,
      globalRank: showRank ? p.globalRank : null,
      wins: showRank ? p.wins : null,
      a1Continue: showRank ? p.a1Continue : null,
    });
    return { points: t.points.map(mask), best: t.best ? mask(t.best) : null };
  }

  // ───────────── review (owner only: rule Dashboard.review) ─────────────

  async review(r: DashboardRoot, monthArg: string) {
    const period = orThrow(parseReviewPeriod(monthArg));
    const db = this.s.db;
    const start = new Date(Date.parse(`${period.from}T00:00:00+09:00`));
    const end = new Date(Date.parse(`${period.to}T00:00:00+09:00`) + 86400_000);
    const [plays, tower, arena, rivalRows] = await Promise.all([
      this.plays(r),
      this.tower(r),
      r.user.gameId
        ? this.s.loaders.stats.arena.load({ gameId: r.user.gameId, version: r.version })
        : Promise.resolve({ observations: [], classCounts: [] }),
      // followed players the viewer (= the owner) may see: public, or private with an approved follow
      db.$queryRaw<{ userId: string; name: string; profileImage: string | null }[]>`
        SELECT u."id" AS "userId", u."name", u."profileImage" FROM "Follow" f JOIN "User" u ON u."id" = f."followingId"
         WHERE f."followerId" = ${r.userId} AND ${visibleThroughFollow()}`,
    ]);
    const updated = [...new Set(plays.filter((p) => p.playedAt >= start && p.playedAt < end).map((p) => p.chartId))];
    const rivalIds = rivalRows.map((x) => x.userId);
    const [songRanks, towerTotals, rivalPlays] = await Promise.all([
      updated.length
        ? db.$queryRaw<{ chartId: number; rank: number }[]>`
            SELECT m."chartId", (1 + COUNT(o."userId") FILTER (WHERE o."exScore" > m."exScore"))::int AS "rank"
              FROM "BestScore" m JOIN "BestScore" o ON o."chartId" = m."chartId" AND o."version" = m."version"
             WHERE m."userId" = ${r.userId} AND m."version" = ${r.version} AND m."chartId" IN (${Prisma.join(updated)})
             GROUP BY m."chartId", m."exScore"`
        : Promise.resolve([]),
      db.$queryRaw<{ userId: string; keyCount: number; scratchCount: number }[]>`
        SELECT "userId", SUM("keyCount")::int AS "keyCount", SUM("scratchCount")::int AS "scratchCount" FROM "TowerEntry"
         WHERE "version" = ${r.version} AND "playDate" BETWEEN ${period.from}::date AND ${period.to}::date GROUP BY "userId"`,
      rivalIds.length
        ? db.score.findMany({
            where: { userId: { in: rivalIds }, version: r.version, playedAt: { lt: end } },
            select: { id: true, userId: true, chartId: true, exScore: true, bpi: true, playedAt: true },
          })
        : Promise.resolve([]),
    ]);
    const byRival = new Map<string, PlayInput[]>(rivalIds.map((id) => [id, []]));
    for (const p of rivalPlays) byRival.get(p.userId)!.push(p);
    const review = monthlyReview(this.s.catalogue, {
      version: r.version,
      period,
      plays,
      tower,
      arena: arena.observations,
      songRanks: new Map(songRanks.map((x) => [Number(x.chartId), Number(x.rank)])),
      towerRanks: towerTotals.some((t) => t.userId === r.userId) ? towerPeriodRanks(towerTotals, r.userId) : null,
      rivals: rivalRows.map((x) => ({ ...x, plays: byRival.get(x.userId) ?? [] })),
    });
    const cat = this.s.catalogue;
    const song = <T extends { chartId: number }>(x: T) => JSON_CHART(cat, x);
    const a = review.activity;
    return {
      period: period.key,
      granularity: period.kind,
      from: period.from,
      to: period.to,
      bpi: review.bpi,
      topBpiSongs: review.topSongs.topBpiSongs.map(song),
      topImprovedSongs: review.topSongs.topImprovedSongs.map(song),
      activity: {
        ...a,
        byDayOfWeek: byDayOfWeek(a.byWeekday),
        bestGrowth: a.bestDays.bestGrowth
          ? { date: a.bestDays.bestGrowth.date, value: a.bestDays.bestGrowth.bpiDiff }
          : null,
        bestKeysDay: a.bestDays.bestKeysDay
          ? { date: a.bestDays.bestKeysDay.date, value: a.bestDays.bestKeysDay.keyCount }
          : null,
        bestScratchDay: a.bestDays.bestScratchDay
          ? { date: a.bestDays.bestScratchDay.date, value: a.bestDays.bestScratchDay.scratchCount }
          : null,
      },
      // read only when the query selects it (the domain computes it on first read)
      get radarGrowth() {
        return review.radarGrowth.map((g) => ({ ...g, songs: g.songs.map(song) }));
      },
      rivals: review.rivals.map((x) => ({
        ...x,
        user: null as User | null,
        topWinningSongs: x.topWinningSongs.map(song),
      })),
      growthByAbs: review.growthRanking.byAbsGrowth,
      growthByRate: review.growthRanking.byGrowthRate,
      growthLines: growthLines(review),
      arena: review.arena,
    };
  }

  // ───────────── neighbours (§3.9) ─────────────

  async neighbours(
    r: DashboardRoot,
    limitArg: number | null | undefined,
    offsetArg: number | null | undefined,
    nArg?: number | null,
  ) {
    const page = orThrow(parsePage(limitArg, offsetArg, 100, 20));
    // the neighbourhood size, as the reference's n (docs/domain/stats.md); the privacy minimums still apply
    const n = orThrow(parseIntIn(nArg, 'n', 1, MAX_NEIGHBOURS, DEFAULT_NEIGHBOURS));
    const [statuses, mine] = await Promise.all([this.s.loaders.stats.statuses.load(r.userId), this.bests(r)]);
    const stored = statuses.find((x) => x.version === r.version)?.totalBpi ?? null;
    const t = stored ?? BPI_FLOOR;
    const candidates = await this.s.db.$queryRaw<NeighbourCandidate[]>`
      (SELECT "userId", "totalBpi" FROM "PlayerVersionStatus" WHERE "version" = ${r.version} AND "userId" <> ${r.userId} AND "totalBpi" >= ${t}
        ORDER BY "totalBpi" ASC, "userId" LIMIT ${n})
      UNION ALL
      (SELECT "userId", "totalBpi" FROM "PlayerVersionStatus" WHERE "version" = ${r.version} AND "userId" <> ${r.userId} AND "totalBpi" < ${t}
        ORDER BY "totalBpi" DESC, "userId" LIMIT ${n})`;
    const ids = pickNeighbours(t, candidates, r.userId, n);
    const myCharts = mine.map((b) => b.chartId);
    const theirs =
      ids.length >= MIN_NEIGHBOURS && myCharts.length
        ? await this.s.db.bestScore.findMany({
            where: { version: r.version, userId: { in: ids }, chartId: { in: myCharts } },
            select: { userId: true, chartId: true, exScore: true },
          })
        : [];
    const res = neighbourRecommendations(this.s.catalogue, this.filter(r), stored, mine, ids, theirs, page);
    const wrap = (l: typeof res.weapons) => ({ ...l, data: l.data.map((x) => JSON_CHART(this.s.catalogue, x)) });
    return {
      ...res,
      minimumNeighbors: MIN_NEIGHBOURS,
      minimumPerChart: MIN_NEIGHBOURS_PER_CHART,
      weapons: wrap(res.weapons),
      potential: wrap(res.potential),
    };
  }

  // ───────────── SVG pictures (same data as the JSON parts) ─────────────

  private subtitle(r: StatsQuery, what: string): string {
    const lv = r.levels ? r.levels.map((l) => `☆${l}`).join('/') : '☆11–12';
    const df = r.difficulties ? ` ${r.difficulties.join('/')}` : '';
    return `${r.version} · ${lv}${df} · ${what}`;
  }

  async radarSvg(r: DashboardRoot, theme: ChartTheme) {
    const radar = await this.radarOf(r);
    return renderRadarSvg(radar, { theme, title: r.user.name, subtitle: this.subtitle(r, 'レーダー') });
  }

  async trendSvg(r: DashboardRoot, theme: ChartTheme, groupBy: GroupBy | null | undefined) {
    const t = await this.trendOf(r, groupBy ?? 'day');
    return renderTrendSvg(t, { theme, title: r.user.name, subtitle: this.subtitle(r, `総合BPI推移 (${t.groupBy})`) });
  }

  async bpiDistributionSvg(r: DashboardRoot, theme: ChartTheme, stepArg: number | string | null | undefined) {
    const step = orThrow(parseStep(stepArg));
    const h = await this.bpiHistogram(r, step);
    return renderBpiDistributionSvg(h, {
      theme,
      title: r.user.name,
      subtitle: this.subtitle(r, `単曲BPI分布 (step ${step})`),
    });
  }
}
