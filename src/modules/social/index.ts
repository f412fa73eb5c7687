import { TimelineEntry } from './social.types';
import { bpiModelResolver } from '../shared/bpi-model';
import { defineArea } from '../area';
import { socialNodes } from './social.nodes';
import {
  FollowInviteResolver,
  FollowsResolver,
  OutgoingFollowRequestResolver,
  PendingFollowerResolver,
} from './follows.resolver';
import { FollowedUserWithListsResolver, FollowListsResolver } from './lists.resolver';
import { NotificationsResolver } from './notifications.resolver';
import { onScoresImported } from './social.events';
import { SocialService } from './social.service';
import { TimelineConnectionResolver, TimelineResolver } from './timeline.resolver';

/**
 * Social: follows, requests, invitations, lists, notifications, the timeline and their live
 * subscriptions. Depends on users and rivals (followers passed by an import).
 */
export const socialArea = defineArea({
  name: 'social',
  resolvers: [
    bpiModelResolver(TimelineEntry),
    FollowsResolver,
    PendingFollowerResolver,
    OutgoingFollowRequestResolver,
    FollowInviteResolver,
    FollowListsResolver,
    FollowedUserWithListsResolver,
    NotificationsResolver,
    TimelineResolver,
    TimelineConnectionResolver,
  ],
  services: (s) => new SocialService(s),
  nodes: socialNodes,
  listeners(deps) {
    deps.events.on('scores.imported', (e) => onScoresImported(deps, e));
  },
});

declare module '../../graphql/context' {
  interface Services {
    social: SocialService;
  }
}
