/**
 * Activity calendar and active dates (docs/domain/stats.md#activity).
 *
 * Needs: the player's plays in the version, optionally within a date range (one read of Score
 * for user + version [+ playedAt range]: chartId, playedAt), and the chart source (catalogue)
 * for level and difficulty. (A service may instead aggregate in SQL —
 * `SELECT to_char("playedAt" AT TIME ZONE 'Asia/Tokyo', 'YYYY-MM-DD') AS date,
 * COUNT(DISTINCT "chartId") … WHERE "chartId" = ANY($scopeIds) GROUP BY 1` — and gets the
 * same numbers; these functions define them.)
 *
 * Rules:
 * - A day's count = the number of **distinct charts** with a stored play (an improvement of the
 *   best) on that JST date, among SP charts in the query's scope (levels default 11 and 12,
 *   difficulties default HYPER/ANOTHER/LEGGENDARIA).
 * - Calendar: days with a count > 0, ascending, as bare dates `YYYY-MM-DD` (the reference
 *   leaks SQL DATE values as UTC-midnight timestamps). `from`/`to` bound it (inclusive).
 * - Active dates: the level-12 view — the dates of the calendar with levels [12] (any BPI
 *   difficulty), ascending.
 */
import { inScope, jstDate, type ChartFilter, type ChartSource } from './common';

export interface ActivityPlay {
  chartId: number;
  playedAt: Date;
}

export interface ActivityDay {
  date: string;
  count: number;
}

export interface ActivityCalendar {
  days: ActivityDay[];
  /** days with activity */
  activeDays: number;
  /** Σ count */
  chartDays: number;
}

export function activityCalendar(
  source: ChartSource,
  filter: ChartFilter,
  plays: Iterable<ActivityPlay>,
  range: { from?: string | null; to?: string | null } = {},
): ActivityCalendar {
  const byDay = new Map<string, Set<number>>();
  for (const p of plays) {
    const c = source.chart(p.chartId);
    if (!c || !inScope(c, filter)) continue;
    const d = jstDate(p.playedAt);
    if ((range.from && d < range.from) || (range.to && d > range.to)) continue;
    let set = byDay.get(d);
    if (!set) byDay.set(d, (set = new Set()));
    set.add(p.chartId);
  }
  const days = [...byDay].map(([date, s]) => ({ date, count: s.size })).sort((a, b) => (a.date < b.date ? -1 : 1));
  return { days, activeDays: days.length, chartDays: days.reduce((n, d) => n + d.count, 0) };
}

/** The level-12 view: dates with at least one ☆12 chart updated. */
export function activeDates(
  source: ChartSource,
  plays: Iterable<ActivityPlay>,
  range: { from?: string | null; to?: string | null } = {},
): string[] {
  return activityCalendar(source, { levels: [12], difficulties: null }, plays, range).days.map((d) => d.date);
}

/**
 * `activityCalendar` and `activeDates` of the same plays and range in one walk over the plays (the
 * dashboard's activity part asks for both): each play's chart and JST date looked up once.
 */
export function activityWithActiveDates(
  source: ChartSource,
  filter: ChartFilter,
  plays: Iterable<ActivityPlay>,
  range: { from?: string | null; to?: string | null } = {},
): ActivityCalendar & { activeDates: string[] } {
  const level12: ChartFilter = { levels: [12], difficulties: null };
  const byDay = new Map<string, Set<number>>();
  const active = new Set<string>();
  for (const p of plays) {
    const c = source.chart(p.chartId);
    if (!c) continue;
    const counted = inScope(c, filter);
    const twelve = inScope(c, level12);
    if (!counted && !twelve) continue;
    const d = jstDate(p.playedAt);
    if ((range.from && d < range.from) || (range.to && d > range.to)) continue;
    if (twelve) active.add(d);
    if (!counted) continue;
    let set = byDay.get(d);
    if (!set) byDay.set(d, (set = new Set()));
    set.add(p.chartId);
  }
  const days = [...byDay].map(([date, s]) => ({ date, count: s.size })).sort((a, b) => (a.date < b.date ? -1 : 1));
  return {
    days,
    activeDays: days.length,
    chartDays: days.reduce((n, d) => n + d.count, 0),
    activeDates: [...active].sort((a, b) => (a < b ? -1 : 1)),
  };
}
