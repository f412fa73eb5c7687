/**
 * BPI box plot per day / week / month (docs/domain/stats.md#box-plot): the spread of the BPIs reached in
 * each period, the totals of its upper parts and the share of the key presses spent on charts
 * that were improved.
 *
 * Needs: the player's plays in the version (one read of Score for user + version: chartId, bpi,
 * playedAt; optionally a playedAt range), the player's key-counter days of the version (one
 * read of TowerEntry for user + version, same range), and the chart source (catalogue: notes,
 * level, difficulty).
 *
 * Rules:
 * - Period of a play: its JST date (day), the Sunday starting its week (week) or `YYYY-MM`
 *   (month). Weeks start on Sunday here, as the reference's box plot (the trend and the tower use
 *   Monday weeks, as the reference's do).
 * - Per period and chart: the highest stored BPI among the period's plays of the chart (plays
 *   without a BPI ignored) on SP charts in the query's scope (levels default 11 and 12,
 *   difficulties default HYPER/ANOTHER/LEGGENDARIA). Only periods with such a chart are listed,
 *   ascending.
 * - Quartiles by linear interpolation between closest ranks (Hyndman & Fan type 7, as Excel
 *   PERCENTILE.INC and numpy's default): over the n values sorted ascending, P(p) at index
 *   h = p/100·(n−1) is v[⌊h⌋] + (h−⌊h⌋)·(v[⌊h⌋+1] − v[⌊h⌋]). min = P0, p25, median = P50, p75,
 *   max = P100. Reported rounded to 2 decimals.
 * - `count` = charts; totalBpi = total BPI (src/domain/bpi) of the values over N = count;
 *   totalBpiTop75 = over the values without the lowest ⌊0.25·count⌋ (N = the rest);
 *   totalBpiTop25 = without the lowest ⌊0.75·count⌋.
 * - registeredNotes = Σ notes of the period's charts; totalPhysicalNotes = Σ (keys + scratches)
 *   of the period's tower days; efficiency = min(100, registeredNotes / totalPhysicalNotes ·
 *   100) rounded to 2 decimals, 0 without tower data.
 */
import { round2, totalBpi } from '../bpi';
import {
  dateOnly,
  dayString,
  inScope,
  jstDayNumber,
  periodKey,
  isoWeekday,
  addDays,
  type ChartFilter,
  type ChartSource,
  type GroupBy,
  type PlayInput,
  type TowerDayInput,
} from './common';

export interface BoxPlotPoint {
  date: string;
  min: number;
  p25: number;
  median: number;
  p75: number;
  max: number;
  count: number;
  totalBpi: number;
  totalBpiTop75: number;
  totalBpiTop25: number;
  registeredNotes: number;
  totalPhysicalNotes: number;
  efficiency: number;
}

/** Percentile p (0–100) of values sorted ascending, type 7 (linear interpolation). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** The box plot's period key: as periodKey, but a week is keyed by its Sunday (docs/domain/stats.md#box-plot). */
export function boxPeriodKey(date: string, groupBy: GroupBy): string {
  return groupBy === 'week' ? addDays(date, -(isoWeekday(date) % 7)) : periodKey(date, groupBy);
}

export function bpiBoxPlot(
  source: ChartSource,
  filter: ChartFilter,
  groupBy: GroupBy,
  plays: Iterable<Pick<PlayInput, 'chartId' | 'bpi' | 'playedAt'>>,
  tower: Iterable<TowerDayInput> = [],
): BoxPlotPoint[] {
  const periods = new Map<string, Map<number, number>>();
  // the period key of each JST day met (plays share days): one string per day, not one per play
  const keyOfDay = new Map<number, string>();
  for (const p of plays) {
    if (p.bpi === null) continue;
    const c = source.chart(p.chartId);
    if (!c || !inScope(c, filter)) continue;
    const day = jstDayNumber(p.playedAt);
    let key = keyOfDay.get(day);
    if (key === undefined) keyOfDay.set(day, (key = boxPeriodKey(dayString(day), groupBy)));
    let charts = periods.get(key);
    if (!charts) periods.set(key, (charts = new Map()));
    const prev = charts.get(p.chartId);
    if (prev === undefined || p.bpi > prev) charts.set(p.chartId, p.bpi);
  }
  const physical = new Map<string, number>();
  for (const t of tower) {
    const key = boxPeriodKey(dateOnly(t.playDate), groupBy);
    physical.set(key, (physical.get(key) ?? 0) + t.keyCount + t.scratchCount);
  }
  const out: BoxPlotPoint[] = [];
  for (const key of [...periods.keys()].sort()) {
    const charts = periods.get(key)!;
    const v = [...charts.values()].sort((a, b) => a - b);
    const n = v.length;
    const top75 = v.slice(Math.floor(0.25 * n));
    const top25 = v.slice(Math.floor(0.75 * n));
    let registeredNotes = 0;
    for (const id of charts.keys()) registeredNotes += source.chart(id)!.notes;
    const totalPhysicalNotes = physical.get(key) ?? 0;
    out.push({
      date: key,
      min: v[0],
      p25: round2(percentile(v, 25)),
      median: round2(percentile(v, 50)),
      p75: round2(percentile(v, 75)),
      max: v[n - 1],
      count: n,
      totalBpi: totalBpi(v, n),
      totalBpiTop75: totalBpi(top75, top75.length),
      totalBpiTop25: totalBpi(top25, top25.length),
      registeredNotes,
      totalPhysicalNotes,
      efficiency: totalPhysicalNotes > 0 ? round2(Math.min(100, (registeredNotes / totalPhysicalNotes) * 100)) : 0,
    });
  }
  return out;
}
