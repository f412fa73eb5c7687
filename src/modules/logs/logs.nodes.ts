import type { AreaNodeSource } from '../area';

/** Node sources of the logs area (`node(id:)`): Batch (with its top plays, through the request's loader), BatchDetail, PlayDay. */
export const logNodes: Record<string, AreaNodeSource> = {
  Batch: { load: (ctx, keys) => ctx.services.logs.batchesById(keys) },
  // a batch in detail (User.batch): key = the batch id
  BatchDetail: { load: (ctx, keys) => ctx.services.logs.batchDetailsById(keys) },
  // a play day of a player in a version: key = userId:version:date
  PlayDay: {
    load: (ctx, keys) => ctx.services.logs.playDaysByKey(keys),
    key: (day: { userId: string; version: string; date: string }) => `${day.userId}:${day.version}:${day.date}`,
  },
};
