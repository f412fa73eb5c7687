import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import type { BestScore } from '../../generated/prisma/client';

const SEP = '\u0000';
export const bestScoreKey = (userId: string, version: string, chartId: number) => [userId, version, chartId].join(SEP);

export function createRankingLoaders(db: Db) {
  return {
    /** key bestScoreKey(userId, version, chartId) → that player's best score, or null. One query per (user, version). */
    songsBestScore: new DataLoader<string, BestScore | null>(async (keys) => {
      const groups = new Map<string, { userId: string; version: string; chartIds: number[] }>();
      for (const k of keys) {
        const [userId, version, chartId] = k.split(SEP);
        const g = groups.get(userId + SEP + version) ?? { userId, version, chartIds: [] };
        g.chartIds.push(Number(chartId));
        groups.set(userId + SEP + version, g);
      }
      const rows = (
        await Promise.all(
          [...groups.values()].map((g) => db.bestScore.findMany({ where: { userId: g.userId, version: g.version, chartId: { in: g.chartIds } } })),
        )
      ).flat();
      const map = new Map(rows.map((r) => [bestScoreKey(r.userId, r.version, r.chartId), r]));
      return keys.map((k) => map.get(k) ?? null);
    }),
  };
}
