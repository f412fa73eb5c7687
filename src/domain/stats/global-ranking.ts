/**
 * Global ranking by radar category, with the viewer's own radar beside it (docs/domain/stats.md#rankings);
 * and the conversion between radar values and the RadarCache row.
 *
 * Needs:
 * - the category values of every player of the version: one read of RadarCache
 *   (`SELECT c."userId", c."notes", …, u."name", u."profileImage", u."gameId", u."isPublic"
 *   FROM "RadarCache" c JOIN "User" u ON u."id" = c."userId" WHERE c."version" = $v`), `visible`
 *   set per row by the service through the rule table. For large populations the service can
 *   order and page in SQL (`ORDER BY "<column>" DESC, "userId" LIMIT/OFFSET`, the viewer's rank
 *   as `1 + COUNT(*) WHERE "<column>" > mine`) with the same rules; this function defines them.
 * - the viewer's radar: their RadarCache row, or computed live (radar.ts / src/domain/radar.ts)
 *   from their bests when the cache has no row yet — the service says which (`viewerRadarSource`).
 * - filling the cache (a job, later): per player, computeRadar over their bests in the version
 *   (as `User.compare.radar`), stored with radarCacheColumns. Unlike the reference's cron, the
 *   cache holds the same numbers as the live radar (valid-chart rule included) so the ranking and
 *   the viewer's radar agree.
 *
 * Rules: TOTAL_BPI ranks the stored totals (PlayerVersionStatus — the existing globalRanking);
 * a radar category ranks the cached values of that category, in any version with a cache (the
 * reference honours categories only in the latest version and silently falls back). A player
 * without a cache row is not ranked by category. Ranks, paging and masking as ranking.ts.
 */
import type { RadarCategory } from '../constants';
import type { RadarValues } from '../radar';
import { rankRows, type RankingIdentity, type RankingPage, type RankingPageSelector } from './ranking';

/** The RadarCache columns (lower-case category names). */
export interface RadarCacheColumns {
  notes: number;
  chord: number;
  peak: number;
  charge: number;
  scratch: number;
  soflan: number;
}

export function radarCacheColumns(v: RadarValues): RadarCacheColumns {
  return { notes: v.NOTES, chord: v.CHORD, peak: v.PEAK, charge: v.CHARGE, scratch: v.SCRATCH, soflan: v.SOFLAN };
}

export function radarFromCache(c: RadarCacheColumns): RadarValues {
  return {
    NOTES: Number(c.notes),
    CHORD: Number(c.chord),
    PEAK: Number(c.peak),
    CHARGE: Number(c.charge),
    SCRATCH: Number(c.scratch),
    SOFLAN: Number(c.soflan),
  };
}

export type RadarCacheRow = RankingIdentity & RadarCacheColumns;

export interface RadarCategoryRanking extends RankingPage<RadarValues> {
  category: RadarCategory;
  viewerRadar: RadarValues | null;
}

export function radarCategoryRanking(
  rows: readonly RadarCacheRow[],
  category: RadarCategory,
  viewerId: string | null,
  page: RankingPageSelector<RankingIdentity>,
  viewerRadar: RadarValues | null,
): RadarCategoryRanking {
  const withValues = rows.map((r) => ({
    userId: r.userId,
    name: r.name,
    profileImage: r.profileImage,
    gameId: r.gameId,
    visible: r.visible,
    radar: radarFromCache(r),
  }));
  const ranked = rankRows(
    withValues,
    (r) => r.radar[category],
    viewerId,
    page as RankingPageSelector<(typeof withValues)[number]>,
  );
  const strip = <T extends { data: { radar: RadarValues } }>(e: T) => ({ ...e, data: e.data.radar });
  return {
    ...ranked,
    entries: ranked.entries.map(strip),
    self: ranked.self ? strip(ranked.self) : null,
    category,
    viewerRadar,
  };
}
