/**
 * Score lists (pure): the reference's filters and sort keys (docs/domain/score-lists.md#score-list, docs/domain/score-lists.md#unplayed-charts)
 * over entries of one player's list, and the keyset position of an entry in a sort.
 *
 * Order: the sort key in the asked order; ties by level desc, then title (the catalogue's title
 * order), then chart id — the reference's tie-break plus a unique last key, so the order is total
 * and a cursor (sort value + chart id) names one position whatever rows are added or removed
 * between pages. With a title search, exact title matches come first, then prefix matches, then
 * the other matches (the reference's boost), each group in the asked order.
 * Missing values sort as the reference: BPI −15, EX score / miss count / rates −1, dates 0.
 */
import { lampRank, type ClearLamp, type Difficulty, type RadarCategory } from './constants';

export enum ScoreSortKey {
  TITLE = 'TITLE',
  LEVEL = 'LEVEL',
  BPI = 'BPI',
  EX_SCORE = 'EX_SCORE',
  NOTES = 'NOTES',
  BPM = 'BPM',
  UPDATED_AT = 'UPDATED_AT',
  VERSION = 'VERSION',
  SCORE_RATE = 'SCORE_RATE',
  CLEAR_LAMP = 'CLEAR_LAMP',
  MISS_COUNT = 'MISS_COUNT',
}

export enum SortOrder {
  ASC = 'ASC',
  DESC = 'DESC',
}

/** What a list entry must carry to be filtered and sorted (chart facts + the player's best, if any). */
export interface ListEntry {
  chartId: number;
  title: string;
  difficulty: Difficulty;
  level: number;
  /** null or 0: unknown */
  notes: number | null;
  bpm: string;
  releasedVersion: number | null;
  radarTop?: RadarCategory | null;
  exScore?: number | null;
  bpi?: number | null;
  clearLamp?: ClearLamp | null;
  missCount?: number | null;
  playedAt?: Date | null;
}

export interface ScoreListFilter {
  levels?: readonly number[] | null;
  difficulties?: readonly Difficulty[] | null;
  /** lamp of the best (NO_PLAY matches a best without a lamp and every unplayed chart) */
  clearLamps?: readonly ClearLamp[] | null;
  /** compare `bpi ?? −15` */
  bpiMin?: number | null;
  bpiMax?: number | null;
  /** compare the chart's highest BPM */
  bpmMin?: number | null;
  bpmMax?: number | null;
  /** true: only charts whose BPM changes (a range); false: only fixed-BPM charts */
  soflan?: boolean | null;
  notesMin?: number | null;
  notesMax?: number | null;
  /** case-insensitive substring of the title */
  search?: string | null;
  releasedVersions?: readonly number[] | null;
  radarCategories?: readonly RadarCategory[] | null;
}

export interface ScoreListSort {
  key: ScoreSortKey;
  order: SortOrder;
}

export const DEFAULT_SORT: ScoreListSort = { key: ScoreSortKey.LEVEL, order: SortOrder.DESC };

/** A BPM is soflan when it is a range ("75-300", "180~200"). */
export const isSoflan = (bpm: string) => /[-~]/.test(bpm);

/** The highest BPM of "150" / "75-300" / "180~200" (0 when it names none). */
export function maxBpm(bpm: string): number {
  let max = 0;
  for (const part of bpm.split(/[-~]/)) {
    const n = Number.parseFloat(part);
    if (Number.isFinite(n) && n > max) max = n;
  }
  return max;
}

const within = (v: number, min: number | null | undefined, max: number | null | undefined) =>
  (min == null || v >= min) && (max == null || v <= max);

/** Does the entry pass every filter? */
export function matchesScoreFilter(
  e: ListEntry,
  f: ScoreListFilter,
  searchLower = f.search?.toLowerCase() ?? '',
): boolean {
  if (f.levels?.length && !f.levels.includes(e.level)) return false;
  if (f.difficulties?.length && !f.difficulties.includes(e.difficulty)) return false;
  if (f.clearLamps?.length && !f.clearLamps.includes(e.clearLamp ?? 'NO_PLAY')) return false;
  if ((f.bpiMin != null || f.bpiMax != null) && !within(e.bpi ?? -15, f.bpiMin, f.bpiMax)) return false;
  if ((f.bpmMin != null || f.bpmMax != null) && !within(maxBpm(e.bpm), f.bpmMin, f.bpmMax)) return false;
  if (f.soflan != null && isSoflan(e.bpm) !== f.soflan) return false;
  if ((f.notesMin != null || f.notesMax != null) && !within(e.notes ?? 0, f.notesMin, f.notesMax)) return false;
  if (searchLower && !e.title.toLowerCase().includes(searchLower)) return false;
  if (f.releasedVersions?.length && (e.releasedVersion === null || !f.releasedVersions.includes(e.releasedVersion)))
    return false;
  if (f.radarCategories?.length && (!e.radarTop || !f.radarCategories.includes(e.radarTop))) return false;
  return true;
}

/** The entry's value for a sort key (numbers, or the title's rank in the catalogue's title order). */
export function sortValue(e: ListEntry, key: ScoreSortKey, titleRank: (chartId: number) => number): number {
  switch (key) {
    case ScoreSortKey.TITLE:
      return titleRank(e.chartId);
    case ScoreSortKey.LEVEL:
      return e.level;
    case ScoreSortKey.BPI:
      return e.bpi ?? -15;
    case ScoreSortKey.EX_SCORE:
      return e.exScore ?? -1;
    case ScoreSortKey.NOTES:
      return e.notes || -1;
    case ScoreSortKey.BPM:
      return maxBpm(e.bpm);
    case ScoreSortKey.UPDATED_AT:
      return e.playedAt ? e.playedAt.getTime() : 0;
    case ScoreSortKey.VERSION:
      return e.releasedVersion ?? 0;
    case ScoreSortKey.SCORE_RATE:
      return e.exScore != null && e.notes ? e.exScore / (e.notes * 2) : -1;
    case ScoreSortKey.CLEAR_LAMP:
      return e.exScore == null ? -1 : lampRank(e.clearLamp);
    case ScoreSortKey.MISS_COUNT:
      return e.missCount ?? -1;
  }
}

/** Search boost: 0 exact title, 1 title prefix, 2 other match (0 for all without a search). */
export function searchRank(title: string, searchLower: string): number {
  if (!searchLower) return 0;
  const t = title.toLowerCase();
  return t === searchLower ? 0 : t.startsWith(searchLower) ? 1 : 2;
}

/** A position in a sorted list: [search rank, sort value, level, title rank, chart id]. */
export type SortPosition = readonly [number, number, number, number, number];

/** The position of an entry (its sort value computed) — also how a cursor is turned back into a position. */
export function positionOf(
  chartId: number,
  value: number,
  level: number,
  title: string,
  searchLower: string,
  titleRank: (chartId: number) => number,
): SortPosition {
  return [searchRank(title, searchLower), value, level, titleRank(chartId), chartId];
}

/** Compares two positions in the list's order (negative: a comes first). */
export function comparePositions(a: SortPosition, b: SortPosition, order: SortOrder): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return order === SortOrder.ASC ? a[1] - b[1] : b[1] - a[1];
  if (a[2] !== b[2]) return b[2] - a[2]; // level desc
  if (a[3] !== b[3]) return a[3] - b[3]; // title
  return a[4] - b[4]; // chart id
}

/**
 * A list's rows seen one at a time through one reusable entry (no object per row): `fill` writes
 * row i into `e` (false: not a list row, skipped and not counted); `build` makes the full entry of
 * a row that made the page.
 */
export interface ListSource<T> {
  readonly length: number;
  fill(i: number, e: ListEntry): boolean;
  build(i: number): T;
}

/** A fresh entry for `ListSource.fill` to write into. */
export function scratchEntry(): ListEntry {
  return {
    chartId: 0,
    title: '',
    difficulty: 'ANOTHER',
    level: 0,
    notes: null,
    bpm: '',
    releasedVersion: null,
    radarTop: null,
    exScore: null,
    bpi: null,
    clearLamp: null,
    missCount: null,
    playedAt: null,
  };
}

/** Every list source over an array of entries. */
export function arraySource<T extends ListEntry>(rows: readonly T[]): ListSource<T> {
  return {
    length: rows.length,
    fill: (i, e) => {
      e.radarTop = e.exScore = e.bpi = e.clearLamp = e.missCount = e.playedAt = null;
      Object.assign(e, rows[i]);
      return true;
    },
    build: (i) => rows[i],
  };
}

/**
 * One keyset page of a list: the rows that pass the filter, in the sort's order, after the
 * position `after`, the first `take` of them — and how many rows pass the filter in all.
 * Selection without sorting or copying the list: rows past the cursor go through a bounded sorted
 * buffer of `take` (O(n log take)); a row's position is computed in a reused array and copied only
 * when the row enters the buffer.
 */
export function selectPage<T>(
  src: ListSource<T>,
  filter: ScoreListFilter,
  sort: ScoreListSort,
  titleRank: (chartId: number) => number,
  after: SortPosition | null,
  take: number,
): { rows: { entry: T; value: number }[]; total: number } {
  const searchLower = filter.search?.toLowerCase() ?? '';
  const e = scratchEntry();
  const p = [0, 0, 0, 0, 0] as [number, number, number, number, number];
  const buf: { i: number; p: SortPosition }[] = [];
  let total = 0;
  for (let i = 0; i < src.length; i++) {
    if (!src.fill(i, e) || !matchesScoreFilter(e, filter, searchLower)) continue;
    total++;
    p[0] = searchRank(e.title, searchLower);
    p[1] = sortValue(e, sort.key, titleRank);
    p[2] = e.level;
    p[3] = titleRank(e.chartId);
    p[4] = e.chartId;
    if (after && comparePositions(p, after, sort.order) <= 0) continue;
    if (take === 0 || (buf.length === take && comparePositions(p, buf[take - 1].p, sort.order) >= 0)) continue;
    let lo = 0;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (comparePositions(buf[mid].p, p, sort.order) <= 0) lo = mid + 1;
      else hi = mid;
    }
    buf.splice(lo, 0, { i, p: [p[0], p[1], p[2], p[3], p[4]] });
    if (buf.length > take) buf.pop();
  }
  return { rows: buf.map((x) => ({ entry: src.build(x.i), value: x.p[1] })), total };
}
