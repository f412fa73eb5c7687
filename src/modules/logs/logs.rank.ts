/**
 * My rank among the players I follow, before and after a batch or a period (docs/domain/score-lists.md#logs-and-batches).
 * Both the single batch and the day / week / month details use it, as the reference's views do.
 */
import { visibleThroughFollow } from '../../db/visibility';
import type { AreaScope } from '../area';

export interface RivalRankInfo {
  myRankBefore: number;
  myRankAfter: number;
  totalRivals: number;
}

/** The part of a score entry the ranks read: the chart, my best after and (if any) before. */
export interface RankedEntry {
  chartId: number;
  current: { exScore: number };
  previous: { exScore: number } | null;
}

/**
 * Per chart, my rank among the players I follow and may see (public, or approved) who have a best
 * on it in the version — their CURRENT bests, as the reference: before = 1 + rivals strictly above
 * my previous best (rivals + 1 without one), after = 1 + rivals strictly above my new best. Counts
 * only: no rival is named, so a private rival stays anonymous. One statement for all the entries.
 * Charts no followed player has played are absent (the entry's field is null).
 */
export async function rivalRanks(
  db: AreaScope['db'],
  userId: string,
  version: string,
  entries: readonly RankedEntry[],
): Promise<Map<number, RivalRankInfo>> {
  const out = new Map<number, RivalRankInfo>();
  if (!entries.length) return out;
  const rows = await db.$queryRawUnsafe<{ chartId: number; exScore: number }[]>(
    `SELECT b."chartId", b."exScore" FROM "BestScore" b
       JOIN "Follow" f ON f."followingId" = b."userId" AND f."followerId" = $1
       JOIN "User" r ON r."id" = b."userId"
      WHERE b."version" = $2 AND b."chartId" = ANY($3::int[]) AND ${visibleThroughFollow('f', 'r').sql}`,
    userId,
    version,
    entries.map((e) => e.chartId),
  );
  const byChart = new Map<number, number[]>();
  for (const r of rows) {
    const list = byChart.get(Number(r.chartId));
    if (list) list.push(Number(r.exScore));
    else byChart.set(Number(r.chartId), [Number(r.exScore)]);
  }
  for (const e of entries) {
    const rivals = byChart.get(e.chartId);
    if (!rivals?.length) continue;
    const above = (ex: number) => rivals.filter((x) => x > ex).length;
    out.set(e.chartId, {
      myRankBefore: e.previous ? 1 + above(e.previous.exScore) : rivals.length + 1,
      myRankAfter: 1 + above(e.current.exScore),
      totalRivals: rivals.length,
    });
  }
  return out;
}

/** Sets each entry's `rivalRankInfo` (null where no followed player has played the chart). */
export async function withRivalRanks<E extends RankedEntry & { rivalRankInfo: RivalRankInfo | null }>(
  db: AreaScope['db'],
  userId: string,
  version: string,
  entries: E[],
): Promise<E[]> {
  const ranks = await rivalRanks(db, userId, version, entries);
  for (const e of entries) e.rivalRankInfo = ranks.get(e.chartId) ?? null;
  return entries;
}
