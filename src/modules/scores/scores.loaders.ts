import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import type { BestScore } from '../../generated/prisma/client';

const key = (userId: string, version: string) => `${userId}\u0000${version}`;

/** Per-request loaders of the scores area: a player's bests and current total per version. */
export function createScoreLoaders(db: Db) {
  return {
    /** key `${userId}\0${version}` → the player's BestScore rows in that version */
    scoreBestsByUserVersion: new DataLoader<string, BestScore[]>(async (keys) => {
      const pairs = keys.map((k) => k.split('\u0000') as [string, string]);
      const rows = await db.bestScore.findMany({ where: { OR: pairs.map(([userId, version]) => ({ userId, version })) } });
      const map = new Map<string, BestScore[]>(keys.map((k) => [k, []]));
      for (const r of rows) map.get(key(r.userId, r.version))?.push(r);
      return keys.map((k) => map.get(k)!);
    }),
    /** key `${userId}\0${version}` → current total BPI (null: no status yet) */
    scoreTotalByUserVersion: new DataLoader<string, number | null>(async (keys) => {
      const pairs = keys.map((k) => k.split('\u0000') as [string, string]);
      const rows = await db.playerVersionStatus.findMany({ where: { OR: pairs.map(([userId, version]) => ({ userId, version })) }, select: { userId: true, version: true, totalBpi: true } });
      const map = new Map(rows.map((r) => [key(r.userId, r.version), r.totalBpi]));
      return keys.map((k) => map.get(k) ?? null);
    }),
  };
}

export type ScoreLoaders = ReturnType<typeof createScoreLoaders>;

/** Where the read services get a player's bests and total (DataLoaders in requests, the DB elsewhere). */
export interface ScoreSource {
  bests(userId: string, version: string): Promise<BestScore[]>;
  totalBpi(userId: string, version: string): Promise<number | null>;
}

export const loaderSource = (l: ScoreLoaders): ScoreSource => ({
  bests: (u, v) => l.scoreBestsByUserVersion.load(key(u, v)),
  totalBpi: (u, v) => l.scoreTotalByUserVersion.load(key(u, v)),
});
