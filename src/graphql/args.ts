/**
 * The one place where arguments are parsed: game versions, ids, page sizes and cursors. Every
 * resolver, REST route and service reads them through these helpers, so a bad value is the same
 * clear BAD_USER_INPUT (naming the argument) everywhere, and range checks live here only.
 */
import { isGameVersion, LATEST_VERSION, type GameVersion } from '../domain/constants';
import { badInput, type ErrorIssue } from '../errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './connection';

// ───────────── versions ─────────────

/** The issue for a value that is not a game version (null when it is one). */
export function versionIssue(value: unknown, field = 'version'): ErrorIssue | null {
  return isGameVersion(value) ? null : { code: 'invalid_enum_value', path: [field], message: 'Unknown game version' };
}

/** A required game version (BAD_USER_INPUT naming `field` when unknown). */
export function requireVersion(value: string, field = 'version'): GameVersion {
  const issue = versionIssue(value, field);
  if (issue) throw badInput(`Unknown game version ${JSON.stringify(value)}`, [issue]);
  return value as GameVersion;
}

/** An optional game version: the latest when absent. */
export function parseVersion(value: string | null | undefined, field = 'version'): GameVersion {
  return value === null || value === undefined ? LATEST_VERSION : requireVersion(value, field);
}

// ───────────── BPI targets ─────────────

/** Lowest BPI there is (the floor) and the highest target accepted (far beyond any world record). */
export const BPI_TARGET_MIN = -15;
export const BPI_TARGET_MAX = 200;

/** A target BPI: a finite number in [-15, 200] (BAD_USER_INPUT naming `field` otherwise). */
export function parseBpiTarget(value: number, field = 'bpi'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < BPI_TARGET_MIN || value > BPI_TARGET_MAX) {
    const message = `${field} must be a number between ${BPI_TARGET_MIN} and ${BPI_TARGET_MAX}`;
    throw badInput(message, [{ code: 'out_of_range', path: [field], message }]);
  }
  return value;
}

// ───────────── ids ─────────────

/** Largest value of an integer id column (PostgreSQL `integer`): a larger id cannot exist, and must never reach SQL. */
export const MAX_INT_ID = 2147483647;

/** A GraphQL ID / REST id that must be a positive 32-bit integer (chart, note, song ids). */
export function parseIntId(value: string | number, name: string): number {
  const n = typeof value === 'number' ? value : /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_INT_ID) {
    throw badInput(`Invalid ${name}`, [{ code: 'invalid_id', path: [name], message: `Invalid ${name}` }]);
  }
  return n;
}

/** An id lookup that answers null (not an error) for an id that cannot exist: `chart(id: "x")`. */
export function intIdOrNull(value: string): number | null {
  if (!/^-?\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= -MAX_INT_ID - 1 && n <= MAX_INT_ID ? n : null;
}

// ───────────── pages ─────────────

/** Page size from `first`: default 20, 1–`max` (BAD_USER_INPUT naming `first` otherwise). */
export function pageSize(first: number | null | undefined, max = MAX_PAGE_SIZE, def = DEFAULT_PAGE_SIZE): number {
  if (first === null || first === undefined) return def;
  if (!Number.isInteger(first) || first < 1 || first > max) {
    throw badInput(`first must be between 1 and ${max}`, [{ code: 'too_big', path: ['first'], message: `first must be between 1 and ${max}` }]);
  }
  return first;
}

const invalidCursor = () => badInput('Invalid cursor', [{ code: 'invalid_cursor', path: ['after'], message: 'Invalid cursor' }]);

/** Numbers a cursor may hold (ids, counts, offsets): 32-bit integers, as the columns they page over. */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const cursorPart = (p: unknown) =>
  (typeof p === 'string' && p.length <= 512) || (typeof p === 'number' && Number.isInteger(p) && p >= INT32_MIN && p <= INT32_MAX);

/**
 * The parts of an opaque cursor (`encodeCursor`); BAD_USER_INPUT unless it is a JSON array of
 * `arity` strings and 32-bit integers (a forged 1e300 or 2^40 must never reach SQL, where it would be a 500).
 */
export function decodeCursor(cursor: string, arity: number): (string | number)[] {
  try {
    const parts = cursor.length <= 1024 ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
    if (Array.isArray(parts) && parts.length === arity && parts.every(cursorPart)) {
      return parts;
    }
  } catch {
    /* fall through */
  }
  throw invalidCursor();
}

/** The row offset an offset cursor stands for (0 without one). */
export function offsetFromCursor(after: string | null | undefined): number {
  if (!after) return 0;
  const [n] = decodeCursor(after, 1);
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw badInput('Invalid cursor');
  return n;
}

/** `first` / `after` of an offset-paged list: `{ size, offset }` (rows fetched with take = size + 1: offsetPage). */
export function offsetArgs(args: { first?: number | null; after?: string | null }, max = MAX_PAGE_SIZE, def = DEFAULT_PAGE_SIZE): { size: number; offset: number } {
  return { size: pageSize(args.first, max, def), offset: offsetFromCursor(args.after) };
}

/** A keyset cursor of (ISO time, integer id), the order of most feeds. */
export function timeIdCursor(after: string): { at: Date; id: number } {
  const [iso, id] = decodeCursor(after, 2);
  const at = new Date(String(iso));
  if (Number.isNaN(at.getTime()) || typeof id !== 'number') throw badInput('Invalid cursor');
  return { at, id };
}
