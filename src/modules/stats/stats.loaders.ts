import type { Db } from '../../db/client';
import { Prisma, type PlayerVersionStatus } from '../../generated/prisma/client';
import { LATEST_VERSION } from '../../domain/constants';
import { groupBy, inKeyOrder, loader } from '../../graphql/loaders';

export interface AreaRankRow {
  area: string;
  areaRank: number;
  totalInArea: number;
}

/** Loaders of the stats area: `ctx.loaders.stats.<name>`. */
export function createStatsLoaders(db: Db) {
  return {
    /** userId → PlayerVersionStatus rows (total BPI and arena status per version) */
    statuses: loader<string, PlayerVersionStatus[]>(async (ids) => {
      const rows = await db.playerVersionStatus.findMany({ where: { userId: { in: [...ids] } } });
      return inKeyOrder(ids, groupBy(rows, (r) => r.userId), []);
    }),
    /** stored game id (8 digits) → area rank in the latest official arena snapshot of the latest version */
    areaRank: loader<string, AreaRankRow | null>(async (gameIds) => {
      const ids = Prisma.join([...gameIds]);
      const rows = await db.$queryRaw<{ gameId: string; area: string; pos: number; total: number }[]>(Prisma.sql`
        WITH snap AS (
          SELECT id FROM "ArenaSnapshot" WHERE version = ${LATEST_VERSION} ORDER BY "fetchedAt" DESC, id DESC LIMIT 1
        ), ranked AS (
          SELECT e."gameId", e.area,
                 ROW_NUMBER() OVER (PARTITION BY e.area ORDER BY e."arenaClass", e.rank ASC NULLS LAST, e."gameId") AS pos,
                 COUNT(*) OVER (PARTITION BY e.area) AS total
            FROM "ArenaEntry" e JOIN snap ON e."snapshotId" = snap.id
           WHERE e."arenaClass"::text IN ('A1', 'A2', 'A3', 'A4', 'A5') AND e.area IS NOT NULL
             AND e.area IN (SELECT x.area FROM "ArenaEntry" x JOIN snap ON x."snapshotId" = snap.id WHERE x."gameId" IN (${ids}))
        )
        SELECT "gameId", area, pos::int AS pos, total::int AS total FROM ranked WHERE "gameId" IN (${ids})`);
      return inKeyOrder(gameIds, new Map(rows.map((r) => [r.gameId, { area: r.area, areaRank: Number(r.pos), totalInArea: Number(r.total) }])), null);
    }),
  };
}

export type StatsLoaders = ReturnType<typeof createStatsLoaders>;
