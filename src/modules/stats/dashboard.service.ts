/**
 * The player dashboard (`User.dashboard`; the cross-player stats are in cross-player.service.ts):
 * the service level over the pure calculators of src/domain/stats and the SVG renderers
 * of src/domain/charts.
 *
 * Data: every part reads the request's shared loaders — bests (scores area), plays, tower days,
 * arena rows (this area) — so asking every part of a dashboard reads each once; the review and the
 * neighbours add one statement each, sent with those loaders' (none waits for another's answer);
 * the SQL of one request does not grow with the player's bests, plays or batches. Charts and
 * current definitions come from the in-memory catalogue, never from SQL.
 */
import type { User } from '../../generated/prisma/client';
import { inLoopTurn } from '../../db/yield';
import { BPI_FLOOR } from '../../domain/bpi';
import { renderBpiDistributionSvg, renderRadarSvg, renderTrendSvg, type ChartTheme } from '../../domain/charts';
import {
  aaaTable,
  activityWithActiveDates,
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
  monthsOfPlays,
  neighbourRecommendations,
  orThrow,
  parseAaaGoal,
  parseAsOf,
  parseDateRange,
  parseIntIn,
  parsePage,
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
  type ChartFilter,
  type DistributionStep,
  type GroupBy,
  type PlayInput,
  type StatsQuery,
} from '../../domain/stats';
import type { AreaScope } from '../area';
import type { ScoresService } from '../scores/scores.service';
import { dashboardReview } from './dashboard-review.service';
import { neighbourBests, neighbourhood } from './stats.loaders';

/** The parent object of the Dashboard fields: the player and the parsed standard stats query. */
export interface DashboardRoot extends StatsQuery {
  userId: string;
  user: User;
}

type Scope = Pick<AreaScope, 'auth' | 'ctx' | 'db' | 'catalogue' | 'loaders' | 'viewer'> & {
  services: { scores: ScoresService };
};

/**
 * The row with its `chart` (the GraphQL field) set on it: the rows are the request's own (the domain makes
 * them per call), so no copy — a spread of every row of a dashboard (~4,000) was a few ms of CPU and garbage.
 */
const JSON_CHART = <T extends { chartId: number }>(cat: AreaScope['catalogue'], x: T) => {
  const row = x as T & { chart: ReturnType<AreaScope['catalogue']['chart']> | null };
  row.chart = cat.chart(x.chartId) ?? null;
  return row;
};

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
    return this.once(r, 'radar', async () => {
      const bests = await this.bests(r);
      return inLoopTurn(() => radarWithSongs(this.s.catalogue, r.version, this.filter(r), bests));
    });
  }

  private trendOf(r: DashboardRoot, groupBy: GroupBy) {
    return this.once(r, `trend:${groupBy}`, async () => {
      const plays = await this.plays(r);
      return inLoopTurn(() => totalBpiTrend(this.s.catalogue, r.version, this.filter(r), groupBy, plays));
    });
  }

  private bpiHistogram(r: DashboardRoot, step: DistributionStep) {
    return this.once(r, `bpi:${step}`, async () => {
      const bests = await this.bests(r);
      return inLoopTurn(() => bpiDistribution(this.s.catalogue, bests, this.filter(r), step));
    });
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
    const bests = await this.bests(r);
    return inLoopTurn(() => ({ ...djRankDistribution(this.s.catalogue, bests, this.filter(r)), step: null }));
  }

  async scoreRateDistribution(r: DashboardRoot, stepArg: number | null | undefined) {
    const step = orThrow(parseStep(stepArg));
    const bests = await this.bests(r);
    return inLoopTurn(() => scoreRateDistribution(this.s.catalogue, bests, this.filter(r), step));
  }

  async aaaTable(r: DashboardRoot, ratio: number | null | undefined, offset: number | null | undefined) {
    const goal = orThrow(parseAaaGoal(ratio, offset));
    const bests = await this.bests(r);
    return inLoopTurn(() => {
      const t = aaaTable(this.s.catalogue, r.version, this.filter(r), bests, goal);
      return { ...t, rows: t.rows.map((x) => JSON_CHART(this.s.catalogue, x)) };
    });
  }

  async bpmBands(r: DashboardRoot) {
    const bests = await this.bests(r);
    return inLoopTurn(() =>
      bpmBands(this.s.catalogue, r.version, this.filter(r), bests).map((b) => ({
        ...b,
        songs: b.songs.map((x) => JSON_CHART(this.s.catalogue, x)),
      })),
    );
  }

  // ───────────── totals and trends ─────────────

  async totalBpi(r: DashboardRoot, asOfArg: string | null | undefined) {
    const asOf = orThrow(parseAsOf(asOfArg));
    if (asOf === null) {
      const bests = await this.bests(r);
      return inLoopTurn(() => totalBpiNow(this.s.catalogue, r.version, bests));
    }
    const plays = await this.plays(r);
    return inLoopTurn(() => totalBpiAsOf(this.s.catalogue, r.version, plays, asOf));
  }

  async trend(r: DashboardRoot, groupBy: GroupBy | null | undefined) {
    const t = await this.trendOf(r, groupBy ?? 'day');
    return inLoopTurn(() => ({
      ...t,
      points: t.points.map((p) => ({ ...p, updates: p.updates.map((u) => JSON_CHART(this.s.catalogue, u)) })),
    }));
  }

  async radar(r: DashboardRoot) {
    const radar = await this.radarOf(r);
    return inLoopTurn(() => ({
      ...radar,
      categories: radar.categories.map((c) => ({ ...c, songs: c.songs.map((x) => JSON_CHART(this.s.catalogue, x)) })),
    }));
  }

  async activity(r: DashboardRoot, from: string | null | undefined, to: string | null | undefined) {
    const range = orThrow(parseDateRange(from, to));
    const plays = await this.plays(r);
    // the calendar and the level-12 active dates in one walk over the plays
    return inLoopTurn(() => activityWithActiveDates(this.s.catalogue, this.filter(r), plays, range));
  }

  async boxPlot(r: DashboardRoot, unit: GroupBy | null | undefined) {
    const [plays, tower] = await Promise.all([this.plays(r), this.tower(r)]);
    return inLoopTurn(() => bpiBoxPlot(this.s.catalogue, this.filter(r), unit ?? 'day', plays, tower));
  }

  async reviewPeriods(r: DashboardRoot) {
    const plays = await this.plays(r);
    return inLoopTurn(() => reviewPeriods(monthsOfPlays(plays.map((p) => p.playedAt))));
  }

  async towerHistory(r: DashboardRoot, from: string | null | undefined, to: string | null | undefined) {
    const range = orThrow(parseDateRange(from, to));
    const tower = await this.tower(r);
    return inLoopTurn(() => towerHistory(tower, range));
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
    return dashboardReview(
      this.s,
      r,
      monthArg,
      () => this.plays(r),
      () => this.tower(r),
    );
  }

  // ───────────── neighbours (docs/domain/stats.md#neighbours) ─────────────

  async neighbours(
    r: DashboardRoot,
    limitArg: number | null | undefined,
    offsetArg: number | null | undefined,
    nArg?: number | null,
  ) {
    const page = orThrow(parsePage(limitArg, offsetArg, 100, 20));
    // the neighbourhood size, as the reference's n (docs/domain/stats.md); the privacy minimums still apply
    const n = orThrow(parseIntIn(nArg, 'n', 1, MAX_NEIGHBOURS, DEFAULT_NEIGHBOURS));
    const [near, mine] = await Promise.all([neighbourhood(this.s.db, r.userId, r.version, n), this.bests(r)]);
    const stored = near.stored;
    const ids = pickNeighbours(stored ?? BPI_FLOOR, near.candidates, r.userId, n);
    const sqlPicked = new Set(near.picked);
    const theirs =
      ids.length < MIN_NEIGHBOURS || !mine.length
        ? []
        : ids.length === sqlPicked.size && ids.every((id) => sqlPicked.has(id))
          ? near.theirs
          : await neighbourBests(
              this.s.db,
              r.version,
              ids,
              mine.map((b) => b.chartId),
            );
    return inLoopTurn(() => {
      const res = neighbourRecommendations(this.s.catalogue, this.filter(r), stored, mine, ids, theirs, page);
      const wrap = (l: typeof res.weapons) => ({ ...l, data: l.data.map((x) => JSON_CHART(this.s.catalogue, x)) });
      return {
        ...res,
        minimumNeighbors: MIN_NEIGHBOURS,
        minimumPerChart: MIN_NEIGHBOURS_PER_CHART,
        weapons: wrap(res.weapons),
        potential: wrap(res.potential),
      };
    });
  }

  // ───────────── SVG pictures (same data as the JSON parts) ─────────────

  private subtitle(r: StatsQuery, what: string): string {
    const lv = r.levels ? r.levels.map((l) => `☆${l}`).join('/') : '☆11–12';
    const df = r.difficulties ? ` ${r.difficulties.join('/')}` : '';
    return `${r.version} · ${lv}${df} · ${what}`;
  }

  async radarSvg(r: DashboardRoot, theme: ChartTheme) {
    const radar = await this.radarOf(r);
    return inLoopTurn(() =>
      renderRadarSvg(radar, { theme, title: r.user.name, subtitle: this.subtitle(r, 'レーダー') }),
    );
  }

  async trendSvg(r: DashboardRoot, theme: ChartTheme, groupBy: GroupBy | null | undefined) {
    const t = await this.trendOf(r, groupBy ?? 'day');
    return inLoopTurn(() =>
      renderTrendSvg(t, { theme, title: r.user.name, subtitle: this.subtitle(r, `総合BPI推移 (${t.groupBy})`) }),
    );
  }

  async bpiDistributionSvg(r: DashboardRoot, theme: ChartTheme, stepArg: number | string | null | undefined) {
    const step = orThrow(parseStep(stepArg));
    const h = await this.bpiHistogram(r, step);
    return inLoopTurn(() =>
      renderBpiDistributionSvg(h, {
        theme,
        title: r.user.name,
        subtitle: this.subtitle(r, `単曲BPI分布 (step ${step})`),
      }),
    );
  }
}
