import type { Db } from '../../db/client';
import { keyedLoader } from '../../graphql/loaders';

/** A pattern on a chart. */
export interface ChartPattern {
  chartId: number;
  pattern: string;
}

const cpKey = (k: ChartPattern) => `${k.chartId}\u0000${k.pattern}`;

/** Loaders of the optimizer area: `ctx.loaders.optimizer.<name>`. */
export function createOptimizerLoaders(db: Db) {
  return {
    /** The imported arrangement score of that pattern on that chart, or null. One query per batch. */
    arrangementScore: keyedLoader<ChartPattern, number | null>(cpKey, async (keys) => {
      const rows = await db.arrangementScore.findMany({
        where: {
          chartId: { in: [...new Set(keys.map((k) => k.chartId))] },
          pattern: { in: [...new Set(keys.map((k) => k.pattern))] },
        },
        select: { chartId: true, pattern: true, score: true },
      });
      const byKey = new Map(rows.map((r) => [cpKey(r), r.score]));
      return keys.map((k) => byKey.get(cpKey(k)) ?? null);
    }),
  };
}

export type OptimizerLoaders = ReturnType<typeof createOptimizerLoaders>;
