import type { Db } from '../../db/client';
import type { VoteType } from '../../generated/prisma/enums';
import { keyedLoader } from '../../graphql/loaders';

/** A user's vote on one pattern of a chart. */
export interface PatternVoteKey {
  userId: string;
  chartId: number;
  pattern: string;
}

const voteKey = (k: PatternVoteKey) => `${k.userId}\u0000${k.chartId}\u0000${k.pattern}`;

/** Loaders of the patterns area: `ctx.loaders.patterns.<name>`. */
export function createPatternLoaders(db: Db) {
  return {
    /** That user's vote on that pattern, or null. */
    myVote: keyedLoader<PatternVoteKey, VoteType | null>(voteKey, async (keys) => {
      const rows = await db.fingeringPatternVote.findMany({
        where: { OR: keys.map(({ userId, chartId, pattern }) => ({ userId, chartId, pattern })) },
        select: { userId: true, chartId: true, pattern: true, type: true },
      });
      const map = new Map(rows.map((r) => [voteKey(r), r.type]));
      return keys.map((k) => map.get(voteKey(k)) ?? null);
    }),
  };
}

export type PatternLoaders = ReturnType<typeof createPatternLoaders>;
