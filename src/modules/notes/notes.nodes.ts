import type { AreaNodeSource } from '../area';
import { intIdOrNull } from '../../graphql/args';

/** Node source of SongNote (`node(id:)`): one statement for every note asked. */
export const noteNodes: Record<string, AreaNodeSource> = {
  SongNote: {
    load: async (ctx, keys) => {
      const ids = keys.map((k) => intIdOrNull(k));
      const rows = await ctx.db.songNote.findMany({
        where: { id: { in: ids.filter((i): i is number => i !== null) } },
      });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((i) => (i === null ? null : (byId.get(i) ?? null)));
    },
  },
};
