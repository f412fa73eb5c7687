/**
 * Score-rate distribution (docs/domain/stats.md#distributions): the player's charts by EX score rate
 * (EX / max EX, in percent).
 *
 * Needs: the player's bests in the version (one read of BestScore for user + version) and the
 * chart source (catalogue) for notes, level and difficulty.
 *
 * Rules:
 * - Charts: bests on SP charts in the query's scope (levels default 11 and 12, difficulties
 *   default HYPER/ANOTHER/LEGGENDARIA); EX 0 and charts with 0 notes are skipped.
 * - Buckets `0`, `step`, … below 100 (bucket b = [b, b+step) percent), then `100` (exactly 100 %,
 *   a MAX). Index = min(floor(rate / step), 100 / step), computed in integers
 *   (floor(s·100 / (m·step)) with m = 2·notes), so a rate exactly on a border is in the upper
 *   bucket.
 */
import { countBests, type BestInput, type ChartFilter, type ChartSource, type HistogramBucket } from './common';
import type { DistributionStep, StepHistogram } from './query';

export type ScoreRateDistribution = StepHistogram;

export function scoreRateBucketIndex(s: number, notes: number, step: DistributionStep): number {
  const m = notes * 2;
  const last = 100 / step;
  return Math.min(Math.floor((s * 100) / (m * step)), last);
}

export function scoreRateDistribution(
  source: ChartSource,
  bests: Iterable<BestInput>,
  filter: ChartFilter,
  step: DistributionStep,
): ScoreRateDistribution {
  const buckets: HistogramBucket[] = [];
  for (let b = 0; b < 100; b += step) buckets.push({ label: String(b), from: b, to: b + step, count: 0 });
  buckets.push({ label: '100', from: 100, to: 100, count: 0 });
  const { total } = countBests(source, bests, filter, buckets, (c, exScore) =>
    c.notes > 0 ? scoreRateBucketIndex(Math.min(exScore, c.notes * 2), c.notes, step) : null,
  );
  return { step, total, buckets };
}
