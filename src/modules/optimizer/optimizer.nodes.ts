import type { AreaNodeSource } from '../area';

/** Node source of OptimizeMemo (`node(id:)`): the saved plans, with their owner (`userId`, for NODE_RULES.OptimizeMemo). */
export const optimizerNodes: Record<string, AreaNodeSource> = {
  OptimizeMemo: { load: (ctx, keys) => ctx.services.optimizer.memosById(keys) },
};
