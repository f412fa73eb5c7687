/**
 * Shared vocabulary of the stats calculators (src/domain/stats/*): the chart facts they read, the
 * player data they are given, the chart scope of the standard stats query, and the calendar
 * rules. Pure: no I/O.
 *
 * Calendar rules, used by every stats part:
 * - A "date" is a JST calendar date (Asia/Tokyo, UTC+9, no DST) written `YYYY-MM-DD`; a play's
 *   date is the JST date of its `playedAt` instant.
 * - Weeks are ISO weeks: they start on **Monday** and a week is keyed by its Monday's date —
 *   except the box plot's, which start on Sunday as the reference's (box-plot.ts).
 * - Months are keyed `YYYY-MM`; weekdays are numbered ISO-style, 1 = Monday … 7 = Sunday; the
 *   review also lists them 0 = Monday … 6 = Sunday (review-lines.ts), as the reference.
 */
import { safeBpi } from '../bpi';
import { BPI_DIFFICULTIES, BPI_LEVELS, PlayStyle, type Difficulty, type RadarCategory } from '../constants';
import { availableIn } from '../totals';

/** The current BPI definition of a chart (null fields: unknown). */
export interface StatsDefinition {
  notes: number;
  wr: number | null;
  kaidenAvg: number | null;
  coef: number | null;
}

/** The chart facts every calculator reads; the in-memory catalogue's CatalogueChart fits it. */
export interface StatsChart {
  id: number;
  songId?: number;
  title: string;
  playStyle: string;
  difficulty: Difficulty;
  level: number;
  notes: number;
  /** "150", or a range "75-300" (soflan) */
  bpm: string;
  releasedVersion: number | null;
  removedInVersion: string | null;
  radarCategory: RadarCategory | null;
  definition: StatsDefinition | null;
}

/**
 * Where the calculators find charts and the BPI of a best. The server's in-memory `Catalogue`
 * (src/modules/songs/songs.catalogue.ts) satisfies it as is, so services pass `ctx.app.catalogue`
 * and no chart is ever read from SQL by a stats part.
 */
export interface ChartSource {
  chart(id: number): StatsChart | undefined;
  charts(): Iterable<StatsChart>;
  /** BPI of an EX score under the chart's current definition (null: no definition / invalid). */
  currentBpi(chartId: number, exScore: number): number | null;
}

/** A source over a plain list of charts (tests, scripts); BPI with src/domain/bpi safeBpi. */
export function chartSource(charts: Iterable<StatsChart>): ChartSource {
  const byId = new Map<number, StatsChart>();
  for (const c of charts) byId.set(c.id, c);
  return {
    chart: (id) => byId.get(id),
    charts: () => byId.values(),
    currentBpi: (id, ex) => {
      const def = byId.get(id)?.definition;
      return def ? safeBpi(ex, def) : null;
    },
  };
}

/** The head of a per-chart row of a stats list: the chart, the player's EX score and its BPI. */
export interface ChartScore {
  chartId: number;
  title: string;
  difficulty: string;
  level: number;
  notes: number;
  exScore: number;
  bpi: number;
}

export const chartScore = (c: StatsChart, exScore: number, bpi: number): ChartScore => ({
  chartId: c.id,
  title: c.title,
  difficulty: c.difficulty,
  level: c.level,
  notes: c.notes,
  exScore,
  bpi,
});

/** A player's best on one chart in one version: a BestScore row (only the fields used). */
export interface BestInput {
  chartId: number;
  exScore: number;
}

/**
 * One stored play (a Score row: one improvement of a best, written by an import). `bpi` is the
 * BPI stored with it (the definition in force at import; null: none).
 */
export interface PlayInput {
  id: number;
  chartId: number;
  exScore: number;
  bpi: number | null;
  playedAt: Date;
}

/** One day of the game's key counter (a TowerEntry row). */
export interface TowerDayInput {
  /** JST game date: `YYYY-MM-DD`, or the Date Prisma returns for a `@db.Date` column (UTC midnight). */
  playDate: string | Date;
  keyCount: number;
  scratchCount: number;
}

/** The chart filter of the standard stats query; null = no filter on that axis (the feature's default). */
export interface ChartFilter {
  levels: readonly number[] | null;
  difficulties: readonly Difficulty[] | null;
}

export const NO_FILTER: ChartFilter = { levels: null, difficulties: null };

/**
 * Does the chart fall in the stats scope? Stats are about SP BPI charts: play style SP, level in
 * the filter (default 11 and 12), difficulty in the filter (default HYPER, ANOTHER, LEGGENDARIA).
 */
export function inScope(c: StatsChart, f: ChartFilter, defaultLevels: readonly number[] = BPI_LEVELS): boolean {
  if (c.playStyle !== PlayStyle.SP) return false;
  const levels = f.levels ?? defaultLevels;
  const diffs: readonly Difficulty[] = f.difficulties ?? BPI_DIFFICULTIES;
  return levels.includes(c.level) && diffs.includes(c.difficulty);
}

/**
 * The charts a "total over N charts" counts in a version: in scope, with a current definition,
 * available in the version (released ≤ version, not removed; INF: all). With the default filter
 * and levels [12] this is exactly the total set of src/domain/totals.ts (inTotalSet).
 */
export function scopeCharts(
  source: ChartSource,
  version: string,
  f: ChartFilter,
  defaultLevels: readonly number[] = BPI_LEVELS,
): StatsChart[] {
  const out: StatsChart[] = [];
  for (const c of source.charts())
    if (c.definition && inScope(c, f, defaultLevels) && availableIn(c, version)) out.push(c);
  return out;
}

/**
 * Title order of a source's charts: the sign of `a.localeCompare(b)` (the lists' title order), from
 * an integer rank per title when both titles have one. The ranks — the source's titles sorted by
 * localeCompare once, titles that compare equal sharing a rank — are remembered per source object:
 * a sort compares a title ~log n times, and localeCompare (~0.5 µs) was a large part of sorting a
 * dashboard's lists. The rank order depends only on the strings, so a title the ranks do not
 * know (a chart added since) is compared by localeCompare and the order stays the same.
 */
const titleRankMemo = new WeakMap<ChartSource, Map<string, number>>();

export function titleOrder(source: ChartSource): (a: string, b: string) => number {
  const known = titleRanks(source);
  return (a, b) => {
    if (a === b) return 0;
    const x = known.get(a);
    const y = known.get(b);
    return x !== undefined && y !== undefined ? x - y : a.localeCompare(b);
  };
}

/** The title ranks of titleOrder (a title the ranks do not know is compared by localeCompare). */
export function titleRanks(source: ChartSource): ReadonlyMap<string, number> {
  let ranks = titleRankMemo.get(source);
  if (!ranks) {
    const titles = [...new Set(Array.from(source.charts(), (c) => c.title))].sort((a, b) => a.localeCompare(b));
    ranks = new Map<string, number>();
    let rank = 0;
    for (let i = 0; i < titles.length; i++) {
      if (i > 0 && titles[i].localeCompare(titles[i - 1]) !== 0) rank++;
      ranks.set(titles[i], rank);
    }
    titleRankMemo.set(source, ranks);
  }
  return ranks;
}

/**
 * `items` sorted (in place) by `before`, then by title order (titleOrder), then by `after`: the order
 * of a comparator `before(a, b) || byTitle(a.title, b.title) || after(a, b)`, each item's title rank
 * looked up once instead of at every comparison.
 */
export function sortWithTitles<T>(
  source: ChartSource,
  items: T[],
  titleOf: (x: T) => string,
  before: (a: T, b: T) => number,
  after: (a: T, b: T) => number,
): T[] {
  const ranks = titleRanks(source);
  const keyed = items.map((x) => ({ x, title: titleOf(x), rank: ranks.get(titleOf(x)) }));
  keyed.sort(
    (a, b) =>
      before(a.x, b.x) ||
      (a.rank !== undefined && b.rank !== undefined
        ? a.rank - b.rank
        : a.title === b.title
          ? 0
          : a.title.localeCompare(b.title)) ||
      after(a.x, b.x),
  );
  for (let i = 0; i < keyed.length; i++) items[i] = keyed[i].x;
  return items;
}

// ───────────── calendar (JST) ─────────────

const JST_MS = 9 * 3600_000;
export const DAY_MS = 86400_000;

/** Days since 1970-01-01 of the JST calendar date of an instant. */
export function jstDayNumber(d: Date): number {
  return Math.floor((d.getTime() + JST_MS) / DAY_MS);
}

// `YYYY-MM-DD` of a day number: a memo of a pure function (not data), bounded.
const dayStrings = new Map<number, string>();

/** `YYYY-MM-DD` of a day number (days since 1970-01-01). */
export function dayString(n: number): string {
  let s = dayStrings.get(n);
  if (s === undefined) {
    s = new Date(n * DAY_MS).toISOString().slice(0, 10);
    if (dayStrings.size < 100_000) dayStrings.set(n, s);
  }
  return s;
}

/** JST calendar date `YYYY-MM-DD` of an instant. */
export function jstDate(d: Date): string {
  return dayString(jstDayNumber(d));
}

/** JST hour 0–23 of an instant. */
export function jstHour(d: Date): number {
  return new Date(d.getTime() + JST_MS).getUTCHours();
}

/** The instant a JST date starts (00:00 JST). */
export function jstDayStart(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00Z`) - JST_MS);
}

/** `YYYY-MM-DD` of a Date holding a calendar date at UTC midnight (Prisma `@db.Date`), or the string itself. */
export function dateOnly(d: string | Date): string {
  // the UTC date of the instant, as toISOString().slice(0, 10), through the memo of dayString
  return typeof d === 'string' ? d : dayString(Math.floor(d.getTime() / DAY_MS));
}

/** Is `s` a real calendar date written `YYYY-MM-DD`? (2025-02-30 is not.) */
export function isCalendarDate(s: unknown): s is string {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
}

export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

const weekdays = new Map<string, number>();

/** ISO weekday of a date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  let w = weekdays.get(date);
  if (w === undefined) {
    const dow = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 = Sunday
    w = dow === 0 ? 7 : dow;
    if (weekdays.size < 100_000) weekdays.set(date, w);
  }
  return w;
}

const mondays = new Map<string, string>();

/** Monday of the ISO week holding the date. */
export function weekStart(date: string): string {
  let m = mondays.get(date);
  if (m === undefined) {
    m = addDays(date, 1 - isoWeekday(date));
    if (mondays.size < 100_000) mondays.set(date, m);
  }
  return m;
}

/** Last day (28–31) of a `YYYY-MM` month. */
export function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

export type GroupBy = 'day' | 'week' | 'month';
export const GROUP_BY: readonly GroupBy[] = ['day', 'week', 'month'];

/** Key of the period holding a date: the date, its week's Monday, or `YYYY-MM`. */
export function periodKey(date: string, groupBy: GroupBy): string {
  return groupBy === 'day' ? date : groupBy === 'week' ? weekStart(date) : date.slice(0, 7);
}

/** Every date from `from` to `to` inclusive (empty when to < from). */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  const last = Date.parse(`${to}T00:00:00Z`) / DAY_MS;
  for (let n = Date.parse(`${from}T00:00:00Z`) / DAY_MS; n <= last; n++) out.push(dayString(n));
  return out;
}

/**
 * Competition ranks ("1224") of values already sorted best first: equal values share the rank of
 * the first of them, the next value's rank counts every row above it.
 */
export function competitionRanks(sorted: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) out.push(i > 0 && sorted[i] === sorted[i - 1] ? out[i - 1] : i + 1);
  return out;
}

/**
 * Competition ranks of one page of a ranking (values sorted best first, the page contiguous in that
 * order) from two counts over the population: `ahead` rows strictly better than the page's first
 * value and `tied` rows equal to it (on this page or before it). A value's rank is 1 + the rows
 * better than it: those ahead of the first value, those tied with it, and the page's rows between.
 */
export function pageCompetitionRanks(values: readonly number[], ahead: number, tied: number): number[] {
  const out: number[] = [];
  let belowFirst = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === values[0]) out.push(1 + ahead);
    else out.push(values[i] === values[i - 1] ? out[i - 1] : 1 + ahead + tied + belowFirst);
    if (values[i] !== values[0]) belowFirst++;
  }
  return out;
}

/** Plays in time order: by playedAt, then id (the import order of plays stamped with the same time). */
export const byPlayTime = (a: PlayInput, b: PlayInput) => a.playedAt.getTime() - b.playedAt.getTime() || a.id - b.id;

/** A histogram: ordered buckets with their bounds (null: open end) and counts. */
export interface HistogramBucket {
  label: string;
  /** lower bound, inclusive (null: open) */
  from: number | null;
  /** upper bound, exclusive (null: open) — for the last bucket of a closed scale, inclusive */
  to: number | null;
  count: number;
}

export interface Histogram {
  /** charts counted */
  total: number;
  buckets: HistogramBucket[];
}

/**
 * Counts the player's bests into `buckets` (counts starting at 0): a best on a chart in the scope
 * with an EX score above 0 goes to the bucket `bucketOf` names (null: not counted). The distributions
 * (BPI, score rate, DJ rank) differ only in their buckets and in `bucketOf`.
 */
export function countBests(
  source: ChartSource,
  bests: Iterable<BestInput>,
  filter: ChartFilter,
  buckets: HistogramBucket[],
  bucketOf: (c: StatsChart, exScore: number) => number | null,
): Histogram {
  let total = 0;
  for (const b of bests) {
    const c = source.chart(b.chartId);
    if (!c || !inScope(c, filter) || b.exScore <= 0) continue;
    const i = bucketOf(c, b.exScore);
    if (i === null) continue;
    buckets[i].count++;
    total++;
  }
  return { total, buckets };
}

/** A best EX rebuilt from plays, with the BPI stored on the play that set it. */
export interface ReplayedBest {
  exScore: number;
  bpi: number | null;
  playId: number;
  playedAt: Date;
}

/**
 * Best EX per chart from plays in play-time order (playedAt, then id); a play replaces the best
 * only with a strictly higher EX (a lamp-only improvement never lowers it). `before`: only plays
 * strictly earlier than that instant.
 */
export function replayBests(
  plays: readonly PlayInput[],
  before?: Date,
  into = new Map<number, ReplayedBest>(),
): Map<number, ReplayedBest> {
  const sorted = [...plays].sort(byPlayTime);
  for (const p of sorted) {
    if (before && p.playedAt.getTime() >= before.getTime()) break;
    const prev = into.get(p.chartId);
    if (!prev || p.exScore > prev.exScore)
      into.set(p.chartId, { exScore: p.exScore, bpi: p.bpi, playId: p.id, playedAt: p.playedAt });
  }
  return into;
}
