import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { visibleUser } from '../../graphql/rules';
import { GlobalRankingArgs } from './stats.inputs';
import { StatsService } from './stats.service';
import { GlobalRankingConnection, GlobalRankingEntryType } from './stats.types';

@Resolver()
export class StatsResolver {
  @Query(() => GlobalRankingConnection, {
    description:
      'Total-BPI ranking of all players of a version (optionally of one area / arena class), best first. ' +
      'Players the caller may not see are anonymous; a player who hides the area or class the ranking is filtered on is not in it.',
  })
  async globalRanking(@Args(() => GlobalRankingArgs) args: GlobalRankingArgs, @Ctx() ctx: Context): Promise<GlobalRankingConnection> {
    const selfId = ctx.viewer?.id ?? null;
    const { version, area, arenaClass, selfRank, page } = await new StatsService(ctx.db).globalRanking(args, selfId);
    const edges = await Promise.all(
      page.edges.map(async ({ cursor, node }) => {
        const isSelf = node.userId === selfId;
        let player = await visibleUser(ctx, node.userId);
        // Filtering on a hidden area / class would reveal it next to the name: such players stay anonymous.
        if (player && !isSelf && ((area !== null && !player.showArea) || (arenaClass !== null && !player.showArenaClass))) player = null;
        const entry: GlobalRankingEntryType = { rank: node.rank, player, anonymous: !player, totalBpi: node.totalBpi, isSelf };
        return { cursor, node: entry };
      }),
    );
    return { ...page, edges, version, selfRank };
  }
}
