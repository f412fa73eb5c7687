/**
 * DJ rank distribution (docs/domain/stats.md#distributions): how many of the player's charts reach each DJ rank,
 * MAX- included.
 *
 * Needs: the player's bests in the version (one read of BestScore for user + version) and the
 * chart source (catalogue) for the charts' notes, level and difficulty. No definition needed.
 *
 * Rules:
 * - Charts: the player's bests on SP charts in the query's scope (levels default 11 and 12,
 *   difficulties default HYPER/ANOTHER/LEGGENDARIA); EX 0 and charts with 0 notes are skipped.
 *   No filter is required (the reference refuses a query without level or difficulty; the
 *   default scope is a clear answer, so we give it).
 * - Rank of EX score s on a chart of n notes (max m = 2n): the highest border reached, borders
 *   as ratios of m: E 2/9, D 3/9, C 4/9, B 5/9, A 6/9, AA 7/9, AAA 8/9, MAX- 17/18; below E is F.
 *   Compared in integers (s·9 ≥ m·k, s·18 ≥ m·17), so a score exactly on a border reaches it.
 * - 9 buckets in order F, E, D, C, B, A, AA, AAA, MAX- (AAA counts AAA but not MAX-).
 */
import { countBests, type BestInput, type ChartFilter, type ChartSource, type Histogram } from './common';

export const DJ_RANKS = ['F', 'E', 'D', 'C', 'B', 'A', 'AA', 'AAA', 'MAX-'] as const;
export type DjRank = (typeof DJ_RANKS)[number];

/** The DJ rank of EX score s on a chart of `notes` notes (MAX- at 17/18 of the maximum). */
export function djRankOf(s: number, notes: number): DjRank {
  const m = notes * 2;
  if (!(m > 0) || s <= 0) return 'F';
  if (s * 18 >= m * 17) return 'MAX-';
  for (let k = 8; k >= 2; k--) if (s * 9 >= m * k) return DJ_RANKS[k - 1];
  return 'F';
}

/** Minimum EX score for a border ratio num/den of max m: ceil(m·num/den), in integers. */
export function borderScore(m: number, num: number, den: number): number {
  return Math.floor((m * num + den - 1) / den);
}

export function djRankDistribution(source: ChartSource, bests: Iterable<BestInput>, filter: ChartFilter): Histogram {
  // bounds as fractions of the maximum EX score
  const lower = [0, 2 / 9, 3 / 9, 4 / 9, 5 / 9, 6 / 9, 7 / 9, 8 / 9, 17 / 18];
  const buckets = DJ_RANKS.map((label, i) => ({
    label,
    from: lower[i],
    to: i + 1 < lower.length ? lower[i + 1] : 1,
    count: 0,
  }));
  return countBests(source, bests, filter, buckets, (c, exScore) =>
    c.notes > 0 ? DJ_RANKS.indexOf(djRankOf(exScore, c.notes)) : null,
  );
}
