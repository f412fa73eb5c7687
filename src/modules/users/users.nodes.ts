import type { AreaNodeSource } from '../area';

/** Node source of User (`node(id:)`): the request's user loader (the rule table then applies NODE_RULES.User). */
export const userNodes: Record<string, AreaNodeSource> = {
  User: {
    load: async (ctx, keys) => {
      const rows = await ctx.loaders.users.byId.loadMany([...keys]);
      return rows.map((r) => (r instanceof Error ? null : r));
    },
  },
};
