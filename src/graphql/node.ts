/**
 * `Query.node(id:)` / `Query.nodes(ids:)`: any entity by its global id (./global-id.ts), loaded
 * through the node sources the areas' manifests provide (`nodes`, batched: `nodes` of 100 ids
 * costs one load per type) and shown only when the rule table's NODE_RULES entry for its type
 * allows the caller (a private player's node is null for a caller who may not see them — the
 * same verdict as the player's VISIBLE fields).
 */
import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { badInput } from '../errors';
import type { Context } from './context';
import { asNode, fromGlobalId, NodeInterface } from './global-id';
import { NODE_RULES } from './rules';
import { fieldAllowed } from './rules-enforce';

/** At most this many ids per `nodes` call. */
export const MAX_NODES = 100;

async function resolveNodes(ctx: Context, ids: readonly string[]): Promise<(object | null)[]> {
  const parsed = ids.map((id) => fromGlobalId(id));
  const byType = new Map<string, string[]>();
  for (const p of parsed) {
    if (!p || !ctx.app.areas.nodes[p.type]) continue;
    const keys = byType.get(p.type);
    if (keys) keys.push(p.key);
    else byType.set(p.type, [p.key]);
  }
  const loaded = new Map<string, object | null>();
  await Promise.all(
    [...byType].map(async ([type, keys]) => {
      const unique = [...new Set(keys)];
      const rows = await ctx.app.areas.nodes[type].load(ctx, unique);
      unique.forEach((k, i) => loaded.set(`${type}:${k}`, rows[i] ?? null));
    }),
  );
  return Promise.all(
    parsed.map(async (p) => {
      if (!p) return null;
      const node = loaded.get(`${p.type}:${p.key}`);
      if (!node) return null;
      const rule = NODE_RULES[p.type];
      if (!rule) return null; // fail closed (the schema build checks every Node type has one)
      return (await fieldAllowed(ctx, rule, node, {})) ? asNode(p.type, node) : null;
    }),
  );
}

@Resolver()
export class NodeResolver {
  @Query(() => NodeInterface, {
    nullable: true,
    description:
      'Any object by its global id (Relay refetch). Null when the id is unknown, malformed, or names something the caller may not see (e.g. a private player)',
  })
  async node(
    @Arg('id', () => ID, { description: 'A global id read from an `id` field' }) id: string,
    @Ctx() ctx: Context,
  ) {
    return (await resolveNodes(ctx, [id]))[0];
  }

  @Query(() => [NodeInterface], {
    nullable: 'items',
    description: `Objects by their global ids, in the same order (null where node(id:) would be null); at most ${MAX_NODES} ids`,
  })
  nodes(@Arg('ids', () => [ID], { description: `Global ids (1–${MAX_NODES})` }) ids: string[], @Ctx() ctx: Context) {
    if (ids.length > MAX_NODES)
      throw badInput(`ids: at most ${MAX_NODES}`, [
        { code: 'too_big', path: ['ids'], message: `At most ${MAX_NODES} ids` },
      ]);
    return resolveNodes(ctx, ids);
  }
}
