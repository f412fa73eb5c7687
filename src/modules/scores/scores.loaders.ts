import type { Db } from '../../db/client';
import { Prisma, type BestScore } from '../../generated/prisma/client';
import type { ClearLamp } from '../../generated/prisma/enums';
import { groupBy, keyedLoader, rowsPerKey } from '../../graphql/loaders';
import { epochMs, jsonRow } from '../../db/json-row';

/** A player in a version. */
export interface PlayerVersion {
  userId: string;
  version: string;
}

/** A player's best on one chart in a version. */
export interface PlayerChart extends PlayerVersion {
  chartId: number;
}

/** A BestScore row as the bests loader reads it: the model's fields in order, the timestamps as epoch ms. */
type BestTuple = [
  string,
  string,
  number,
  number,
  number,
  ClearLamp | null,
  number | null,
  number | null,
  number | null,
  number,
  number,
];

const pvKey = (k: PlayerVersion) => `${k.userId}\u0000${k.version}`;
const pcKey = (k: PlayerChart) => `${k.userId}\u0000${k.version}\u0000${k.chartId}`;

/** Loaders of the scores area: `ctx.loaders.scores.<name>`. */
export function createScoreLoaders(db: Db) {
  return {
    /** The player's BestScore rows in that version. */
    bests: keyedLoader<PlayerVersion, BestScore[]>(pvKey, async (keys) => {
      // Two IN lists (a fixed query shape, unlike an OR per pair); pairs not asked for are dropped below.
      // One JSON row instead of a row per best: the Prisma client's row mapping was ~10 ms of CPU for a
      // player's 900 bests, this ~1 ms (timestamps as epoch milliseconds: timestamp(3) round-trips).
      const tuples = await jsonRow<BestTuple[]>(
        db,
        Prisma.sql`
        SELECT COALESCE(json_agg(json_build_array("userId", "version", "chartId", "exScore", "exScoreId", "clearLamp",
                 "clearLampId", "missCount", "missCountId", ${epochMs('"playedAt"')},
                 ${epochMs('"updatedAt"')}))::text, '[]') AS j
          FROM "BestScore"
         WHERE "userId" IN (${Prisma.join([...new Set(keys.map((k) => k.userId))])})
           AND "version" IN (${Prisma.join([...new Set(keys.map((k) => k.version))])})`,
      );
      const rows = tuples.map(
        ([userId, version, chartId, exScore, exScoreId, clearLamp, clearLampId, missCount, missCountId, at, upd]) => ({
          userId,
          version,
          chartId,
          exScore,
          exScoreId,
          clearLamp,
          clearLampId,
          missCount,
          missCountId,
          playedAt: new Date(at),
          updatedAt: new Date(upd),
        }),
      );
      return rowsPerKey(keys, rows, pvKey);
    }),
    /** The player's best on that chart, or null. One query per (player, version). */
    best: keyedLoader<PlayerChart, BestScore | null>(pcKey, async (keys) => {
      const groups = groupBy(keys, pvKey);
      const rows = (
        await Promise.all(
          [...groups.values()].map((g) =>
            db.bestScore.findMany({
              where: { userId: g[0].userId, version: g[0].version, chartId: { in: g.map((k) => k.chartId) } },
            }),
          ),
        )
      ).flat();
      const byKey = new Map(rows.map((r) => [pcKey(r), r]));
      return keys.map((k) => byKey.get(pcKey(k)) ?? null);
    }),
  };
}

export type ScoreLoaders = ReturnType<typeof createScoreLoaders>;
