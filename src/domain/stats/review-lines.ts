/**
 * Parts of the monthly / yearly review that follow the reference's calendar (docs/domain/stats.md#review):
 * the total-BPI line of the viewer and of each followed player, and the plays per day of the week
 * numbered 0 = Monday … 6 = Sunday (the reference's WEEKDAY()). Pure: built from the review itself.
 *
 * Rules:
 * - A line's points are the review's history groups in which that player played (a JST day in a
 *   month review, `YYYY-MM` in a year review), each the player's total BPI after the group. The
 *   line starts with the period's first group (`YYYY-MM-01`, or `YYYY-01` in a year review) at the
 *   total before the period (`bpiBase`) when the player did not play on it.
 * - The viewer's line (name "あなた", `isViewer`) comes first and only when the viewer played in the
 *   period; every rival the review lists follows, in the review's rival order, line or not.
 * - Days of the week: the same counts as the ISO list (1 = Monday … 7 = Sunday), numbered from 0
 *   as the reference's review does (0 = Monday … 6 = Sunday: day = ISO weekday − 1), listed 0 … 6.
 *   (Issue #33 said "0–6 from Sunday"; the reference's review counts by MySQL WEEKDAY(), 0 = Monday;
 *   its box plots' weeks do start on Sunday.)
 */
import type { HistoryPoint, Review } from './review';
import { REVIEW_VIEWER_NAME } from './review';

export interface GrowthLine {
  /** null for the viewer */
  userId: string | null;
  name: string;
  isViewer: boolean;
  /** the total BPI before the period */
  bpiBase: number;
  history: HistoryPoint[];
}

/** The first history key of a period: its first day (month review) or its first month (year review). */
const firstKey = (period: Review['period']) => (period.kind === 'month' ? period.from : period.from.slice(0, 7));

function line(
  period: Review['period'],
  userId: string | null,
  name: string,
  base: number,
  history: readonly HistoryPoint[],
) {
  const start = firstKey(period);
  const points =
    history.length && history[0].date === start ? [...history] : [{ date: start, value: base }, ...history];
  return { userId, name, isViewer: userId === null, bpiBase: base, history: points };
}

/** The viewer's line (when the viewer played in the period), then each rival's. */
export function growthLines(review: Review): GrowthLine[] {
  const out: GrowthLine[] = [];
  if (review.bpi.history.length || review.bpi.start !== review.bpi.end)
    out.push(line(review.period, null, REVIEW_VIEWER_NAME, review.bpi.start, review.bpi.history));
  for (const r of review.rivals) out.push(line(review.period, r.userId, r.name, r.bpiStart, r.history));
  return out;
}

/** Counts per ISO weekday (1 = Monday … 7 = Sunday) numbered as the reference: 0 = Monday … 6 = Sunday. */
export function byDayOfWeek(iso: readonly { weekday: number; count: number }[]): { day: number; count: number }[] {
  const out = Array.from({ length: 7 }, (_, day) => ({ day, count: 0 }));
  for (const w of iso) out[w.weekday - 1].count += w.count;
  return out;
}
