/**
 * Single-BPI distribution (docs/domain/stats.md#distributions): how many of the player's charts sit in each BPI
 * band.
 *
 * Needs: the player's bests in the version (one read of BestScore for user + version — the
 * request's bests loader) and the chart source (catalogue) for the charts' level, difficulty and
 * current definition.
 *
 * Rules:
 * - Charts: the player's bests on SP charts in the query's scope (levels default 11 and 12,
 *   difficulties default HYPER/ANOTHER/LEGGENDARIA) that have a current definition; a best with
 *   EX 0 is skipped (as the reference). The BPI is the best EX score's under the current
 *   definition (a NaN BPI counts as -15, the floor).
 * - Buckets: `<-10` (BPI < -10), then one per `step` from -10 while below 100 (`-10` = [-10,
 *   -10+step) …), then `100+` (BPI ≥ 100). Step 10 gives 13 buckets: <-10, -10, 0, …, 90, 100+.
 *   Bucket membership is decided on the BPI in hundredths (integers), so a BPI of exactly 90
 *   is in bucket `90`, never in `80` through a rounding error.
 */
import { BPI_FLOOR } from '../bpi';
import { countBests, type BestInput, type ChartFilter, type ChartSource, type HistogramBucket } from './common';
import type { DistributionStep, StepHistogram } from './query';

export type BpiDistribution = StepHistogram;

/** The empty buckets of a step (labels and bounds). */
export function bpiBuckets(step: DistributionStep): HistogramBucket[] {
  const out: HistogramBucket[] = [{ label: '<-10', from: null, to: -10, count: 0 }];
  for (let b = -10; b < 100; b += step) out.push({ label: String(b), from: b, to: b + step, count: 0 });
  out.push({ label: '100+', from: 100, to: null, count: 0 });
  return out;
}

/** Index of the bucket holding a BPI (see bpiBuckets). */
export function bpiBucketIndex(bpi: number, step: DistributionStep): number {
  const h = Math.round(bpi * 100);
  if (h < -1000) return 0;
  const last = 1 + 110 / step;
  if (h >= 10000) return last;
  return 1 + Math.floor((h + 1000) / (step * 100));
}

export function bpiDistribution(
  source: ChartSource,
  bests: Iterable<BestInput>,
  filter: ChartFilter,
  step: DistributionStep,
): BpiDistribution {
  const { total, buckets } = countBests(source, bests, filter, bpiBuckets(step), (c, exScore) =>
    c.definition ? bpiBucketIndex(source.currentBpi(c.id, exScore) ?? BPI_FLOOR, step) : null,
  );
  return { step, total, buckets };
}
