/**
 * Recommendations from the players nearest my total BPI (docs/domain/stats.md#neighbours): the charts where I
 * am furthest above ("weapons") and below ("potential") the average of my neighbours.
 *
 * Needs (constant SQL):
 * 1. my stored total (PlayerVersionStatus.totalBpi for user + version; none → −15) and my bests
 *    in the version (the request's loaders);
 * 2. the neighbour candidates, two index range scans on PlayerVersionStatus(version, totalBpi):
 *    `(SELECT "userId", "totalBpi" … WHERE "version" = $v AND "userId" <> $me AND "totalBpi" >= $T
 *    ORDER BY "totalBpi" ASC, "userId" LIMIT $n) UNION ALL (… "totalBpi" < $T ORDER BY "totalBpi"
 *    DESC, "userId" LIMIT $n)` — at most 2n rows, of which pickNeighbours keeps n;
 * 3. their bests on my charts: `SELECT "userId", "chartId", "exScore" FROM "BestScore" WHERE
 *    "version" = $v AND "userId" = ANY($neighbours) AND "chartId" = ANY($myCharts)`.
 * The dashboard reads 1 (my total), 2 and 3 in one statement (stats.loaders.ts `neighbourhood`), the
 * neighbours picked in SQL as pickNeighbours does.
 *
 * Rules:
 * - Neighbours: the n other players of the version with a stored total closest to mine
 *   (|their total − mine| ascending, ties by user id). Private players are included — their
 *   scores only enter averages and counts; **no neighbour identity is ever part of the result**
 *   (no ids, names or per-player values).
 * - Charts: my bests on SP charts in the query's scope (levels default 11 and 12, difficulties
 *   default HYPER/ANOTHER/LEGGENDARIA) with a current definition. BPIs are the EX scores' under
 *   the current definitions, mine and theirs alike.
 * - Per chart: neighborCount = neighbours with a best (and a BPI) on it; neighborAvgBpi = their
 *   mean BPI rounded to 2 decimals (summed exactly in hundredths, halves up: the order of the rows
 *   does not matter); bpiDiff = round2(my BPI − neighborAvgBpi). Charts no
 *   neighbour played are left out (as the reference).
 * - Privacy (the reference shows averages of a single neighbour): no average is shown unless at
 *   least MIN_NEIGHBOURS neighbours were found (fewer → usedNeighbors 0 and empty lists), and a
 *   chart is listed only when at least `minPerChart` (MIN_NEIGHBOURS_PER_CHART) of them played it,
 *   so no listed number is one identifiable player's score.
 * - weapons: bpiDiff desc; potential: bpiDiff asc (ties by title, chart id); the same page
 *   [offset, offset + limit) of each; total = charts kept.
 */
import { BPI_FLOOR, round2 } from '../bpi';
import {
  chartScore,
  inScope,
  titleOrder,
  type BestInput,
  type ChartFilter,
  type ChartScore,
  type ChartSource,
} from './common';

/** Neighbourhood size (the reference's `n`): default and largest. */
export const DEFAULT_NEIGHBOURS = 20;
export const MAX_NEIGHBOURS = 200;
/** Neighbours needed before any average is shown. */
export const MIN_NEIGHBOURS = 5;
/** Neighbours needed on a chart before its average is shown. */
export const MIN_NEIGHBOURS_PER_CHART = 3;

export interface NeighbourCandidate {
  userId: string;
  totalBpi: number;
}

/** The n candidates closest to `myTotal` (me excluded), closest first, ties by user id. */
export function pickNeighbours(
  myTotal: number,
  candidates: readonly NeighbourCandidate[],
  myId: string,
  n: number,
): string[] {
  const seen = new Set<string>();
  return candidates
    .filter((c) => c.userId !== myId && !seen.has(c.userId) && seen.add(c.userId))
    .sort(
      (a, b) =>
        Math.abs(Number(a.totalBpi) - myTotal) - Math.abs(Number(b.totalBpi) - myTotal) ||
        (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0),
    )
    .slice(0, n)
    .map((c) => c.userId);
}

export interface NeighbourBest extends BestInput {
  userId: string;
}

export interface NeighbourItem extends ChartScore {
  neighborAvgBpi: number;
  neighborCount: number;
  bpiDiff: number;
}

export interface NeighbourRecommendations {
  myTotalBpi: number;
  usedNeighbors: number;
  weapons: { data: NeighbourItem[]; total: number };
  potential: { data: NeighbourItem[]; total: number };
}

export function neighbourRecommendations(
  source: ChartSource,
  filter: ChartFilter,
  myTotal: number | null,
  myBests: Iterable<BestInput>,
  neighbourIds: readonly string[],
  neighbourBests: Iterable<NeighbourBest>,
  page: { offset: number; limit: number },
  minimum: { neighbours: number; perChart: number } = {
    neighbours: MIN_NEIGHBOURS,
    perChart: MIN_NEIGHBOURS_PER_CHART,
  },
): NeighbourRecommendations {
  const ids = new Set(neighbourIds.length >= minimum.neighbours ? neighbourIds : []);
  const agg = new Map<number, { sum: number; count: number }>();
  for (const b of neighbourBests) {
    if (!ids.has(b.userId)) continue;
    const bpi = source.currentBpi(b.chartId, b.exScore);
    if (bpi === null) continue;
    const a = agg.get(b.chartId) ?? { sum: 0, count: 0 };
    // in hundredths (a BPI is one: round2), an exact integer sum: the mean is the same in whatever
    // order the rows come (a float sum's last bit — and a mean on a .xx5 tie — moved with it)
    a.sum += Math.round(bpi * 100);
    a.count++;
    agg.set(b.chartId, a);
  }
  const items: NeighbourItem[] = [];
  for (const b of myBests) {
    const c = source.chart(b.chartId);
    const a = agg.get(b.chartId);
    if (!c || !c.definition || !inScope(c, filter) || !a || a.count < minimum.perChart) continue;
    const bpi = source.currentBpi(c.id, b.exScore) ?? BPI_FLOOR;
    const avg = Math.round(a.sum / a.count) / 100;
    // the row's own fields set on chartScore's object (a spread of it copied every row through V8's slow clone path)
    const row = chartScore(c, b.exScore, bpi) as NeighbourItem;
    row.neighborAvgBpi = avg;
    row.neighborCount = a.count;
    row.bpiDiff = round2(bpi - avg);
    items.push(row);
  }
  const byTitle = titleOrder(source);
  const tie = (a: NeighbourItem, b: NeighbourItem) => byTitle(a.title, b.title) || a.chartId - b.chartId;
  const slice = (sorted: NeighbourItem[]) => sorted.slice(page.offset, page.offset + page.limit);
  return {
    myTotalBpi: myTotal ?? BPI_FLOOR,
    usedNeighbors: ids.size,
    weapons: { data: slice([...items].sort((a, b) => b.bpiDiff - a.bpiDiff || tie(a, b))), total: items.length },
    potential: { data: slice([...items].sort((a, b) => a.bpiDiff - b.bpiDiff || tie(a, b))), total: items.length },
  };
}
