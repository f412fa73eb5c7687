import { Arg, Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { User } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { UserType } from '../shared/user.type';
import { RivalChartArgs, RivalChartsArgs, RivalryArgs, RivalTrendArgs } from './rivals.inputs';
import type { RivalryData } from './rivals.service';
import { ProfileCompareType, RivalChartConnection, RivalChartType, RivalryType, RivalTrendPointType } from './rivals.types';

/** Rival reads on User (rules: src/graphql/rules.ts, User.compare / User.rivalry). */
@Resolver(() => UserType)
export class RivalsUserResolver {
  @FieldResolver(() => ProfileCompareType, { nullable: true, description: 'Win/loss of the viewer against this user and this user\'s radar, in a version (default latest)' })
  compare(@Root() user: User, @Arg('version', () => String, { nullable: true, description: 'Game version (default: the latest)' }) version: string | null | undefined, @Ctx() ctx: Context) {
    return ctx.services.rivals.compare(user.id, version);
  }

  @FieldResolver(() => RivalryType, {
    nullable: true,
    description:
      'The viewer against this user in a version: wins / losses / draws on the charts both played and the total-BPI difference, with the chart-by-chart comparison (charts), one chart (chart) and the trend. null for an anonymous viewer or a user the viewer may not see. Batched: nested under a list of users it costs the same SQL statements for 2 users as for 50.',
  })
  rivalry(@Root() user: User, @Args(() => RivalryArgs) args: RivalryArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.rivalry(user.id, args);
  }
}

/** The nested lists of a rivalry (the pair and filter come from the parent: no rule of their own). */
@Resolver(() => RivalryType)
export class RivalryResolver {
  @FieldResolver(() => RivalChartConnection, {
    description: 'Every chart of the rivalry\'s filter where the viewer or the rival has a best (domain-stats.md §5.1), sorted, paged by a keyset cursor',
  })
  charts(@Root() r: RivalryData, @Args(() => RivalChartsArgs) args: RivalChartsArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.rivalCharts(r, args);
  }

  @FieldResolver(() => RivalChartType, { nullable: true, description: 'The comparison on one chart (§5.2); null when neither has a best on it or the chart is unknown' })
  chart(@Root() r: RivalryData, @Args(() => RivalChartArgs) args: RivalChartArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.rivalChart(r, args.chartId);
  }

  @FieldResolver(() => [RivalTrendPointType], { description: 'Win/loss trend over time (§5.3): per JST day with plays of either, the change of wins − losses and the running value' })
  trend(@Root() r: RivalryData, @Args(() => RivalTrendArgs) args: RivalTrendArgs, @Ctx() ctx: Context) {
    return ctx.services.rivals.rivalTrend(r, args.level);
  }
}
