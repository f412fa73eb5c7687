/**
 * Rival comparisons, pure (docs/domain/stats.md#rivals): one chart's comparison row, the sorts of
 * the comparison list with a total order (for keyset pages), and the win/loss trend replay.
 */
import { BPI_FLOOR, round2 } from './bpi';

/** One side of a comparison on one chart (null fields: that side has no best). */
export interface SideScore {
  exScore: number;
  bpi: number | null;
  playedAt: Date;
}

export type Outcome = 'WIN' | 'LOSE' | 'DRAW';

/** The comparison of two players on one chart. `exDiff` = (mine ?? 0) − (theirs ?? 0); bpiDiff with −15 for a missing BPI. */
export interface ComparisonRow {
  chartId: number;
  title: string;
  level: number;
  notes: number;
  bpm: string;
  /** the version the chart was released in (null: unknown; the VERSION sort puts it last) */
  releasedVersion?: number | null;
  mine: SideScore | null;
  theirs: SideScore | null;
  exDiff: number;
  bpiDiff: number;
  outcome: Outcome;
}

/** The reference's rule: exDiff with 0 for a missing EX, bpiDiff = round2((myBpi ?? −15) − (theirBpi ?? −15)); outcome by the EX difference. */
export function compareSides(
  chart: { chartId: number; title: string; level: number; notes: number; bpm: string },
  mine: SideScore | null,
  theirs: SideScore | null,
): ComparisonRow {
  const exDiff = (mine?.exScore ?? 0) - (theirs?.exScore ?? 0);
  const bpiDiff = round2((mine?.bpi ?? BPI_FLOOR) - (theirs?.bpi ?? BPI_FLOOR));
  return { ...chart, mine, theirs, exDiff, bpiDiff, outcome: exDiff > 0 ? 'WIN' : exDiff < 0 ? 'LOSE' : 'DRAW' };
}

export type ComparisonSort =
  | 'LEVEL'
  | 'TITLE'
  | 'NOTES'
  | 'BPM'
  | 'MY_EX'
  | 'RIVAL_EX'
  | 'MY_BPI'
  | 'RIVAL_BPI'
  | 'MY_RATE'
  | 'RIVAL_RATE'
  | 'EX_DIFF'
  | 'BPI_DIFF'
  | 'WIN_GAP'
  | 'LOSE_GAP'
  | 'WIN_BPI_GAP'
  | 'LOSE_BPI_GAP'
  | 'MY_PLAYED_AT'
  | 'RIVAL_PLAYED_AT'
  | 'LAST_PLAYED'
  | 'VERSION';

/** The first number of a BPM ("75-150" → 150, the highest). */
const bpmValue = (bpm: string) =>
  Math.max(
    0,
    ...bpm
      .split(/[^0-9.]+/)
      .filter(Boolean)
      .map(Number)
      .filter(Number.isFinite),
  );
const rate = (s: SideScore | null, notes: number) => (s && notes > 0 ? s.exScore / (2 * notes) : -1);
const time = (s: SideScore | null) => (s ? s.playedAt.getTime() : -1);

/**
 * A row's sort key: [group, value]. Rows of group 0 come first whatever the order (the reference's
 * win* keys put the charts I win first, lose* the charts I lose); the value is ordered by `order`.
 * Missing values as the reference: −15 for a BPI, −1 for an EX, a rate or a time.
 */
export function sortKey(row: ComparisonRow, sort: ComparisonSort): [number, number | string] {
  switch (sort) {
    case 'LEVEL':
      return [0, row.level];
    case 'TITLE':
      return [0, row.title];
    case 'NOTES':
      return [0, row.notes];
    case 'BPM':
      return [0, bpmValue(row.bpm)];
    case 'MY_EX':
      return [0, row.mine?.exScore ?? -1];
    case 'RIVAL_EX':
      return [0, row.theirs?.exScore ?? -1];
    case 'MY_BPI':
      return [0, row.mine?.bpi ?? BPI_FLOOR];
    case 'RIVAL_BPI':
      return [0, row.theirs?.bpi ?? BPI_FLOOR];
    case 'MY_RATE':
      return [0, rate(row.mine, row.notes)];
    case 'RIVAL_RATE':
      return [0, rate(row.theirs, row.notes)];
    case 'EX_DIFF':
      return [0, row.exDiff];
    case 'BPI_DIFF':
      return [0, row.bpiDiff];
    case 'WIN_GAP':
      return [row.exDiff > 0 ? 0 : 1, row.exDiff];
    case 'LOSE_GAP':
      return [row.exDiff < 0 ? 0 : 1, -row.exDiff];
    case 'WIN_BPI_GAP':
      return [row.bpiDiff > 0 ? 0 : 1, row.bpiDiff];
    case 'LOSE_BPI_GAP':
      return [row.bpiDiff < 0 ? 0 : 1, -row.bpiDiff];
    case 'MY_PLAYED_AT':
      return [0, time(row.mine)];
    case 'RIVAL_PLAYED_AT':
      return [0, time(row.theirs)];
    case 'LAST_PLAYED':
      return [0, Math.max(time(row.mine), time(row.theirs))];
    case 'VERSION':
      return row.releasedVersion == null ? [1, 0] : [0, row.releasedVersion];
  }
}

/** A position in a sorted comparison list: the sort key and the chart (keyset cursors hold exactly this). */
export interface ComparisonPosition {
  group: number;
  value: number | string;
  chartId: number;
  level: number;
  title: string;
}

/**
 * The total order of a comparison list: group, then the value in `order`, ties by level desc,
 * title (code-point order: stable across processes, unlike localeCompare), chart id.
 */
export function comparePositions(a: ComparisonPosition, b: ComparisonPosition, order: 'ASC' | 'DESC'): number {
  if (a.group !== b.group) return a.group - b.group;
  if (a.value !== b.value) {
    const c =
      typeof a.value === 'string' || typeof b.value === 'string'
        ? String(a.value) < String(b.value)
          ? -1
          : 1
        : a.value - b.value;
    return order === 'ASC' ? c : -c;
  }
  if (a.level !== b.level) return b.level - a.level;
  if (a.title !== b.title) return a.title < b.title ? -1 : 1;
  return a.chartId - b.chartId;
}

export const positionOf = (row: ComparisonRow, sort: ComparisonSort): ComparisonPosition => {
  const [group, value] = sortKey(row, sort);
  return { group, value, chartId: row.chartId, level: row.level, title: row.title };
};

/** One play of either side, for the trend replay. */
export interface TrendPlay {
  side: 'mine' | 'theirs';
  chartId: number;
  exScore: number;
  /** The day it counts on (JST calendar date, YYYY-MM-DD). */
  date: string;
}

export interface TrendPoint {
  date: string;
  delta: number;
  cumulative: number;
}

/**
 * The trend of wins (docs/domain/stats.md#rivals): replays both players' plays in order; per chart
 * each side's best EX so far; outcome +1 (mine higher), −1 (lower), 0 (equal or a side missing). A
 * day's delta is the sum of outcome changes that day; cumulative = wins − losses after the day.
 * Days without plays are absent.
 */
export function winLossTrend(plays: readonly TrendPlay[]): TrendPoint[] {
  const mine = new Map<number, number>();
  const theirs = new Map<number, number>();
  const outcome = (chartId: number) => {
    const m = mine.get(chartId);
    const t = theirs.get(chartId);
    return m === undefined || t === undefined ? 0 : Math.sign(m - t);
  };
  const out: TrendPoint[] = [];
  let cumulative = 0;
  for (const p of plays) {
    const side = p.side === 'mine' ? mine : theirs;
    const before = outcome(p.chartId);
    side.set(p.chartId, Math.max(side.get(p.chartId) ?? -1, p.exScore));
    const d = outcome(p.chartId) - before;
    cumulative += d;
    const last = out[out.length - 1];
    if (last && last.date === p.date) {
      last.delta += d;
      last.cumulative = cumulative;
    } else out.push({ date: p.date, delta: d, cumulative });
  }
  return out;
}
