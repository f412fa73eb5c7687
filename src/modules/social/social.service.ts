import { viewerId } from '../../graphql/context';
import { mapSubscription } from '../../graphql/subscriptions';
import type { AreaScope } from '../area';
import { FollowsService } from './follows.service';
import { InvitesService } from './invites.service';
import { ListsService } from './lists.service';
import { NotificationsService, type NotificationRow } from './notifications.service';
import { TimelineService, type TimelineRow } from './timeline.service';

type Scope = Pick<
  AreaScope,
  'auth' | 'config' | 'ctx' | 'db' | 'catalogue' | 'events' | 'pubsub' | 'rateLimiter' | 'viewer'
>;

/** The social area's services for one request: `ctx.services.social.follows…`, `.invites`, `.lists`, `.notifications`, `.timeline`. */
export class SocialService {
  readonly follows: FollowsService;
  readonly invites: InvitesService;
  readonly lists: ListsService;
  readonly notifications: NotificationsService;
  readonly timeline: TimelineService;

  constructor(private readonly s: Scope) {
    this.follows = new FollowsService(s);
    this.invites = new InvitesService(s);
    this.lists = new ListsService(s);
    this.notifications = new NotificationsService(s);
    this.timeline = new TimelineService(s);
  }

  /** The caller's new notifications as they are published (each loaded under the caller's access). */
  notificationStream(): AsyncIterableIterator<NotificationRow> {
    const me = viewerId(this.s);
    return mapSubscription(
      this.s.ctx,
      this.s.pubsub.subscribe('NOTIFICATION_ADDED', me),
      (p) => this.notifications.byId(me, p.id),
      'notification',
    );
  }

  /** The caller's new feed entries as they are imported (each loaded under the caller's access). */
  timelineStream(): AsyncIterableIterator<TimelineRow> {
    const me = viewerId(this.s);
    return mapSubscription(
      this.s.ctx,
      this.s.pubsub.subscribe('TIMELINE_ENTRY_ADDED', me),
      (p) => this.timeline.entry(me, p.scoreId),
      'timeline-entry',
    );
  }
}
