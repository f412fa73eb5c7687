import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { User } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { UserType } from '../shared/user.type';
import {
  FollowingBpiChangesArgs,
  FollowingChartStatsArgs,
  FollowingScoresOnArgs,
  NearLossesArgs,
  RivalChartArgs,
  RivalChartsArgs,
  RivalryArgs,
  RivalSummaryArgs,
  RivalTrendArgs,
  SearchUsersArgs,
  SuggestedRivalsArgs,
} from './rivals.inputs';
import type { RivalryData } from './rivals.rivalry.service';
import {
  ChartRankType,
  SuggestedRivalType,
  FollowingBpiChangeType,
  FollowingChartScoreType,
  FollowingChartStatType,
  NearLossConnection,
  NearLossType,
  ProfileCompareType,
  RivalChartConnection,
  RivalChartType,
  RivalryType,
  RivalSummaryType,
  RivalTrendPointType,
} from './rivals.types';
import { GameVersionScalar } from '../../graphql/scalars';

/** Rival reads on User (rules: src/graphql/rules.ts, User.compare / User.rivalry). */
@Resolver(() => UserType)
export class RivalsUserResolver {
  @FieldResolver(() => ProfileCompareType, {
    nullable: true,
    description: "Win/loss of the viewer against this user and this user's radar, in a version (default latest)",
  })
  compare(
    @Root() user: User,
    @Arg('version', () => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' })
    version: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.rivals.compare(user.id, version);
  }

  @FieldResolver(() => RivalryType, {
    nullable: true,
    description:
      'The viewer against this user in a version: wins / losses / draws on the charts both played and the total-BPI difference, with the chart-by-chart comparison (charts), one chart (chart) and the trend. null for an anonymous viewer or a user the viewer may not see. Batched: nested under a list of users it costs the same SQL statements for 2 users as for 50.',
  })
  rivalry(@Root() user: User, @Args(() => RivalryArgs) args: RivalryArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.rivalries.rivalry(user.id, args);
  }
}

/** The nested lists of a rivalry (the pair and filter come from the parent: no rule of their own). */
@Resolver(() => RivalryType)
export class RivalryResolver {
  @FieldResolver(() => RivalChartConnection, {
    description:
      "Every chart of the rivalry's filter where the viewer or the rival has a best (docs/domain/stats.md#rivals), sorted, paged by a keyset cursor",
  })
  charts(@Root() r: RivalryData, @Args(() => RivalChartsArgs) args: RivalChartsArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.rivalries.rivalCharts(r, args);
  }

  @FieldResolver(() => RivalChartType, {
    nullable: true,
    description: 'The comparison on one chart; null when neither has a best on it or the chart is unknown',
  })
  chart(@Root() r: RivalryData, @Args(() => RivalChartArgs) args: RivalChartArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.rivalries.rivalChart(r, args.chartId);
  }

  @FieldResolver(() => [RivalTrendPointType], {
    description:
      'Win/loss trend over time: per JST day with plays of either, the change of wins − losses and the running value',
  })
  trend(@Root() r: RivalryData, @Args(() => RivalTrendArgs) args: RivalTrendArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.rivalries.rivalTrend(r, args.level);
  }
}

/** The followed-players reads on User (rules: src/graphql/rules.ts). */
@Resolver(() => UserType)
export class RivalsFollowingResolver {
  @FieldResolver(() => [RivalSummaryType], {
    nullable: true,
    description:
      'Owner only: the owner against each player they follow and may see (public, or approved), on the charts of the filter, sorted (default: most wins first). The rivalries of all players cost the same SQL statements as one.',
  })
  rivalSummary(@Root() user: User, @Args(() => RivalSummaryArgs) args: RivalSummaryArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.following.rivalSummary(user.id, args);
  }

  @FieldResolver(() => [FollowingChartStatType], {
    nullable: true,
    description:
      "Owner only: per chart, the followed players' count, average and top EX / BPI; private players count but stay anonymous. Highest level first, then title.",
  })
  followingChartStats(
    @Root() user: User,
    @Args(() => FollowingChartStatsArgs) args: FollowingChartStatsArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.rivals.following.followingChartStats(user.id, args);
  }

  @FieldResolver(() => NearLossConnection, {
    nullable: true,
    description:
      'Owner only: charts where a followed player leads the owner by minDiff..maxDiff EX, smallest lead first, keyset pages',
  })
  nearLosses(@Root() user: User, @Args(() => NearLossesArgs) args: NearLossesArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.following.nearLosses(user.id, args);
  }

  @FieldResolver(() => [ChartRankType], {
    nullable: true,
    description:
      "This user's rank on every chart they have a best on in a version (any level or difficulty unless filtered), best rank first: live ranks from the rank tree kept in the import's transaction (a new best shows at once). One SQL statement for any number of users.",
  })
  chartRanks(@Root() user: User, @Args(() => RivalryArgs) args: RivalryArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.chartRanks(user.id, args);
  }

  @FieldResolver(() => [SuggestedRivalType], {
    nullable: true,
    description:
      'Owner only: public players to follow — by total BPI or a radar category, nearest / highest / newest / supporters / seeded shuffle, optionally searched by name or game id',
  })
  suggestedRivals(@Root() user: User, @Args(() => SuggestedRivalsArgs) args: SuggestedRivalsArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.suggestedRivals(user.id, args);
  }

  @FieldResolver(() => [UserType], {
    nullable: true,
    description: 'The public players this user follows, by name (rival selection)',
  })
  publicFollowing(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.rivals.following.publicFollowing(user.id);
  }

  @FieldResolver(() => [FollowingChartScoreType], {
    nullable: true,
    description:
      'The players this user follows with a best on one chart of any level or difficulty, best EX first: public players, and private ones the caller may see',
  })
  followingScoresOn(
    @Root() user: User,
    @Args(() => FollowingScoresOnArgs) args: FollowingScoresOnArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.rivals.following.followingScoresOn(user.id, args);
  }

  @FieldResolver(() => [FollowingBpiChangeType], {
    nullable: true,
    description: 'The public players this user follows: ☆12 total BPI at the start and end of a month or year',
  })
  followingBpiChanges(
    @Root() user: User,
    @Args(() => FollowingBpiChangesArgs) args: FollowingBpiChangesArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.rivals.following.followingBpiChanges(user.id, args);
  }
}

/** Players named by id in the rivals value types, through the users loaders (constant SQL). */
@Resolver(() => FollowingChartStatType)
export class FollowingChartStatResolver {
  @FieldResolver(() => UserType, {
    nullable: true,
    description: 'Who holds the top score; null when that player is private',
  })
  topPlayer(@Root() r: { topPlayerId: string | null }, @Ctx() ctx: Context) {
    return r.topPlayerId ? ctx.services.users.user(r.topPlayerId) : null;
  }
}

@Resolver(() => FollowingChartScoreType)
export class FollowingChartScoreResolver {
  @FieldResolver(() => UserType, { description: 'The player' })
  user(@Root() r: { userId: string }, @Ctx() ctx: Context) {
    return ctx.services.users.user(r.userId);
  }
}

@Resolver(() => NearLossType)
export class NearLossResolver {
  @FieldResolver(() => UserType, { description: 'The rival' })
  rival(@Root() r: { rivalId: string }, @Ctx() ctx: Context) {
    return ctx.services.users.user(r.rivalId);
  }
}

@Resolver(() => SuggestedRivalType)
export class SuggestedRivalResolver {
  @FieldResolver(() => UserType, { description: 'The player' })
  user(@Root() r: { userId: string }, @Ctx() ctx: Context) {
    return ctx.services.users.user(r.userId);
  }
}

/** Root reads of the rivals area. */
@Resolver()
export class RivalsQueryResolver {
  @Query(() => [UserType], {
    description:
      'Players whose name starts with a prefix, or whose name or game id holds a search (case-insensitive), by name: public profiles, and private ones the caller may see (themself, approved follower)',
  })
  searchUsers(@Args(() => SearchUsersArgs) args: SearchUsersArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.searchUsers(args);
  }
}
