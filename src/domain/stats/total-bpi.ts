/**
 * TotalBPI now or as of a date (docs/domain/stats.md#total-bpi-now, docs/domain/bpi.md#which-n), with the estimated rank, the played
 * count and the chart count N used.
 *
 * Needs, now: the player's bests in the version (one read of BestScore for user + version).
 * As of a date: the player's plays of the version played before the end of that JST day (one
 * read of Score for user + version with `playedAt < jstDayStart(date + 1)`; index
 * (userId, version, playedAt)). Both with the chart source (catalogue).
 *
 * N (one definition, src/domain/totals.ts — the stored total's): SP level-12 charts with a
 * current definition available in the version. Played count = charts of that set with a best.
 * The reference's N here counts every level-12 chart of every version and its played count
 * includes charts absent from N; we use the one set so this number equals the stored total
 * (PlayerVersionStatus) and the last point of the trend.
 *
 * BPI of a best: now → the EX score's under the current definition (like the stored total);
 * as of a date → the BPI stored with the play that set the best EX by then (the definition in
 * force at its import, like the trend), so a past date shows what the total was then.
 * Estimated rank = ceil(2699^((100 − total)/100)) (src/domain/bpi estimateRankFromTotal).
 */
import { estimateRankFromTotal } from '../bpi';
import { inTotalSet, totalOverSet } from '../totals';
import { addDays, jstDayStart, replayBests, type BestInput, type ChartSource, type PlayInput } from './common';

export interface TotalBpiResult {
  version: string;
  /** the JST date the total is computed for; null = now */
  asOf: string | null;
  totalBpi: number;
  estimatedRank: number;
  playedCount: number;
  /** N, the number of charts the total is computed over */
  chartCount: number;
}

/** Ids of the total set of a version (SP ☆12, current definition, available). */
export function totalSet(source: ChartSource, version: string): Set<number> {
  const ids = new Set<number>();
  for (const c of source.charts()) if (inTotalSet(c, version)) ids.add(c.id);
  return ids;
}

function result(
  version: string,
  asOf: string | null,
  set: Set<number>,
  bpis: Map<number, number | null>,
): TotalBpiResult {
  const t = totalOverSet(set, bpis);
  return {
    version,
    asOf,
    totalBpi: t.totalBpi,
    estimatedRank: estimateRankFromTotal(t.totalBpi),
    playedCount: t.playedCount,
    chartCount: set.size,
  };
}

export function totalBpiNow(source: ChartSource, version: string, bests: Iterable<BestInput>): TotalBpiResult {
  const bpis = new Map<number, number | null>();
  for (const b of bests) bpis.set(b.chartId, source.currentBpi(b.chartId, b.exScore));
  return result(version, null, totalSet(source, version), bpis);
}

/** The instant a JST date ends (exclusive): the start of the next JST day. */
export const endOfJstDay = (date: string): Date => jstDayStart(addDays(date, 1));

export function totalBpiAsOf(
  source: ChartSource,
  version: string,
  plays: readonly PlayInput[],
  date: string,
): TotalBpiResult {
  const bests = replayBests(plays, endOfJstDay(date));
  const bpis = new Map<number, number | null>();
  for (const [chartId, b] of bests) bpis.set(chartId, b.bpi);
  return result(version, date, totalSet(source, version), bpis);
}
