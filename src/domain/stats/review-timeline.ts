/**
 * The review's replay (review.ts, docs/domain/stats.md#review): a player's plays of the version up
 * to the end of the period replayed in play order into bests, with the total BPI over the total set
 * before the period and after each history group (a JST day of a month review, a month `YYYY-MM` of a
 * year review). The same replay serves the player and each rival (review-rivals.ts).
 */
import { BPI_FLOOR, RunningTotalBpi } from '../bpi';
import { addDays, byPlayTime, jstDate, jstDayStart, type PlayInput, type ReplayedBest } from './common';
import type { ReviewPeriod } from './query';

export interface HistoryPoint {
  date: string;
  value: number;
}

const periodStart = (p: ReviewPeriod) => jstDayStart(p.from);
const periodEnd = (p: ReviewPeriod) => jstDayStart(addDays(p.to, 1));
const groupOf = (p: ReviewPeriod, d: Date) => (p.kind === 'month' ? jstDate(d) : jstDate(d).slice(0, 7));
/** Is an instant in the period? (the bounds computed once) */
export const inPeriodOf = (p: ReviewPeriod) => {
  const start = periodStart(p).getTime();
  const end = periodEnd(p).getTime();
  return (d: Date) => d.getTime() >= start && d.getTime() < end;
};

export interface Timeline {
  start: number;
  end: number;
  history: HistoryPoint[];
  before: Map<number, ReplayedBest>;
  after: Map<number, ReplayedBest>;
  /** the bests after each history group */
  snapshots: { date: string; bests: Map<number, ReplayedBest> }[];
}

/** Replays plays before and in the period; totals over the set after each history group. */
export function timeline(plays: readonly PlayInput[], period: ReviewPeriod, set: ReadonlySet<number>): Timeline {
  const sorted = [...plays].sort(byPlayTime);
  const start = periodStart(period).getTime();
  const end = periodEnd(period).getTime();
  const best = new Map<number, ReplayedBest>();
  // the total over the set, kept up to date as bests improve (one power per improvement)
  const running = new RunningTotalBpi(set.size);
  const apply = (p: PlayInput) => {
    if (improve(best, p) && set.has(p.chartId)) running.set(p.chartId, p.bpi ?? BPI_FLOOR);
  };
  const total = () => running.total();
  let i = 0;
  for (; i < sorted.length && sorted[i].playedAt.getTime() < start; i++) apply(sorted[i]);
  const firstInPeriod = i;
  const before = new Map(best);
  const startTotal = total();
  const history: HistoryPoint[] = [];
  // where each history group ends in `sorted`: the snapshots are replayed from these when read
  const groupEnds: number[] = [];
  while (i < sorted.length && sorted[i].playedAt.getTime() < end) {
    const g = groupOf(period, sorted[i].playedAt);
    for (; i < sorted.length && sorted[i].playedAt.getTime() < end && groupOf(period, sorted[i].playedAt) === g; i++)
      apply(sorted[i]);
    history.push({ date: g, value: total() });
    groupEnds.push(i);
  }
  let snapshots: Timeline['snapshots'] | undefined;
  return {
    start: startTotal,
    end: history.length ? history[history.length - 1].value : startTotal,
    history,
    before,
    after: best,
    // only the radar growth reads them (rarely asked): a copy of every best per group was most of a
    // review's garbage, so they are made on first read by the same replay (same plays, same order)
    get snapshots() {
      return (snapshots ??= replaySnapshots(sorted, firstInPeriod, before, history, groupEnds));
    },
  };
}

/** The play becomes the chart's best when it beats it (or is the first): whether it did. */
function improve(best: Map<number, ReplayedBest>, p: PlayInput): boolean {
  const prev = best.get(p.chartId);
  if (prev && p.exScore <= prev.exScore) return false;
  best.set(p.chartId, { exScore: p.exScore, bpi: p.bpi, playId: p.id, playedAt: p.playedAt });
  return true;
}

/** The bests after each history group: the replay from `before` again, a copy at each group's end. */
function replaySnapshots(
  sorted: readonly PlayInput[],
  firstInPeriod: number,
  before: ReadonlyMap<number, ReplayedBest>,
  history: readonly HistoryPoint[],
  groupEnds: readonly number[],
): Timeline['snapshots'] {
  const best = new Map(before);
  const out: Timeline['snapshots'] = [];
  let i = firstInPeriod;
  for (let g = 0; g < groupEnds.length; g++) {
    for (; i < groupEnds[g]; i++) improve(best, sorted[i]);
    out.push({ date: history[g].date, bests: new Map(best) });
  }
  return out;
}
