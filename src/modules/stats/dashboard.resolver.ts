import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { User } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { visibleUser } from '../../graphql/rules';
import { UserType } from '../shared/user.type';
import type { DashboardRoot } from './dashboard.service';
import { parseDashboardQuery } from './dashboard.service';
import {
  AaaTableType,
  ActivityCalendarType,
  ArenaTrendType,
  BoxPlotPointType,
  BpmBandType,
  DashboardType,
  HistogramType,
  NeighbourRecommendationsType,
  RadarRankingConnection,
  RadarStatsType,
  RegisterTowerPayloadType,
  ReviewPeriodsType,
  ReviewGrowthLineType,
  ReviewRivalType,
  ReviewType,
  SiteSummaryType,
  StatsRankingEntryType,
  TotalBpiSummaryType,
  TowerHistoryType,
  TowerRankingConnection,
  TrendType,
} from './dashboard.types';
import {
  AaaTableArgs,
  AsOfArgs,
  DashboardArgs,
  DateRangeArgs,
  DistributionSvgArgs,
  GroupByArgs,
  GuestAaaTableArgs,
  NeighbourArgs,
  RadarRankingArgs,
  RegisterTowerArgs,
  ReviewArgs,
  StepArgs,
  ThemeArgs,
  TowerRankingArgs,
  TrendSvgArgs,
  UnitArgs,
} from './stats.inputs';

/** User.dashboard: the parsed stats query becomes the Dashboard's root (rule: User.dashboard, VISIBLE). */
@Resolver(() => UserType)
export class DashboardUserResolver {
  @FieldResolver(() => DashboardType, {
    nullable: true,
    description:
      "The player's stats dashboard in a version under the standard stats filter (docs/domain/stats.md#standard-filter, docs/domain/stats.md). Null for a player the caller may not see. " +
      'An unknown version, level or difficulty is BAD_USER_INPUT naming the argument.',
  })
  dashboard(@Root() user: User, @Args(() => DashboardArgs) args: DashboardArgs): DashboardRoot {
    return { userId: user.id, user, ...parseDashboardQuery(args) };
  }
}

/** The dashboard's parts: each computed only when asked for, all from the request's shared loaders. */
@Resolver(() => DashboardType)
export class DashboardResolver {
  @FieldResolver(() => HistogramType, {
    description: 'Single-chart BPI distribution: <-10, one bucket per step from -10, 100+',
  })
  bpiDistribution(@Root() r: DashboardRoot, @Args(() => StepArgs) a: StepArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.bpiDistribution(r, a.step);
  }

  @FieldResolver(() => HistogramType, {
    description: 'DJ rank distribution: F, E, D, C, B, A, AA, AAA, MAX- (AAA excludes MAX-)',
  })
  djRankDistribution(@Root() r: DashboardRoot, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.djRankDistribution(r);
  }

  @FieldResolver(() => HistogramType, {
    description: 'Score-rate distribution: EX / max EX in percent buckets, then 100 (MAX)',
  })
  scoreRateDistribution(@Root() r: DashboardRoot, @Args(() => StepArgs) a: StepArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.scoreRateDistribution(r, a.step);
  }

  @FieldResolver(() => AaaTableType, {
    description:
      "AAA table: per chart the EX and BPI needed for AAA and MAX- (and a custom goal) next to the player's best",
  })
  aaaTable(@Root() r: DashboardRoot, @Args(() => AaaTableArgs) a: AaaTableArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.aaaTable(r, a.customGoalRatio, a.customGoalOffset);
  }

  @FieldResolver(() => [BpmBandType], { description: 'Total BPI per tempo band, empty bands omitted' })
  bpmBands(@Root() r: DashboardRoot, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.bpmBands(r);
  }

  @FieldResolver(() => TotalBpiSummaryType, {
    description:
      'Total BPI now or as of a JST date, with the estimated rank, played count and N (the level filter does not apply: N is the ☆12 set)',
  })
  totalBpi(@Root() r: DashboardRoot, @Args(() => AsOfArgs) a: AsOfArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.totalBpi(r, a.asOf);
  }

  @FieldResolver(() => TrendType, {
    description: 'Total-BPI trend with the charts updated per point; levels default to 12',
  })
  trend(@Root() r: DashboardRoot, @Args(() => GroupByArgs) a: GroupByArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.trend(r, a.groupBy);
  }

  @FieldResolver(() => RadarStatsType, {
    description: 'Radar with the filters and the songs behind each category',
  })
  radar(@Root() r: DashboardRoot, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.radar(r);
  }

  @FieldResolver(() => ActivityCalendarType, {
    description: 'Activity calendar counting distinct charts per JST day, with the level-12 active dates',
  })
  activity(@Root() r: DashboardRoot, @Args(() => DateRangeArgs) a: DateRangeArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.activity(r, a.from, a.to);
  }

  @FieldResolver(() => [BoxPlotPointType], {
    description: 'BPI box plot per day / week / month, periods with updates only',
  })
  boxPlot(@Root() r: DashboardRoot, @Args(() => UnitArgs) a: UnitArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.boxPlot(r, a.unit);
  }

  @FieldResolver(() => ArenaTrendType, {
    description:
      "Arena rank trend from the official arena snapshots; hidden parts follow the owner's statsPrivacy switches",
  })
  arenaTrend(@Root() r: DashboardRoot, @Args(() => DateRangeArgs) a: DateRangeArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.arenaTrend(r, a.from, a.to);
  }

  @FieldResolver(() => ReviewPeriodsType, { description: 'Months and years with plays, for the reviews' })
  reviewPeriods(@Root() r: DashboardRoot, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.reviewPeriods(r);
  }

  @FieldResolver(() => ReviewType, {
    nullable: true,
    description: 'Monthly or yearly review. The owner only: anyone else gets null and a FORBIDDEN error',
  })
  review(@Root() r: DashboardRoot, @Args(() => ReviewArgs) a: ReviewArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.review(r, a.month);
  }

  @FieldResolver(() => NeighbourRecommendationsType, {
    description:
      'Recommendations from the n players nearest the stored total BPI; only averages, never who (at least 5 neighbours, 3 per chart)',
  })
  neighbours(@Root() r: DashboardRoot, @Args(() => NeighbourArgs) a: NeighbourArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.neighbours(r, a.limit, a.offset, a.n);
  }

  @FieldResolver(() => TowerHistoryType, {
    description: "The player's key-counter (IIDX TOWER) days of the version",
  })
  towerHistory(@Root() r: DashboardRoot, @Args(() => DateRangeArgs) a: DateRangeArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.towerHistory(r, a.from, a.to);
  }

  @FieldResolver(() => String, { description: 'The radar as an SVG picture (the data of `radar`)' })
  radarSvg(@Root() r: DashboardRoot, @Args(() => ThemeArgs) a: ThemeArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.radarSvg(r, a.theme ?? 'light');
  }

  @FieldResolver(() => String, { description: 'The total-BPI trend as an SVG picture (the data of `trend`)' })
  trendSvg(@Root() r: DashboardRoot, @Args(() => TrendSvgArgs) a: TrendSvgArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.dashboard.trendSvg(r, a.theme ?? 'light', a.groupBy);
  }

  @FieldResolver(() => String, {
    description: 'The single-BPI distribution as an SVG picture (the data of `bpiDistribution`)',
  })
  bpiDistributionSvg(
    @Root() r: DashboardRoot,
    @Args(() => DistributionSvgArgs) a: DistributionSvgArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.stats.dashboard.bpiDistributionSvg(r, a.theme ?? 'light', a.step);
  }
}

/** Tower register and ranking, radar-category ranking, site summary. */
@Resolver()
export class CrossStatsResolver {
  @Mutation(() => RegisterTowerPayloadType, {
    description: 'Registers key-counter (IIDX TOWER) days of the caller; all or nothing',
  })
  registerTower(@Args(() => RegisterTowerArgs) a: RegisterTowerArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.crossPlayer.registerTower(a.userId, { version: a.version, rows: a.rows });
  }

  @Query(() => TowerRankingConnection, {
    description: 'Key-counter ranking over a day, week or month; players the caller may not see are masked',
  })
  towerRanking(@Args(() => TowerRankingArgs) a: TowerRankingArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.crossPlayer.towerRanking(a);
  }

  @Query(() => RadarRankingConnection, {
    description:
      "Ranking by one radar category with the caller's own radar beside it; players the caller may not see are masked",
  })
  radarRanking(@Args(() => RadarRankingArgs) a: RadarRankingArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.crossPlayer.radarRanking(a);
  }

  @Query(() => AaaTableType, {
    description:
      'Guest AAA table: every SP HYPER, ANOTHER and LEGGENDARIA chart of the level available in the version (with a ' +
      'current definition), the EX score of AAA, AA, A and MAX- and the BPI each is worth. No player and no token: ' +
      "a row's exScore and bpi are null and the summary counts no border reached.",
  })
  aaaTable(@Args(() => GuestAaaTableArgs) a: GuestAaaTableArgs, @Ctx() ctx: Context) {
    return ctx.services.stats.guestAaaTable(a.version, a.level);
  }

  @Query(() => SiteSummaryType, {
    description:
      "Site-wide summary: totals, today's counts (today in JST), the last 90 days, by hour and weekday, distributions",
  })
  siteSummary(@Ctx() ctx: Context) {
    return ctx.services.stats.crossPlayer.siteSummary();
  }
}

@Resolver(() => StatsRankingEntryType)
export class StatsRankingEntryResolver {
  @FieldResolver(() => UserType, { nullable: true, description: 'The player (null: masked)' })
  user(@Root() e: { userId: string | null }, @Ctx() ctx: Context) {
    return e.userId ? visibleUser(ctx, e.userId) : null;
  }
}

@Resolver(() => ReviewGrowthLineType)
export class ReviewGrowthLineResolver {
  @FieldResolver(() => UserType, { nullable: true, description: 'The rival (null: the viewer)' })
  user(@Root() e: { userId: string | null }, @Ctx() ctx: Context) {
    return e.userId ? visibleUser(ctx, e.userId) : null;
  }
}

@Resolver(() => ReviewRivalType)
export class ReviewRivalResolver {
  @FieldResolver(() => UserType, { nullable: true, description: 'The rival' })
  user(@Root() e: { userId: string }, @Ctx() ctx: Context) {
    return visibleUser(ctx, e.userId);
  }
}
