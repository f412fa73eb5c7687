import { Args, Ctx, FieldResolver, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { mapSubscription } from '../../graphql/subscriptions';
import { isGameVersion } from '../../domain/constants';
import { badInput, unauthenticated } from '../../errors';
import { ChartType } from '../songs/songs.types';
import { UserType } from '../users/users.types';
import { TimelineService, type TimelineRow } from './timeline.service';
import { TimelineArgs } from './social.inputs';
import { TimelineConnection, TimelineEntry } from './social.types';

/** The score feed of the users you follow (and may see). */
@Resolver(() => TimelineEntry)
export class TimelineResolver {
  @Query(() => TimelineConnection, { description: 'Score updates of the users you follow, newest first' })
  timeline(@Args(() => TimelineArgs) { userId, mode, version, first, after, search, levels, difficulties }: TimelineArgs, @Ctx() ctx: Context) {
    if (levels?.some((l) => !Number.isInteger(l) || l < 1 || l > 12)) {
      throw badInput('levels must be between 1 and 12', [{ code: 'too_big', path: ['levels'], message: 'levels must be between 1 and 12' }]);
    }
    if (version !== null && version !== undefined && !isGameVersion(version)) {
      throw badInput('Unknown game version', [{ code: 'invalid_enum_value', path: ['version'], message: 'Unknown game version' }]);
    }
    return new TimelineService(ctx.db, ctx.app.catalogue).timeline(userId, { mode, version, first, after, search, levels, difficulties });
  }

  @Subscription(() => TimelineEntry, {
    description: 'New score updates of the users you follow, as they are imported (WebSocket, graphql-ws)',
    subscribe: ({ context }) => {
      const ctx = context as Context;
      if (!ctx.viewer) throw unauthenticated();
      const viewerId = ctx.viewer.id;
      const service = new TimelineService(ctx.db, ctx.app.catalogue);
      return mapSubscription(ctx, ctx.app.pubsub.subscribe('TIMELINE_ENTRY_ADDED', viewerId), (p) => service.entry(viewerId, p.scoreId), 'timeline-entry');
    },
  })
  timelineEntryAdded(@Root() row: TimelineRow): TimelineRow {
    return row;
  }

  @FieldResolver(() => UserType, { nullable: true })
  user(@Root() r: TimelineRow, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(r.userId);
  }

  @FieldResolver(() => ChartType, { nullable: true })
  chart(@Root() r: TimelineRow, @Ctx() ctx: Context) {
    return ctx.app.catalogue.chart(r.chartId) ?? null;
  }
}
