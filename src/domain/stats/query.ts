/**
 * Validation of the stats arguments (docs/domain/stats.md#standard-filter, the "standard stats query", and the
 * per-part arguments: step, groupBy, period, category, dates, months, paging). Every helper
 * returns typed issues naming the argument instead of falling back: the reference silently
 * replaces an unknown version by the latest, drops unknown levels and clears the whole
 * difficulty filter when one value is unknown — we refuse all of these (BAD_USER_INPUT naming
 * the argument, through `orThrow`).
 *
 * A missing argument takes its documented default (version: the latest; levels/difficulties:
 * no filter, i.e. the part's default scope). An empty list is the same as a missing one.
 */
import { badInput } from '../../errors';
import {
  BPI_DIFFICULTIES,
  BPI_LEVELS,
  GAME_VERSIONS,
  LATEST_VERSION,
  RADAR_CATEGORIES,
  isGameVersion,
  type Difficulty,
  type GameVersion,
  type RadarCategory,
} from '../constants';
import { GROUP_BY, isCalendarDate, type ChartFilter, type GroupBy, type Histogram } from './common';

export type IssueCode =
  'invalid_enum_value' | 'invalid_value' | 'invalid_type' | 'out_of_range' | 'invalid_date' | 'custom';

/** One problem with one argument; `path[0]` is the argument's name (same shape as src/errors ErrorIssue). */
export interface StatsIssue {
  code: IssueCode;
  path: (string | number)[];
  message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: StatsIssue[] };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = <T>(...issues: StatsIssue[]): Checked<T> => ({ ok: false, issues });
const issue = (code: IssueCode, arg: string | (string | number)[], message: string): StatsIssue => ({
  code,
  path: Array.isArray(arg) ? arg : [arg],
  message,
});

/** The value, or throws BAD_USER_INPUT with every issue (message: the first one's). */
export function orThrow<T>(r: Checked<T>): T {
  if (r.ok) return r.value;
  throw badInput(r.issues[0].message, r.issues);
}

/** Several checks at once: every issue of every failed one, or all values. */
export function checkAll<T extends Record<string, Checked<unknown>>>(
  checks: T,
): Checked<{ [K in keyof T]: T[K] extends Checked<infer V> ? V : never }> {
  const issues: StatsIssue[] = [];
  const value: Record<string, unknown> = {};
  for (const [k, c] of Object.entries(checks)) {
    if (c.ok) value[k] = c.value;
    else issues.push(...c.issues);
  }
  return issues.length ? fail(...issues) : ok(value as never);
}

// ───────────── the standard stats query (docs/domain/stats.md#standard-filter) ─────────────

export interface StatsQueryInput {
  version?: string | null;
  /** numbers (GraphQL) or strings (REST `?level=12&level=11`) */
  levels?: readonly (number | string)[] | null;
  difficulties?: readonly string[] | null;
}

export interface StatsQuery extends ChartFilter {
  version: GameVersion;
  /** distinct, ascending; null = no filter */
  levels: number[] | null;
  /** distinct, in HYPER, ANOTHER, LEGGENDARIA order; null = no filter */
  difficulties: Difficulty[] | null;
}

/** Argument names as the caller spells them (GraphQL `levels`, REST `level`…). */
export interface QueryNames {
  version: string;
  levels: string;
  difficulties: string;
}
export const GRAPHQL_NAMES: QueryNames = { version: 'version', levels: 'levels', difficulties: 'difficulties' };
export const REST_NAMES: QueryNames = { version: 'version', levels: 'level', difficulties: 'difficulty' };

export function parseVersion(v: string | null | undefined, arg = 'version'): Checked<GameVersion> {
  if (v === null || v === undefined) return ok(LATEST_VERSION);
  if (!isGameVersion(v))
    return fail(
      issue(
        'invalid_enum_value',
        arg,
        `Unknown game version ${JSON.stringify(v)}: expected one of ${GAME_VERSIONS.join(', ')}`,
      ),
    );
  return ok(v);
}

export function parseLevels(
  v: readonly (number | string)[] | null | undefined,
  arg = 'levels',
): Checked<number[] | null> {
  if (!v || v.length === 0) return ok(null);
  const issues: StatsIssue[] = [];
  const out = new Set<number>();
  v.forEach((raw, i) => {
    const n = typeof raw === 'number' ? raw : /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isInteger(n) || !(BPI_LEVELS as readonly number[]).includes(n)) {
      issues.push(
        issue('invalid_value', [arg, i], `${arg} must be ${BPI_LEVELS.join(' or ')} (got ${JSON.stringify(raw)})`),
      );
    } else out.add(n);
  });
  return issues.length ? fail(...issues) : ok([...out].sort((a, b) => a - b));
}

export function parseDifficulties(
  v: readonly string[] | null | undefined,
  arg = 'difficulties',
): Checked<Difficulty[] | null> {
  if (!v || v.length === 0) return ok(null);
  const issues: StatsIssue[] = [];
  const out = new Set<Difficulty>();
  v.forEach((raw, i) => {
    if (!(BPI_DIFFICULTIES as readonly string[]).includes(raw)) {
      issues.push(
        issue(
          'invalid_enum_value',
          [arg, i],
          `${arg} must be ${BPI_DIFFICULTIES.join(', ')} (got ${JSON.stringify(raw)})`,
        ),
      );
    } else out.add(raw as Difficulty);
  });
  return issues.length ? fail(...issues) : ok(BPI_DIFFICULTIES.filter((d) => out.has(d)));
}

/** The standard stats query: version (default latest), levels and difficulties (default: no filter). */
export function parseStatsQuery(input: StatsQueryInput, names: QueryNames = GRAPHQL_NAMES): Checked<StatsQuery> {
  const r = checkAll({
    version: parseVersion(input.version, names.version),
    levels: parseLevels(input.levels, names.levels),
    difficulties: parseDifficulties(input.difficulties, names.difficulties),
  });
  return r;
}

// ───────────── per-part arguments ─────────────

/** day | week | month (weeks start on Monday); default `day`. */
export function parseGroupBy(v: string | null | undefined, arg = 'groupBy', dflt: GroupBy = 'day'): Checked<GroupBy> {
  if (v === null || v === undefined) return ok(dflt);
  if (!(GROUP_BY as readonly string[]).includes(v))
    return fail(issue('invalid_enum_value', arg, `${arg} must be day, week or month (got ${JSON.stringify(v)})`));
  return ok(v as GroupBy);
}

export const DISTRIBUTION_STEPS = [1, 2, 5, 10] as const;
export type DistributionStep = (typeof DISTRIBUTION_STEPS)[number];

/** A histogram counted with a bucket width (the BPI and score-rate distributions). */
export interface StepHistogram extends Histogram {
  step: DistributionStep;
}

/** Bucket width of the BPI and score-rate histograms: 1, 2, 5 or 10 (default 10). */
export function parseStep(v: number | string | null | undefined, arg = 'step'): Checked<DistributionStep> {
  if (v === null || v === undefined) return ok(10);
  const n = typeof v === 'number' ? v : /^\s*\d+\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!(DISTRIBUTION_STEPS as readonly number[]).includes(n))
    return fail(issue('invalid_value', arg, `${arg} must be 1, 2, 5 or 10 (got ${JSON.stringify(v)})`));
  return ok(n as DistributionStep);
}

export type RankingCategory = 'TOTAL_BPI' | RadarCategory;
export const RANKING_CATEGORIES: readonly RankingCategory[] = ['TOTAL_BPI', ...RADAR_CATEGORIES];

/**
 * A radar category (NOTES, CHORD, PEAK, CHARGE, SCRATCH, SOFLAN); with `allowTotal`, also
 * TOTAL_BPI (the global ranking's default). The reference's lower-case REST spellings
 * (`totalBpi`, `notes`…) are accepted; anything else is refused.
 */
export function parseCategory(
  v: string | null | undefined,
  arg = 'category',
  allowTotal = false,
): Checked<RankingCategory> {
  const allowed = allowTotal ? RANKING_CATEGORIES : RADAR_CATEGORIES;
  if (v === null || v === undefined) {
    return allowTotal
      ? ok('TOTAL_BPI')
      : fail(issue('invalid_value', arg, `${arg} is required: one of ${allowed.join(', ')}`));
  }
  const norm = v === 'totalBpi' ? 'TOTAL_BPI' : v.toUpperCase();
  if (!(allowed as readonly string[]).includes(norm))
    return fail(
      issue('invalid_enum_value', arg, `${arg} must be one of ${allowed.join(', ')} (got ${JSON.stringify(v)})`),
    );
  return ok(norm as RankingCategory);
}

/** A JST calendar date `YYYY-MM-DD` (optional unless `required`). */
export function parseDate(v: string | null | undefined, arg: string, required = false): Checked<string | null> {
  if (v === null || v === undefined)
    return required ? fail(issue('invalid_date', arg, `${arg} is required (YYYY-MM-DD)`)) : ok(null);
  if (!isCalendarDate(v))
    return fail(issue('invalid_date', arg, `${arg} must be a calendar date YYYY-MM-DD (got ${JSON.stringify(v)})`));
  return ok(v);
}

/** A date range: both optional, `from` ≤ `to` when both are given. */
export function parseDateRange(
  from: string | null | undefined,
  to: string | null | undefined,
  names: [string, string] = ['from', 'to'],
): Checked<{ from: string | null; to: string | null }> {
  const r = checkAll({ from: parseDate(from, names[0]), to: parseDate(to, names[1]) });
  if (!r.ok) return r;
  if (r.value.from && r.value.to && r.value.from > r.value.to)
    return fail(issue('out_of_range', names[1], `${names[1]} must not be before ${names[0]}`));
  return r;
}

/** A review period: `YYYY-MM` (a month) or `YYYY` (a year). */
export interface ReviewPeriod {
  kind: 'month' | 'year';
  /** `YYYY-MM` or `YYYY` */
  key: string;
  /** first JST date of the period */
  from: string;
  /** last JST date of the period */
  to: string;
}

export function parseReviewPeriod(v: string | null | undefined, arg = 'month'): Checked<ReviewPeriod> {
  if (typeof v === 'string' && /^\d{4}$/.test(v) && Number(v) >= 2000)
    return ok({ kind: 'year', key: v, from: `${v}-01-01`, to: `${v}-12-31` });
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})$/.exec(v) : null;
  if (m && Number(m[1]) >= 2000 && Number(m[2]) >= 1 && Number(m[2]) <= 12) {
    const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
    return ok({ kind: 'month', key: v!, from: `${v}-01`, to: `${v}-${String(last).padStart(2, '0')}` });
  }
  return fail(
    issue('invalid_value', arg, `${arg} must be a month YYYY-MM or a year YYYY (got ${JSON.stringify(v ?? null)})`),
  );
}

/** Offset paging of a bounded list: limit 1..max (default dflt), offset ≥ 0 (default 0). */
export function parsePage(
  limit: number | null | undefined,
  offset: number | null | undefined,
  max = 100,
  dflt = 20,
  names: [string, string] = ['limit', 'offset'],
): Checked<{ limit: number; offset: number }> {
  const issues: StatsIssue[] = [];
  const l = limit ?? dflt;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > max)
    issues.push(issue('out_of_range', names[0], `${names[0]} must be an integer between 1 and ${max}`));
  if (!Number.isInteger(o) || o < 0) issues.push(issue('out_of_range', names[1], `${names[1]} must be an integer ≥ 0`));
  return issues.length ? fail(...issues) : ok({ limit: l, offset: o });
}

/** An integer in [min, max] (default when missing). */
export function parseIntIn(
  v: number | null | undefined,
  arg: string,
  min: number,
  max: number,
  dflt: number,
): Checked<number> {
  const n = v ?? dflt;
  if (!Number.isInteger(n) || n < min || n > max)
    return fail(issue('out_of_range', arg, `${arg} must be an integer between ${min} and ${max}`));
  return ok(n);
}

/** A number in [min, max] (optional: null when missing). */
export function parseNumberIn(
  v: number | null | undefined,
  arg: string,
  min: number,
  max: number,
): Checked<number | null> {
  if (v === null || v === undefined) return ok(null);
  if (!Number.isFinite(v) || v < min || v > max)
    return fail(issue('out_of_range', arg, `${arg} must be a number between ${min} and ${max}`));
  return ok(v);
}

/** `asOf` of the TotalBPI part: missing or "latest" → now (null); else a JST calendar date. */
export function parseAsOf(v: string | null | undefined, arg = 'asOf'): Checked<string | null> {
  if (v === null || v === undefined || v === 'latest') return ok(null);
  return parseDate(v, arg);
}

/** `period` of the tower ranking: day (default) | week (Monday–Sunday) | month. */
export function parsePeriod(v: string | null | undefined, arg = 'period'): Checked<GroupBy> {
  return parseGroupBy(v, arg, 'day');
}
