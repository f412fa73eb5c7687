import { Args, Ctx, FieldResolver, Float, Int, Query, Resolver, Root } from 'type-graphql';
import type { User } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { UserType } from '../shared/user.type';
import { GlobalRankingArgs, RecommendedArgs, TotalBpiHistoryArgs } from './stats.inputs';
import {
  AreaRankType,
  GlobalRankingConnection,
  ProfileStatsEntryType,
  RadarType,
  RecommendedType,
  TotalBpiHistoryPointType,
} from './stats.types';

@Resolver()
export class StatsResolver {
  @Query(() => GlobalRankingConnection, {
    description:
      'Total-BPI ranking of all players of a version (optionally of one area / arena class), best first. ' +
      'Players the caller may not see are anonymous; a player who hides the area or class the ranking is filtered on is not in it.',
  })
  globalRanking(
    @Args(() => GlobalRankingArgs) args: GlobalRankingArgs,
    @Ctx() ctx: Context,
  ): Promise<GlobalRankingConnection> {
    return ctx.services.stats.crossPlayer.globalRanking(args);
  }
}

/** Stats on User (rules: src/graphql/rules.ts, User.*). */
@Resolver(() => UserType)
export class StatsUserResolver {
  @FieldResolver(() => [ProfileStatsEntryType], {
    nullable: true,
    description: 'Per-version total BPI and arena status, newest version first (INF last)',
  })
  stats(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.stats.profileStats(user);
  }

  @FieldResolver(() => AreaRankType, {
    nullable: true,
    description: 'Area rank among A-class players (null: no game id / not ranked / hidden by showArea)',
  })
  areaRank(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.stats.areaRank(user);
  }

  @FieldResolver(() => RecommendedType, {
    nullable: true,
    description:
      'Weapons and potential (docs/domain/stats.md#recommended); a best whose BPI is null (EX above the maximum, or no BPI from the definition) is left out of both lists and their totals',
  })
  recommended(@Root() user: User, @Args(() => RecommendedArgs) args: RecommendedArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.recommended(user.id, args);
  }

  @FieldResolver(() => [TotalBpiHistoryPointType], {
    nullable: true,
    description:
      'Daily (weekly, monthly) total BPI trend by play time (JST days). A long series is aggregated, never refused: ' +
      'DAY points over more than 731 days (first to last play day) are given as WEEK points (keyed by their Monday), ' +
      'WEEK points over more than 3,653 days as MONTH points (YYYY-MM)',
  })
  totalBpiHistory(@Root() user: User, @Args(() => TotalBpiHistoryArgs) args: TotalBpiHistoryArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.totalBpiHistory(user.id, args.version, args.period ?? args.groupBy); // StatsPeriod values are the strings
  }
}

/** Radar's camelCase fields over the category keys the services produce (NOTES… stay as deprecated aliases for one release). */
@Resolver(() => RadarType)
export class RadarResolver {
  @FieldResolver(() => Float, { description: 'Total BPI over the NOTES charts (note density)' })
  notes(@Root() r: RadarType) {
    return r.NOTES;
  }

  @FieldResolver(() => Float, { description: 'Total BPI over the CHORD charts (chords)' })
  chord(@Root() r: RadarType) {
    return r.CHORD;
  }

  @FieldResolver(() => Float, { description: 'Total BPI over the PEAK charts (peak density)' })
  peak(@Root() r: RadarType) {
    return r.PEAK;
  }

  @FieldResolver(() => Float, { description: 'Total BPI over the CHARGE charts (charge notes)' })
  charge(@Root() r: RadarType) {
    return r.CHARGE;
  }

  @FieldResolver(() => Float, { description: 'Total BPI over the SCRATCH charts (scratch)' })
  scratch(@Root() r: RadarType) {
    return r.SCRATCH;
  }

  @FieldResolver(() => Float, { description: 'Total BPI over the SOFLAN charts (speed changes)' })
  soflan(@Root() r: RadarType) {
    return r.SOFLAN;
  }
}

@Resolver(() => AreaRankType)
export class AreaRankResolver {
  @FieldResolver(() => Int, { description: '1-based rank in that area' })
  rank(@Root() r: AreaRankType) {
    return r.areaRank;
  }
}
