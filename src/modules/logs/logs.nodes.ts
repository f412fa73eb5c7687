import type { AreaNodeSource } from '../area';

/** Node source of Batch (`node(id:)`): the import batches with their top plays, through the request's loader. */
export const logNodes: Record<string, AreaNodeSource> = {
  Batch: { load: (ctx, keys) => ctx.services.logs.batchesById(keys) },
};
