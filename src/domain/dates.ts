/**
 * The sane range of a play date, one rule for every write (score import, CSV parsers, migration,
 * anything else that stores a play time): from 1999-01-01T00:00:00Z (the first beatmania IIDX
 * was released in February 1999) to one day after now (clock skew, time zones). Pure.
 *
 * A date outside it is refused: a single play dated 9999-12-31 made per-day histories span eight
 * thousand years, and one dated year 200000 could not be serialised at all.
 */
import { badInput } from '../errors';

export const EARLIEST_PLAY_DATE = new Date(Date.UTC(1999, 0, 1));
/** How far in the future a play time may lie. */
export const PLAY_DATE_FUTURE_MS = 24 * 3600 * 1000;

/** True when `d` is a valid Date within EARLIEST_PLAY_DATE … now + 1 day. */
export function isSanePlayDate(d: Date, now: number = Date.now()): boolean {
  const t = d.getTime();
  return Number.isFinite(t) && t >= EARLIEST_PLAY_DATE.getTime() && t <= now + PLAY_DATE_FUTURE_MS;
}

/** The reason a play date is refused, for reports ("play date … is outside 1999-01-01 … <tomorrow>"). */
export function playDateProblem(d: Date, now: number = Date.now()): string | null {
  if (isSanePlayDate(d, now)) return null;
  const shown = Number.isFinite(d.getTime()) ? d.toISOString() : 'Invalid Date';
  return `play date ${shown} is outside ${EARLIEST_PLAY_DATE.toISOString().slice(0, 10)} … ${new Date(now + PLAY_DATE_FUTURE_MS).toISOString().slice(0, 10)}`;
}

/** Throws BAD_USER_INPUT naming `path` when `d` is not a sane play date. */
export function assertPlayDate(d: Date, path: (string | number)[] = ['playedAt'], now: number = Date.now()): Date {
  const problem = playDateProblem(d, now);
  if (problem) throw badInput(`${path.join('.')}: ${problem}`, [{ code: 'out_of_range', path, message: problem }]);
  return d;
}
