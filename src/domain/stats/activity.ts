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

/** The ☆12 view of active dates (any BPI difficulty). */
const LEVEL_12: ChartFilter = { levels: [12], difficulties: null };

type Range = { from?: string | null; to?: string | null };

/**
 * One walk over the plays: per filter, the distinct charts played on each JST date in the range
 * (each play's chart and date looked up once, whatever the number of filters).
 */
function chartsByDay(
  source: ChartSource,
  filters: readonly ChartFilter[],
  plays: Iterable<ActivityPlay>,
  range: Range,
): Map<string, Set<number>>[] {
  const out = filters.map(() => new Map<string, Set<number>>());
  for (const p of plays) {
    const c = source.chart(p.chartId);
    if (!c) continue;
    let d: string | undefined;
    for (let k = 0; k < filters.length; k++) {
      if (!inScope(c, filters[k])) continue;
      d ??= jstDate(p.playedAt);
      if ((range.from && d < range.from) || (range.to && d > range.to)) break;
      let set = out[k].get(d);
      if (!set) out[k].set(d, (set = new Set()));
      set.add(p.chartId);
    }
  }
  return out;
}

function calendarOf(byDay: Map<string, Set<number>>): ActivityCalendar {
  const days = [...byDay].map(([date, s]) => ({ date, count: s.size })).sort((a, b) => (a.date < b.date ? -1 : 1));
  return { days, activeDays: days.length, chartDays: days.reduce((n, d) => n + d.count, 0) };
}

export function activityCalendar(
  source: ChartSource,
  filter: ChartFilter,
  plays: Iterable<ActivityPlay>,
  range: Range = {},
): ActivityCalendar {
  return calendarOf(chartsByDay(source, [filter], plays, range)[0]);
}

/** The level-12 view: dates with at least one ☆12 chart updated. */
export function activeDates(source: ChartSource, plays: Iterable<ActivityPlay>, range: Range = {}): string[] {
  return activityCalendar(source, LEVEL_12, plays, range).days.map((d) => d.date);
}

/**
 * `activityCalendar` and `activeDates` of the same plays and range in one walk over the plays (the
 * dashboard's activity part asks for both).
 */
export function activityWithActiveDates(
  source: ChartSource,
  filter: ChartFilter,
  plays: Iterable<ActivityPlay>,
  range: Range = {},
): ActivityCalendar & { activeDates: string[] } {
  const [counted, twelve] = chartsByDay(source, [filter, LEVEL_12], plays, range);
  return { ...calendarOf(counted), activeDates: calendarOf(twelve).days.map((d) => d.date) };
}
