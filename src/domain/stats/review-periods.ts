/**
 * Months (and years) available for reviews (docs/domain/stats.md#review).
 *
 * Needs: the distinct JST months of the player's plays in the version — in SQL, one statement:
 * `SELECT DISTINCT to_char("playedAt" AT TIME ZONE 'Asia/Tokyo', 'YYYY-MM') AS month FROM "Score"
 * WHERE "userId" = $1 AND "version" = $2` (index (userId, version, playedAt)) — or the play
 * instants themselves (monthsOfPlays).
 *
 * Rules: a month is available when the player has at least one stored play in it (JST); a year
 * when one of its months is. Both newest first. Malformed month strings are ignored.
 */
import { dayString, jstDayNumber } from './common';

export interface ReviewPeriods {
  /** `YYYY-MM`, newest first */
  months: string[];
  /** `YYYY`, newest first */
  years: string[];
}

/** JST months `YYYY-MM` of play instants. */
export function monthsOfPlays(playedAt: Iterable<Date>): string[] {
  const out = new Set<string>();
  // a play on the same JST day as the one before adds nothing: its month is already in (plays come
  // in play-time order from the dashboard's loader, so most are skipped without making a string)
  let lastDay = Number.NaN;
  for (const d of playedAt) {
    const day = jstDayNumber(d);
    if (day === lastDay) continue;
    lastDay = day;
    out.add(dayString(day).slice(0, 7));
  }
  return [...out];
}

export function reviewPeriods(months: Iterable<string>): ReviewPeriods {
  const set = new Set<string>();
  for (const m of months) if (/^\d{4}-(0[1-9]|1[0-2])$/.test(m)) set.add(m);
  const sorted = [...set].sort().reverse();
  return { months: sorted, years: [...new Set(sorted.map((m) => m.slice(0, 4)))] };
}
