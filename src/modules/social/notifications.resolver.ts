import { Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { mapSubscription } from '../../graphql/subscriptions';
import { unauthenticated } from '../../errors';
import { ChartType } from '../songs/songs.types';
import { UserType } from '../users/users.types';
import { NotificationsService, type NotificationRow } from './notifications.service';
import { NotificationsArgs, OwnerArgs } from './social.inputs';
import { MarkNotificationsReadPayload, NotificationConnection, NotificationType } from './social.types';

/** Notifications: list, unread count (cheap enough to poll), mark read, and live. */
@Resolver(() => NotificationType)
export class NotificationsResolver {
  @Query(() => NotificationConnection, { description: 'Your notifications, newest first' })
  notifications(@Args(() => NotificationsArgs) { userId, type, first, after }: NotificationsArgs, @Ctx() ctx: Context) {
    return new NotificationsService(ctx.db).list(userId, type, first, after);
  }

  @Query(() => Int, { description: 'Notifications since you last marked them read' })
  unreadNotificationCount(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return new NotificationsService(ctx.db).unreadCount(userId);
  }

  @Mutation(() => MarkNotificationsReadPayload, { description: 'Mark every notification read' })
  markNotificationsRead(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return new NotificationsService(ctx.db).markRead(userId);
  }

  @Subscription(() => NotificationType, {
    description: 'Your new notifications, as they happen (WebSocket, graphql-ws)',
    subscribe: ({ context }) => {
      const ctx = context as Context;
      if (!ctx.viewer) throw unauthenticated();
      const viewerId = ctx.viewer.id;
      const service = new NotificationsService(ctx.db);
      return mapSubscription(ctx, ctx.app.pubsub.subscribe('NOTIFICATION_ADDED', viewerId), (p) => service.byId(viewerId, p.id), 'notification');
    },
  })
  notificationAdded(@Root() row: NotificationRow): NotificationRow {
    return row;
  }

  @FieldResolver(() => UserType, { nullable: true })
  actor(@Root() n: NotificationRow, @Ctx() ctx: Context) {
    return n.actorId ? ctx.loaders.userById.load(n.actorId) : null;
  }

  @FieldResolver(() => ChartType, { nullable: true })
  chart(@Root() n: NotificationRow, @Ctx() ctx: Context) {
    return n.chartId === null ? null : (ctx.app.catalogue.chart(n.chartId) ?? null);
  }
}
