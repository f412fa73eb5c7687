/**
 * The one place where arguments are parsed: game versions, ids, page sizes and cursors. Every
 * resolver, REST route and service reads them through these helpers, so a bad value is the same
 * clear BAD_USER_INPUT (naming the argument) everywhere, and range checks live here only.
 */
import { isGameVersion, LATEST_VERSION, type GameVersion } from '../domain/constants';
import {
  DEFAULT_SORT,
  type ScoreListFilter,
  type ScoreListSort,
  type ScoreSortKey,
  type SortOrder,
} from '../domain/score-list';
import { badInput, type ErrorIssue } from '../errors';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  openCursorPart,
  type Keyset,
  type KeyKind,
  type KeyValues,
} from './connection';

export type { Keyset, KeyKind, KeyValues };

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

/**
 * A target BPI for the inverse (`Chart.exForBpi`): any finite number, as the reference's inverse takes;
 * the EX it answers is clamped to 0 … notes × 2 (docs/domain/bpi.md). BAD_USER_INPUT naming `field` otherwise.
 */
export function parseFiniteBpi(value: number, field = 'bpi'): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    const message = `${field} must be a finite number`;
    throw badInput(message, [{ code: 'not_finite', path: [field], message }]);
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
    throw badInput(`first must be between 1 and ${max}`, [
      { code: 'too_big', path: ['first'], message: `first must be between 1 and ${max}` },
    ]);
  }
  return first;
}

const invalidCursor = () =>
  badInput('Invalid cursor', [{ code: 'invalid_cursor', path: ['after'], message: 'Invalid cursor' }]);

/** Numbers a cursor may hold (ids, counts, offsets): 32-bit integers, as the columns they page over. */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const cursorPart = (p: unknown) =>
  (typeof p === 'string' && p.length <= 512) ||
  (typeof p === 'number' && Number.isInteger(p) && p >= INT32_MIN && p <= INT32_MAX);

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

// ───────────── keyset pages (first/after, last/before) ─────────────

/** `first` / `after` (forward) or `last` / `before` (backward) of a keyset-paged connection. */
export interface KeysetArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

const cursorIssue = (arg: string, message = 'Invalid cursor') =>
  badInput(message, [{ code: 'invalid_cursor', path: [arg], message }]);

/**
 * Parses a keyset connection's arguments. Forward with `first` / `after`, backward with `last` /
 * `before` (Relay); mixing the directions is BAD_USER_INPUT naming the argument. The cursor must be
 * one of this list's (`tag`: the list and its sort) holding `kinds`; anything else — garbage, a
 * forged number, another list's or another sort's cursor — is BAD_USER_INPUT naming `after` / `before`.
 */
export function keyset<const K extends readonly KeyKind[]>(
  args: KeysetArgs,
  tag: string,
  kinds: K,
  opts: { max?: number; def?: number; key?: Buffer } = {},
): Keyset<KeyValues<K>> {
  const max = opts.max ?? MAX_PAGE_SIZE;
  const def = opts.def ?? DEFAULT_PAGE_SIZE;
  const has = (v: unknown) => v !== null && v !== undefined;
  const backward = has(args.last) || has(args.before);
  if (backward && has(args.first)) {
    const message = has(args.last)
      ? 'first and last cannot be used together'
      : 'first cannot be used with before (use last)';
    throw badInput(message, [{ code: 'invalid_argument', path: [has(args.last) ? 'last' : 'first'], message }]);
  }
  if (backward && has(args.after)) {
    const message = 'after cannot be used with last / before (use first)';
    throw badInput(message, [{ code: 'invalid_argument', path: ['after'], message }]);
  }
  let size: number;
  if (backward) {
    const last = args.last;
    if (last === null || last === undefined) size = def;
    else if (!Number.isInteger(last) || last < 1 || last > max) {
      throw badInput(`last must be between 1 and ${max}`, [
        { code: 'too_big', path: ['last'], message: `last must be between 1 and ${max}` },
      ]);
    } else size = last;
  } else size = pageSize(args.first, max, def);
  const arg = backward ? 'before' : 'after';
  const cursor = backward ? args.before : args.after;
  if (!cursor) return { size, backward, key: null };
  let parts: (string | number)[];
  try {
    parts = decodeCursor(cursor, kinds.length + 1);
  } catch {
    throw cursorIssue(arg);
  }
  if (parts[0] !== tag)
    throw cursorIssue(
      arg,
      `Invalid ${arg} cursor: it belongs to another list or sort (keep the arguments the same while paging)`,
    );
  const values = kinds.map((kind, i) => {
    const p = parts[i + 1];
    switch (kind) {
      case 'int':
        if (typeof p === 'number') return p;
        break;
      case 'str':
        if (typeof p === 'string') return p;
        break;
      case 'num': {
        const n = typeof p === 'string' && p.trim() !== '' ? Number(p) : NaN;
        if (Number.isFinite(n)) return n;
        break;
      }
      case 'time': {
        const d = typeof p === 'string' && /^\d{4}-\d\d-\d\dT/.test(p) ? new Date(p) : null;
        if (d && !Number.isNaN(d.getTime())) return d;
        break;
      }
      case 'sealed': {
        const v = typeof p === 'string' && opts.key ? openCursorPart(opts.key, tag, p) : null;
        if (v !== null) return v;
        break;
      }
    }
    throw cursorIssue(arg);
  });
  return { size, backward, key: values as unknown as KeyValues<K> };
}

// ───────────── chart filters and search text ─────────────

/** An optional list of chart levels (1–12, at most 12 values): null when absent; sorted, distinct. */
export function parseLevels(value: readonly number[] | null | undefined, field = 'levels'): number[] | null {
  if (value === null || value === undefined) return null;
  if (value.length > 12 || value.some((l) => !Number.isInteger(l) || l < 1 || l > 12)) {
    throw badInput(`${field} must be levels between 1 and 12`, [
      { code: 'invalid_level', path: [field], message: `${field} must be levels between 1 and 12` },
    ]);
  }
  return [...new Set(value)].sort((a, b) => a - b);
}

/** An optional list of enum values (already validated by GraphQL): null when absent; sorted, distinct. */
export function parseEnumList<T extends string>(value: readonly T[] | null | undefined): T[] | null {
  return value === null || value === undefined ? null : [...new Set(value)].sort();
}

/** An optional search text: trimmed, 1–`max` characters (null when absent or empty after trimming). */
export function parseSearch(value: string | null | undefined, field = 'search', max = 100): string | null {
  if (value === null || value === undefined) return null;
  const t = value.trim();
  if (!t) return null;
  if (t.length > max)
    throw badInput(`${field} is longer than ${max} characters`, [
      { code: 'too_big', path: [field], message: `${field} is longer than ${max} characters` },
    ]);
  return t;
}

// ───────────── argument issues found by a domain validator ─────────────

/**
 * Throws BAD_USER_INPUT for the issues a pure validator found (src/domain: `{argument, message}`),
 * the message naming the first argument at fault; does nothing when there are none.
 */
export function refuseIssues(issues: readonly { argument: string; message: string }[]): void {
  if (issues.length === 0) return;
  throw badInput(
    issues.map((i) => i.message).join('; '),
    issues.map((i) => ({
      code: 'invalid_argument',
      path: i.argument
        .split(/[.[\]]+/)
        .filter(Boolean)
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      message: i.message,
    })),
  );
}

// ───────────── ranges, lists, text ─────────────

const argIssue = (name: string, message: string): ErrorIssue => ({ code: 'invalid_value', path: [name], message });

/** An optional [min, max] pair: each within [lo, hi] (integers when `integer`), min ≤ max; BAD_USER_INPUT naming the argument. */
export function rangeArgs(
  min: number | null | undefined,
  max: number | null | undefined,
  names: [string, string],
  bounds: { lo: number; hi: number; integer?: boolean },
): { min: number | null; max: number | null } {
  const check = (v: number | null | undefined, name: string) => {
    if (v === null || v === undefined) return null;
    if (!Number.isFinite(v) || (bounds.integer && !Number.isInteger(v)) || v < bounds.lo || v > bounds.hi) {
      const message = `${name} must be ${bounds.integer ? 'an integer ' : ''}between ${bounds.lo} and ${bounds.hi}`;
      throw badInput(message, [argIssue(name, message)]);
    }
    return v;
  };
  const a = check(min, names[0]);
  const b = check(max, names[1]);
  if (a !== null && b !== null && a > b) {
    const message = `${names[0]} must not exceed ${names[1]}`;
    throw badInput(message, [argIssue(names[0], message)]);
  }
  return { min: a, max: b };
}

/** An optional list of integers within [lo, hi] (at most `maxItems`); BAD_USER_INPUT naming the argument. */
export function intListArg(
  values: readonly number[] | null | undefined,
  name: string,
  lo: number,
  hi: number,
  maxItems = 50,
): number[] | null {
  if (!values?.length) return null;
  if (values.length > maxItems || values.some((v) => !Number.isInteger(v) || v < lo || v > hi)) {
    const message = `${name} must list at most ${maxItems} integers between ${lo} and ${hi}`;
    throw badInput(message, [argIssue(name, message)]);
  }
  return [...values];
}

/** An optional search text: trimmed (empty = none), at most `maxLength` characters; BAD_USER_INPUT naming the argument. */
export function textArg(value: string | null | undefined, name: string, maxLength = 100): string | null {
  const t = value?.trim() ?? '';
  if (t.length > maxLength) {
    const message = `${name} must be at most ${maxLength} characters`;
    throw badInput(message, [argIssue(name, message)]);
  }
  return t || null;
}

/** Filters and sort of a score list (User.scores, allDifficultyScores, unplayedCharts), checked. */
export function scoreListArgs(a: ScoreListFilter & { sort?: ScoreSortKey | null; order?: SortOrder | null }): {
  filter: ScoreListFilter;
  sort: ScoreListSort;
} {
  const bpi = rangeArgs(a.bpiMin, a.bpiMax, ['bpiMin', 'bpiMax'], { lo: -15, hi: 10_000 });
  const bpm = rangeArgs(a.bpmMin, a.bpmMax, ['bpmMin', 'bpmMax'], { lo: 0, hi: 10_000 });
  const notes = rangeArgs(a.notesMin, a.notesMax, ['notesMin', 'notesMax'], { lo: 0, hi: 100_000, integer: true });
  return {
    filter: {
      levels: intListArg(a.levels, 'levels', 1, 12),
      difficulties: a.difficulties?.length ? [...a.difficulties] : null,
      clearLamps: a.clearLamps?.length ? [...a.clearLamps] : null,
      bpiMin: bpi.min,
      bpiMax: bpi.max,
      bpmMin: bpm.min,
      bpmMax: bpm.max,
      soflan: a.soflan ?? null,
      notesMin: notes.min,
      notesMax: notes.max,
      search: textArg(a.search, 'search'),
      releasedVersions: intListArg(a.releasedVersions, 'releasedVersions', 1, 99),
      radarCategories: a.radarCategories?.length ? [...a.radarCategories] : null,
    },
    sort: { key: a.sort ?? DEFAULT_SORT.key, order: a.order ?? DEFAULT_SORT.order },
  };
}
