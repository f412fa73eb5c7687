import { Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { ChartType } from '../shared/chart.type';
import { UserType } from '../shared/user.type';
import type { NotificationRow } from './notifications.service';
import { NotificationsArgs, OwnerArgs } from './social.inputs';
import {
  MarkNotificationsReadPayload,
  NotificationConnection,
  NotificationType,
  UnreadNotificationSummary,
} from './social.types';

/** Notifications: list, unread count (cheap enough to poll), mark read, and live. */
@Resolver(() => NotificationType)
export class NotificationsResolver {
  @Query(() => NotificationConnection, { description: 'Your notifications, newest first' })
  notifications(@Args(() => NotificationsArgs) { userId, type, first, after }: NotificationsArgs, @Ctx() ctx: Context) {
    return ctx.services.social.notifications.list(userId, type, first, after);
  }

  @Query(() => Int, {
    description:
      'The badge, as the reference counts it: notifications since you last marked them read, plus every pending follow request, plus (while you are private) every follower without approval. The parts: unreadNotificationSummary',
  })
  unreadNotificationCount(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return ctx.services.social.notifications.unreadCount(userId);
  }

  @Query(() => UnreadNotificationSummary, { description: 'The unread badge broken into its parts (one SQL statement)' })
  unreadNotificationSummary(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return ctx.services.social.notifications.unreadSummary(userId);
  }

  @Mutation(() => MarkNotificationsReadPayload, { description: 'Mark every notification read' })
  markNotificationsRead(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return ctx.services.social.notifications.markRead(userId);
  }

  @Subscription(() => NotificationType, {
    description: 'Your new notifications, as they happen (WebSocket, graphql-ws)',
    subscribe: ({ context }) => (context as Context).services.social.notificationStream(),
  })
  notificationAdded(@Root() row: NotificationRow): NotificationRow {
    return row;
  }

  @FieldResolver(() => UserType, {
    nullable: true,
    description: 'Who did it; null when the player is gone or the viewer may not see them',
  })
  actor(@Root() n: NotificationRow, @Ctx() ctx: Context) {
    return n.actorId ? ctx.services.users.user(n.actorId) : null;
  }

  @FieldResolver(() => ChartType, { nullable: true, description: 'OVERTAKEN: the chart; null for other kinds' })
  chart(@Root() n: NotificationRow, @Ctx() ctx: Context) {
    return n.chartId === null ? null : ctx.services.catalogue.catalogueChart(n.chartId);
  }
}
