/**
 * Rivals, one pair: the viewer against one player (`User.rivalry`) — the win/loss counts, the
 * comparison list, one chart, the trend (docs/domain/stats.md#rivals). Batched through the rivals
 * loaders.
 */
import { type BestScore } from '../../generated/prisma/client';
import { badInput } from '../../errors';
import { round2 } from '../../domain/bpi';
import { ClearLamp } from '../../domain/constants';
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
import { intIdOrNull, keyset, parseEnumList, parseLevels, parseSearch, parseVersion } from '../../graphql/args';
import type { CatalogueChart } from '../catalogue/catalogue';
import type { AreaScope } from '../area';
import type { ScoresService } from '../scores/scores.service';
import type { StatsService } from '../stats/stats.service';

/** Cursor kinds of the comparison list: [group, sort value ('n:' number or 's:' text), chartId]. */
const RIVAL_CHART_KEY = ['int', 'str', 'int'] as const;

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

/** What the rivals services read: the request's database, catalogue, viewer and loaders, and the scores and stats areas. */
export type RivalsScope = Pick<AreaScope, 'db' | 'catalogue' | 'viewer' | 'loaders'> & {
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

/** The viewer against one player (`ctx.services.rivals.rivalries`). */
export class RivalryService {
  constructor(private readonly s: RivalsScope) {}

  /**
   * The viewer against `userId` in a version, on the charts both played (optionally of some levels /
   * difficulties); null for an anonymous viewer. Batched: any number of players in one request
   * cost the same statement (rivals loaders: the counts and both totals in one).
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
    const r = await this.s.loaders.rivals.rivalry.load({ viewerId: v.id, userId, version, levels, difficulties });
    return {
      version,
      viewerId: v.id,
      userId,
      levels,
      difficulties,
      wins: r.wins,
      losses: r.losses,
      draws: r.draws,
      played: r.wins + r.losses + r.draws,
      bpiDiff: round2(r.viewerTotalBpi - r.totalBpi),
      viewerTotalBpi: r.viewerTotalBpi,
      totalBpi: r.totalBpi,
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

  /** The comparison list, filtered, sorted (total order) and paged with a keyset cursor holding the sort key. */
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

  /** The comparison on one chart (null: neither has a best, or an unknown chart). */
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

  /** The win/loss trend against the rival from every play of both (JST days), on the filter's charts (and `level`). */
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
}
