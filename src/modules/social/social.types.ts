import { NotificationType as NotificationKind } from '../../domain/constants';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { ClearLamp } from '../shared/enums';
import { NodeInterface } from '../../graphql/global-id';
import { GameVersionScalar } from '../../graphql/scalars';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

export enum FollowStateEnum {
  NONE = 'none',
  REQUESTED = 'requested',
  FOLLOWING = 'following',
  APPROVED_FOLLOWER = 'approved-follower',
  LEGACY_FOLLOWER = 'legacy-follower',
}
registerEnumType(FollowStateEnum, {
  name: 'FollowState',
  description: 'The relationship of the viewer (follower) to a target user',
  valuesConfig: {
    NONE: { description: 'No follow, no pending request' },
    REQUESTED: { description: 'A follow request is pending (private target)' },
    FOLLOWING: { description: 'Following a public user (no approval)' },
    APPROVED_FOLLOWER: {
      description: 'Following with the target’s approval: sees the target’s data even while private',
    },
    LEGACY_FOLLOWER: { description: 'Following a private user without approval: no access until approved' },
  },
});

export enum FollowRequestStatus {
  FOLLOWED = 'FOLLOWED',
  REQUESTED = 'REQUESTED',
}
registerEnumType(FollowRequestStatus, {
  name: 'FollowRequestStatus',
  valuesConfig: {
    FOLLOWED: { description: 'You follow now (public target, or already approved)' },
    REQUESTED: { description: "A request waits for the target's approval" },
  },
  description: 'What sending a follow request did',
});

export enum PendingFollowerKind {
  REQUEST = 'REQUEST',
  LEGACY = 'LEGACY',
}
registerEnumType(PendingFollowerKind, {
  name: 'PendingFollowerKind',
  description: 'Why a follower waits for your approval',
  valuesConfig: {
    REQUEST: { description: 'A follow request (approve/reject with its id)' },
    LEGACY: { description: 'A follower without approval while you are private (approveFollower / removeFollower)' },
  },
});

// The stored notification types (prisma/schema.prisma), exposed as they are.
registerEnumType(NotificationKind, {
  name: 'NotificationType',
  valuesConfig: {
    NEW_FOLLOWER: { description: 'Somebody followed you' },
    FOLLOW_REQUEST: { description: 'Somebody asked to follow you (you are private)' },
    FOLLOW_APPROVED: { description: 'A player approved your follow request' },
    OVERTAKEN: { description: 'A player you follow passed your best on a chart' },
  },
  description: 'Kinds of notification',
});
export { NotificationKind };

export enum TimelineMode {
  ALL = 'ALL',
  PLAYED = 'PLAYED',
  OVERTAKEN = 'OVERTAKEN',
}
registerEnumType(TimelineMode, {
  name: 'TimelineMode',
  description: 'Which score updates the timeline lists',
  valuesConfig: {
    ALL: { description: 'Every score update of the users you follow' },
    PLAYED: { description: 'Only charts you have played in that version' },
    OVERTAKEN: { description: 'Only updates that passed your best (from at or below it to above it)' },
  },
});

@ObjectType({ description: 'Result of follow / unfollow / withdraw / approve / remove' })
export class FollowPayload {
  @Field(() => ID, { description: 'The follower' }) followerId!: string;
  @Field(() => ID, { description: 'The followed user' }) followingId!: string;
  @Field(() => FollowStateEnum, { description: 'The relationship after the operation' }) state!: FollowStateEnum;
  @Field(() => Boolean, { description: 'A follow request is still pending' }) pendingRequest!: boolean;
  @Field(() => Boolean, {
    description: 'False when the operation changed nothing (following again, unfollowing someone not followed)',
  })
  changed!: boolean;
}

@ObjectType({ description: 'Result of sending a follow request (or following at once when the target is public)' })
export class SendFollowRequestPayload {
  @Field(() => FollowRequestStatus, { description: 'FOLLOWED (public inviter, or already approved) or REQUESTED' })
  status!: FollowRequestStatus;
  @Field(() => ID, { description: 'Database id of the player asked' }) targetId!: string;
  @Field(() => FollowStateEnum, { description: 'Your relationship to them now' }) state!: FollowStateEnum;
}

@ObjectType({ description: 'Value type: somebody waiting for your approval' })
export class PendingFollower {
  @Field(() => PendingFollowerKind, { description: 'A request, or a follower from before you went private' })
  kind!: PendingFollowerKind;
  @Field(() => Int, { nullable: true, description: 'Request id (REQUEST only)' }) requestId!: number | null;
  @Field(() => ID, { description: 'Database id of the player waiting' }) requesterId!: string;
  @Field(() => Date, { description: 'Request time (REQUEST) or follow time (LEGACY)' }) createdAt!: Date;
}

@ObjectType({ description: 'A page of the follow requests waiting for your approval, newest first' })
export class PendingFollowerConnection extends Connection(PendingFollower, 'PendingFollower') {}

@ObjectType({ description: 'Value type: a follow request you sent that is still pending' })
export class OutgoingFollowRequest {
  @Field(() => Int, { description: 'Database id of the request' }) id!: number;
  @Field(() => ID, { description: 'Database id of the player asked' }) targetId!: string;
  @Field(() => Date, { description: 'When the request was sent' }) createdAt!: Date;
}

@ObjectType({ description: 'A page of the follow requests you sent, newest first' })
export class OutgoingFollowRequestConnection extends Connection(OutgoingFollowRequest, 'OutgoingFollowRequest') {}

@ObjectType({
  description: 'Value type: your invitation token (only its existence: the token itself is shown once, when issued)',
})
export class FollowInviteStatus {
  @Field(() => Boolean, { description: 'True when you have a token' }) exists!: boolean;
  @Field(() => Date, { nullable: true, description: 'When the token was issued; null when there is none' })
  createdAt!: Date | null;
  @Field(() => String, {
    nullable: true,
    description:
      'The current working token (share as /invite/{token}), opened from its sealed copy: only its owner sees it. Null when there is none, or when it was issued before tokens were sealed or under another INVITE_TOKEN_KEY (issueFollowInvite gives a new one)',
  })
  token!: string | null;
}

@ObjectType({ description: 'Your new invitation token (any previous one stops working)' })
export class IssueFollowInvitePayload {
  @Field(() => String, {
    description:
      '32 lowercase hex characters. Share as /invite/{token}. Stored as its hash (the lookup key) and sealed for you: followInvite shows it again.',
  })
  token!: string;
  @Field(() => Date, { description: 'When the token was issued' }) createdAt!: Date;
}

@ObjectType({ description: 'Value type: what an invitation token leads to' })
export class FollowInvite {
  @Field(() => String, { description: 'Kind of invitation (always "follow" for now)' }) type!: string;
  @Field(() => ID, { description: 'Database id of the player who issued the token' }) inviterId!: string;
  @Field(() => Boolean, { description: 'The token is the viewer’s own' }) isSelf!: boolean;
  @Field(() => Boolean, {
    description: 'The viewer already follows with access (public: following; private: approved)',
  })
  isFollowing!: boolean;
  @Field(() => Boolean, { description: 'The viewer already has a pending follow request to the inviter' })
  hasPendingRequest!: boolean;
}

@ObjectType('FollowList', {
  implements: NodeInterface,
  description: 'A list of users you follow (visible to you only)',
})
export class FollowListType {
  @Field(() => Int, {
    name: 'databaseId',
    description: 'Database id of the list (the `listId` of the list operations)',
  })
  id!: number;
  @Field(() => String, { description: 'List name (1–50 characters, unique among your lists)' }) name!: string;
  @Field(() => Boolean, { description: 'Stored for the future; lists are never shown to others' }) isPublic!: boolean;
  @Field(() => Date, { description: 'When the list was created' }) createdAt!: Date;
  @Field(() => GraphQLNonNegativeInt, { description: 'Players in the list' }) memberCount!: number;
}

@ObjectType({ description: 'Result of deleting one of your follow lists (its members stay followed)' })
export class DeleteFollowListPayload {
  @Field(() => ID, { description: 'Global id of the deleted list (evict it from a client cache)' }) id!: string;
  @Field(() => Boolean, { description: 'False when there was no such list' }) deleted!: boolean;
}

@ObjectType({ description: 'Result of adding a player to, or removing one from, a follow list' })
export class FollowListMemberPayload {
  @Field(() => Int, { description: 'Database id of the list' }) listId!: number;
  @Field(() => ID, { description: 'Database id of the player added or removed' }) userId!: string;
  @Field(() => Boolean, { description: 'The user is in the list after the operation' }) isMember!: boolean;
}

@ObjectType({ description: 'Value type: a user you follow, with the ids of your lists they are in' })
export class FollowedUserWithLists {
  @Field(() => ID, { description: 'Database id of the followed player' }) userId!: string;
  @Field(() => FollowStateEnum, { description: 'Your relationship to them' }) state!: FollowStateEnum;
  @Field(() => Date, { description: 'When you started following' }) followedAt!: Date;
  @Field(() => [Int], { description: 'Database ids of your lists they are in' }) listIds!: number[];
}

@ObjectType({ description: 'A page of the players you follow, each with your lists they are in' })
export class FollowedUserWithListsConnection extends Connection(FollowedUserWithLists, 'FollowedUserWithLists') {}

@ObjectType('Notification', { implements: NodeInterface, description: 'Something that happened to you' })
export class NotificationType {
  @Field(() => Int, { name: 'databaseId', description: 'Database id of the notification' }) id!: number;
  @Field(() => NotificationKind, { description: 'What happened' }) type!: NotificationKind;
  @Field(() => Date, { description: 'When it happened' }) createdAt!: Date;
  @Field(() => Boolean, { description: 'Created before your last markNotificationsRead' }) read!: boolean;
  @Field(() => ID, {
    nullable: true,
    description: 'Who did it (follower, approver, requester, the player who overtook you)',
  })
  actorId!: string | null;
  @Field(() => Int, { nullable: true, description: 'OVERTAKEN: the chart' }) chartId!: number | null;
  @Field(() => GameVersionScalar, { nullable: true, description: 'OVERTAKEN: game version' }) version!: string | null;
  @Field(() => Int, { nullable: true, description: 'OVERTAKEN: the actor’s new EX score' }) actorExScore!:
    number | null;
  @Field(() => Int, { nullable: true, description: 'OVERTAKEN: your best EX score at that moment' }) myExScore!:
    number | null;
}

@ObjectType({ description: 'A page of your notifications, newest first' })
export class NotificationConnection extends Connection(NotificationType, 'Notification') {}

@ObjectType({ description: 'Result of marking your notifications read' })
export class MarkNotificationsReadPayload {
  @Field(() => Date, { description: 'The new read watermark: notifications created until then are read' })
  lastReadAt!: Date;
  @Field(() => GraphQLNonNegativeInt, {
    description: 'The badge after marking read: pending requests and legacy followers stay until acted on',
  })
  unreadCount!: number;
}

@ObjectType({
  description:
    'Value type: the unread badge and its parts. total = notifications + pendingRequests + legacyFollowers; notifications = newFollowers + overtaken + followApproved (after the read watermark)',
})
export class UnreadNotificationSummary {
  @Field(() => Int, { description: 'The badge (= unreadNotificationCount)' }) total!: number;
  @Field(() => Int, {
    description: 'Notifications after the read watermark (newFollowers + overtaken + followApproved)',
  })
  notifications!: number;
  @Field(() => Int, { description: 'NEW_FOLLOWER notifications after the read watermark' }) newFollowers!: number;
  @Field(() => Int, { description: 'OVERTAKEN notifications after the read watermark (of rivals you may see)' })
  overtaken!: number;
  @Field(() => Int, { description: 'FOLLOW_APPROVED notifications after the read watermark' }) followApproved!: number;
  @Field(() => Int, {
    description:
      'Follow requests waiting for your decision (counted until approved or rejected, whatever the watermark)',
  })
  pendingRequests!: number;
  @Field(() => Int, {
    description:
      'While you are private: followers without approval that have no pending request (counted until approved or removed)',
  })
  legacyFollowers!: number;
}

@ObjectType({ description: "Value type: your best on a timeline entry's chart, to compare with" })
export class ViewerTimelineScore {
  @Field(() => Int, { description: 'Your best EX score' }) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of your best; null without a definition' }) bpi!:
    number | null;
  @Field(() => Int, { description: 'your EX − theirs' }) diffExScore!: number;
}

@ObjectType({
  implements: NodeInterface,
  description: 'One score update of a user you follow (a Node: node(id:) gives the play as seen by the caller)',
})
export class TimelineEntry {
  @Field(() => Int, { name: 'databaseId', description: 'The play id (the Play with this databaseId)' }) id!: number;
  @Field(() => ID, { description: 'Database id of the player who played' }) userId!: string;
  @Field(() => Int, { description: 'Database id of the chart' }) chartId!: number;
  @Field(() => GameVersionScalar, { description: 'Game version of the play' }) version!: string;
  @Field(() => Date, { description: 'When the play happened' }) playedAt!: Date;
  @Field(() => Int, { description: 'EX score of the play' }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'BPI of the play (V1: stored with the definition in force at import; model V2: the fitted BPI V2 of its EX score, null when the chart has none)',
  })
  bpi!: number | null;
  @Field(() => Int, { nullable: true, description: 'Their best EX on the chart in this version before this play' })
  previousExScore!: number | null;
  @Field(() => Int, { nullable: true, description: 'exScore − previousExScore; null when there was no previous best' })
  diffExScore!: number | null;
  @Field(() => Float, { nullable: true, description: 'BPI of their play before this one (same chart and version)' })
  previousBpi!: number | null;
  @Field(() => ClearLamp, { nullable: true, description: 'Clear lamp of the play; null when unknown' })
  clearLamp!: ClearLamp | null;
  @Field(() => Int, { nullable: true, description: 'Miss count of the play; null when unknown' }) missCount!:
    number | null;
  @Field(() => Boolean, { description: 'This play passed your best (previous best ≤ yours < this)' })
  isOvertaken!: boolean;
  @Field(() => ViewerTimelineScore, {
    nullable: true,
    description: 'Your best on the chart in this version (null: not played)',
  })
  viewerScore!: ViewerTimelineScore | null;
}

@ObjectType({ description: 'A page of the score updates of the players you follow, newest first' })
export class TimelineConnection extends Connection(TimelineEntry, 'TimelineEntry') {}
