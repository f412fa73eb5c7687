import type { AreaNodeSource } from '../area';
import { intIdOrNull } from '../../graphql/args';
import { PLAY_SELECT, playData } from './plays';

/** Node source of Play (`node(id:)`): the stored plays, with their owner (`userId`, for NODE_RULES.Play). */
export const scoreNodes: Record<string, AreaNodeSource> = {
  Play: {
    load: async (ctx, keys, deps) => {
      const ids = keys.map((k) => intIdOrNull(k));
      const rows = await ctx.db.score.findMany({
        where: { id: { in: ids.filter((i): i is number => i !== null) } },
        select: { ...PLAY_SELECT, userId: true },
      });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((i) => {
        const r = i === null ? undefined : byId.get(i);
        return r ? playData(deps.catalogue, r) : null;
      });
    },
  },
};
