import type { Db } from '../../db/client';
import type { ImportBatch } from '../../generated/prisma/client';
import { inKeyOrder, loader } from '../../graphql/loaders';
import type { PlayRow } from '../scores/plays';
import { batchTopPlays } from './logs.service';

/** Loaders of the logs area: `ctx.loaders.logs.<name>`. */
export function createLogLoaders(db: Db) {
  return {
    /** batch id → the import-batch row alone (a batch's card and its rule: Query.batchCard), one statement per set of ids */
    batchRows: loader<string, ImportBatch | null>(async (ids) => {
      const rows = await db.importBatch.findMany({ where: { id: { in: [...ids] } } });
      return inKeyOrder(ids, new Map(rows.map((r) => [r.id, r])), null);
    }),
    /** batch id → the import-batch row and its top plays (two statements per set of ids); mapped by LogsService.batchesById */
    batches: loader<string, { row: ImportBatch; top: PlayRow[] | undefined } | null>(async (ids) => {
      const rows = await db.importBatch.findMany({ where: { id: { in: [...ids] } } });
      const top = await batchTopPlays(
        db,
        rows.map((r) => r.id),
      );
      return inKeyOrder(ids, new Map(rows.map((r) => [r.id, { row: r, top: top.get(r.id) }])), null);
    }),
  };
}

export type LogLoaders = ReturnType<typeof createLogLoaders>;
