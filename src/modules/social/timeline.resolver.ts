import { GraphQLNonNegativeInt } from '../../graphql/scalars';
import { Args, Ctx, FieldResolver, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { ChartType } from '../shared/chart.type';
import { UserType } from '../shared/user.type';
import type { TimelinePage, TimelineRow } from './timeline.service';
import { TimelineArgs } from './social.inputs';
import { TimelineConnection, TimelineEntry } from './social.types';

/** The score feed of the users you follow (and may see). */
@Resolver(() => TimelineEntry)
export class TimelineResolver {
  @Query(() => TimelineConnection, { description: 'Score updates of the users you follow, newest first' })
  timeline(
    @Args(() => TimelineArgs)
    { userId, mode, version, first, after, last, before, search, levels, difficulties }: TimelineArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.social.timeline.timeline(userId, {
      mode,
      version,
      first,
      after,
      last,
      before,
      search,
      levels,
      difficulties,
    });
  }

  @Subscription(() => TimelineEntry, {
    description: 'New score updates of the users you follow, as they are imported (WebSocket, graphql-ws)',
    subscribe: ({ context }) => (context as Context).services.social.timelineStream(),
  })
  timelineEntryAdded(@Root() row: TimelineRow): TimelineRow {
    return row;
  }

  @FieldResolver(() => UserType, { nullable: true, description: 'The player who played; null when gone' })
  user(@Root() r: TimelineRow, @Ctx() ctx: Context) {
    return ctx.services.users.user(r.userId);
  }

  @FieldResolver(() => ChartType, { nullable: true, description: 'The chart played; null when it left the catalogue' })
  chart(@Root() r: TimelineRow, @Ctx() ctx: Context) {
    return ctx.services.catalogue.catalogueChart(r.chartId);
  }
}

@Resolver(() => TimelineConnection)
export class TimelineConnectionResolver {
  // A resolver, not a plain field: the count runs only when selected (a plain field is read as a
  // value; a promise there would not be awaited by the compiled executor).
  @FieldResolver(() => GraphQLNonNegativeInt, { description: 'Number of entries in all pages, under the same filters' })
  totalCount(@Root() page: TimelinePage): Promise<number> {
    return page.countAll();
  }
}
