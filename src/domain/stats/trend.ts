/**
 * TotalBPI trend (docs/domain/stats.md#total-bpi-trend): the total BPI after each day / week / month, with the
 * charts updated in it (previous and new EX and BPI).
 *
 * Needs: every play of the player in the version (one read of Score for user + version:
 * id, chartId, exScore, bpi, playedAt — index (userId, version, playedAt)) and the chart
 * source (catalogue).
 *
 * Rules:
 * - Scope and N: SP charts with a current definition available in the version, filtered by the
 *   query; levels default to **12** (so with no filter the chart set is the one total set of
 *   src/domain/totals.ts and the curve ends on the stored total BPI). With `levels: [11]`,
 *   N = the ☆11 charts of that scope, and so on. (The reference divides by every chart of
 *   every version matching the filter, and by ☆11+☆12 without a filter.) N is returned.
 * - Replay in play time (playedAt, then id): a play is an update when it is the chart's first
 *   or raises its best EX (a lamp- or miss-only improvement does not change the BPI and is not
 *   listed). The BPI of a best is the one stored with the play that set it (the definition in
 *   force at import; none → −15). The BPI of every chart of the scope not played yet is −15.
 * - One point per JST calendar day from the first play day to the last, days without plays
 *   included (they carry the total on); `groupBy: week` (ISO weeks, key = the Monday) and
 *   `month` (key `YYYY-MM`) keep the last day's total and played count and list every update of
 *   the period in order. A chart updated twice in a period is listed twice.
 * - `playedCount` = charts of the scope played so far (cumulative); `updatedCount` = updates
 *   listed in the point.
 */
import { BPI_FLOOR, RunningTotalBpi } from '../bpi';
import {
  byPlayTime,
  dayString,
  eachDay,
  jstDayNumber,
  periodKey,
  scopeCharts,
  type ChartFilter,
  type ChartSource,
  type GroupBy,
  type PlayInput,
  type StatsChart,
} from './common';

export const TREND_DEFAULT_LEVELS = [12] as const;

export interface TrendUpdate {
  chartId: number;
  title: string;
  difficulty: string;
  level: number;
  prevExScore: number | null;
  newExScore: number;
  /** null: first play of the chart */
  prevBpi: number | null;
  newBpi: number;
  playedAt: Date;
}

export interface TrendPoint {
  /** `YYYY-MM-DD` (day; week = its Monday) or `YYYY-MM` (month) */
  date: string;
  totalBpi: number;
  playedCount: number;
  updatedCount: number;
  updates: TrendUpdate[];
}

export interface TrendResult {
  version: string;
  groupBy: GroupBy;
  /** N: charts the totals are computed over */
  chartCount: number;
  points: TrendPoint[];
}

export function totalBpiTrend(
  source: ChartSource,
  version: string,
  filter: ChartFilter,
  groupBy: GroupBy,
  plays: readonly PlayInput[],
): TrendResult {
  const scope = new Map<number, StatsChart>();
  for (const c of scopeCharts(source, version, filter, TREND_DEFAULT_LEVELS)) scope.set(c.id, c);
  const n = scope.size;
  const sorted = plays.filter((p) => scope.has(p.chartId)).sort(byPlayTime);
  const best = new Map<number, { ex: number; bpi: number }>();
  const running = new RunningTotalBpi(n);
  const days = new Map<string, { totalBpi: number; playedCount: number; updates: TrendUpdate[] }>();
  let i = 0;
  while (i < sorted.length) {
    // the JST day as a number for the comparisons, its `YYYY-MM-DD` once
    const day = jstDayNumber(sorted[i].playedAt);
    const date = dayString(day);
    const updates: TrendUpdate[] = [];
    for (; i < sorted.length && jstDayNumber(sorted[i].playedAt) === day; i++) {
      const p = sorted[i];
      const prev = best.get(p.chartId);
      if (prev && p.exScore <= prev.ex) continue;
      const c = scope.get(p.chartId)!;
      const bpi = p.bpi ?? BPI_FLOOR;
      updates.push({
        chartId: c.id,
        title: c.title,
        difficulty: c.difficulty,
        level: c.level,
        prevExScore: prev?.ex ?? null,
        newExScore: p.exScore,
        prevBpi: prev?.bpi ?? null,
        newBpi: bpi,
        playedAt: p.playedAt,
      });
      best.set(p.chartId, { ex: p.exScore, bpi });
      running.set(p.chartId, bpi);
    }
    days.set(date, { totalBpi: running.total(), playedCount: best.size, updates });
  }
  const points: TrendPoint[] = [];
  const dates = [...days.keys()];
  if (dates.length === 0) return { version, groupBy, chartCount: n, points };
  let carry = days.get(dates[0])!;
  for (const d of eachDay(dates[0], dates[dates.length - 1])) {
    const day = days.get(d);
    if (day) carry = day;
    const key = periodKey(d, groupBy);
    let last = points[points.length - 1];
    if (!last || last.date !== key)
      points.push(
        (last = { date: key, totalBpi: carry.totalBpi, playedCount: carry.playedCount, updatedCount: 0, updates: [] }),
      );
    last.totalBpi = carry.totalBpi;
    last.playedCount = carry.playedCount;
    if (day) {
      last.updates.push(...day.updates);
      last.updatedCount = last.updates.length;
    }
  }
  return { version, groupBy, chartCount: n, points };
}
