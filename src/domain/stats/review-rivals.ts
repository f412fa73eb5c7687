/**
 * The review's rivals (review.ts, docs/domain/stats.md#review): per followed rival the viewer may see,
 * the total BPI start / end / growth on the player's rules, the charts won and lost between the start
 * and the end of the period and the widest wins; and the growth ranking of the player among them.
 */
import { BPI_FLOOR, round2 } from '../bpi';
import type { ChartSource, PlayInput } from './common';
import type { ReviewPeriod } from './query';
import { timeline, type HistoryPoint, type Timeline } from './review-timeline';

export const REVIEW_VIEWER_NAME = 'あなた';
export const TOP_WINNING_SONGS = 10;

export interface ReviewRivalInput {
  userId: string;
  name: string;
  profileImage: string | null;
  /** the rival's plays of the version before the end of the period */
  plays: readonly PlayInput[];
}

export interface ReviewRival {
  userId: string;
  name: string;
  profileImage: string | null;
  bpiStart: number;
  bpiEnd: number;
  bpiGrowth: number;
  history: HistoryPoint[];
  newWins: number;
  newLosses: number;
  topWinningSongs: {
    chartId: number;
    title: string;
    difficulty: string;
    level: number;
    myExScore: number;
    rivalExScore: number;
    margin: number;
  }[];
}

export interface GrowthEntry {
  /** null for the viewer */
  userId: string | null;
  name: string;
  isViewer: boolean;
  bpiStart: number;
  bpiEnd: number;
  growth: number;
  growthRate: number | null;
}

const byName = (a: { name: string; userId: string | null }, b: { name: string; userId: string | null }) =>
  a.name.localeCompare(b.name) ||
  ((a.userId ?? '') < (b.userId ?? '') ? -1 : (a.userId ?? '') > (b.userId ?? '') ? 1 : 0);

/**
 * Each rival against the player (`me`: the player's replay) on SP ☆11/☆12 BPI charts both have
 * played (`bpiChart`: undefined for other charts), sorted by newWins − newLosses desc, then name.
 */
export function reviewRivals(
  source: ChartSource,
  period: ReviewPeriod,
  set: ReadonlySet<number>,
  me: Timeline,
  rivals: readonly ReviewRivalInput[],
  bpiCharts: (chartId: number) => unknown,
): ReviewRival[] {
  const outcome = (mine: number | undefined, theirs: number | undefined) =>
    mine === undefined || theirs === undefined ? 0 : Math.sign(mine - theirs);
  const out: ReviewRival[] = rivals.map((r) => {
    const t = timeline(r.plays, period, set);
    let newWins = 0;
    let newLosses = 0;
    const winning: ReviewRival['topWinningSongs'] = [];
    const charts = new Set([...me.after.keys()].filter((id) => t.after.has(id) && bpiCharts(id)));
    for (const id of charts) {
      const endO = outcome(me.after.get(id)!.exScore, t.after.get(id)!.exScore);
      const startO = outcome(me.before.get(id)?.exScore, t.before.get(id)?.exScore);
      if (endO > 0 && startO <= 0) newWins++;
      if (endO < 0 && startO >= 0) newLosses++;
      if (endO > 0) {
        const c = source.chart(id)!;
        const mine = me.after.get(id)!.exScore;
        const theirs = t.after.get(id)!.exScore;
        winning.push({
          chartId: id,
          title: c.title,
          difficulty: c.difficulty,
          level: c.level,
          myExScore: mine,
          rivalExScore: theirs,
          margin: mine - theirs,
        });
      }
    }
    winning.sort((a, b) => b.margin - a.margin || a.title.localeCompare(b.title) || a.chartId - b.chartId);
    return {
      userId: r.userId,
      name: r.name,
      profileImage: r.profileImage,
      bpiStart: t.start,
      bpiEnd: t.end,
      bpiGrowth: round2(t.end - t.start),
      history: t.history,
      newWins,
      newLosses,
      topWinningSongs: winning.slice(0, TOP_WINNING_SONGS),
    };
  });
  return out.sort((a, b) => b.newWins - b.newLosses - (a.newWins - a.newLosses) || byName(a, b));
}

/** Me and the rivals by growth (desc) and by growth rate (non-null rates, desc); ties by name. */
export function reviewGrowthRanking(
  me: Pick<Timeline, 'start' | 'end'>,
  rivals: readonly ReviewRival[],
): { byAbsGrowth: GrowthEntry[]; byGrowthRate: GrowthEntry[] } {
  const entry = (userId: string | null, name: string, isViewer: boolean, start: number, end: number): GrowthEntry => {
    const growth = round2(end - start);
    return {
      userId,
      name,
      isViewer,
      bpiStart: start,
      bpiEnd: end,
      growth,
      growthRate: start > BPI_FLOOR ? round2((growth / (start - BPI_FLOOR)) * 100) : null,
    };
  };
  const everyone = [
    entry(null, REVIEW_VIEWER_NAME, true, me.start, me.end),
    ...rivals.map((r) => entry(r.userId, r.name, false, r.bpiStart, r.bpiEnd)),
  ];
  return {
    byAbsGrowth: [...everyone].sort((a, b) => b.growth - a.growth || byName(a, b)),
    byGrowthRate: everyone
      .filter((e) => e.growthRate !== null)
      .sort((a, b) => b.growthRate! - a.growthRate! || byName(a, b)),
  };
}
