import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import type { BestScore, PlayerVersionStatus } from '../../generated/prisma/client';

const key = (userId: string, version: string) => `${userId}\u0000${version}`;

/** Per-request loaders of the scores area: a player's bests per version. */
export function createScoreLoaders(db: Db) {
  return {
    /** key `${userId}\0${version}` → the player's BestScore rows in that version */
    scoreBestsByUserVersion: new DataLoader<string, BestScore[]>(async (keys) => {
      const pairs = keys.map((k) => k.split('\u0000') as [string, string]);
      // Two IN lists (a fixed query shape, unlike an OR per pair); pairs not asked for are dropped below.
      const rows = await db.bestScore.findMany({
        where: { userId: { in: [...new Set(pairs.map((p) => p[0]))] }, version: { in: [...new Set(pairs.map((p) => p[1]))] } },
      });
      const map = new Map<string, BestScore[]>(keys.map((k) => [k, []]));
      for (const r of rows) map.get(key(r.userId, r.version))?.push(r);
      return keys.map((k) => map.get(k)!);
    }),
  };
}

export type ScoreLoaders = ReturnType<typeof createScoreLoaders>;

/** Where the read services get a player's bests and total (DataLoaders in requests, the DB elsewhere). */
export interface ScoreSource {
  bests(userId: string, version: string): Promise<BestScore[]>;
  totalBpi(userId: string, version: string): Promise<number | null>;
}

/** Bests from this area's loader; the current total from the users area's per-player status loader (one read of PlayerVersionStatus per request). */
export const loaderSource = (l: ScoreLoaders & { statusesByUserId: DataLoader<string, PlayerVersionStatus[]> }): ScoreSource => ({
  bests: (u, v) => l.scoreBestsByUserVersion.load(key(u, v)),
  totalBpi: async (u, v) => (await l.statusesByUserId.load(u)).find((s) => s.version === v)?.totalBpi ?? null,
});
