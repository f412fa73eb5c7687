import type { Db } from '../../db/client';
import type { BestScore } from '../../generated/prisma/client';
import { groupBy, keyedLoader } from '../../graphql/loaders';

/** A player in a version. */
export interface PlayerVersion {
  userId: string;
  version: string;
}

/** A player's best on one chart in a version. */
export interface PlayerChart extends PlayerVersion {
  chartId: number;
}

const pvKey = (k: PlayerVersion) => `${k.userId}\u0000${k.version}`;
const pcKey = (k: PlayerChart) => `${k.userId}\u0000${k.version}\u0000${k.chartId}`;

/** Loaders of the scores area: `ctx.loaders.scores.<name>`. */
export function createScoreLoaders(db: Db) {
  return {
    /** The player's BestScore rows in that version. */
    bests: keyedLoader<PlayerVersion, BestScore[]>(pvKey, async (keys) => {
      // Two IN lists (a fixed query shape, unlike an OR per pair); pairs not asked for are dropped below.
      const rows = await db.bestScore.findMany({
        where: {
          userId: { in: [...new Set(keys.map((k) => k.userId))] },
          version: { in: [...new Set(keys.map((k) => k.version))] },
        },
      });
      const byKey = groupBy(rows, pvKey);
      return keys.map((k) => byKey.get(pvKey(k)) ?? []);
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
