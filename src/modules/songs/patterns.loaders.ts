import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import type { VoteType } from '../../generated/prisma/enums';

const SEP = '\u0000';
export const patternVoteKey = (userId: string, chartId: number, pattern: string) => [userId, chartId, pattern].join(SEP);

export function createPatternLoaders(db: Db) {
  return {
    /** key patternVoteKey(userId, chartId, pattern) → that user's vote on that pattern, or null. */
    fingeringPatternVote: new DataLoader<string, VoteType | null>(async (keys) => {
      const parsed = keys.map((k) => {
        const [userId, chartId, pattern] = k.split(SEP);
        return { userId, chartId: Number(chartId), pattern };
      });
      const rows = await db.fingeringPatternVote.findMany({ where: { OR: parsed }, select: { userId: true, chartId: true, pattern: true, type: true } });
      const map = new Map(rows.map((r) => [patternVoteKey(r.userId, r.chartId, r.pattern), r.type]));
      return keys.map((k) => map.get(k) ?? null);
    }),
  };
}
