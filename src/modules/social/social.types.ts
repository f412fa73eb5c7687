import { NotificationType as NotificationKind } from '../../domain/constants';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { ClearLamp } from '../shared/enums';
import { NodeInterface } from '../../graphql/global-id';

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
    APPROVED_FOLLOWER: { description: 'Following with the target’s approval: sees the target’s data even while private' },
    LEGACY_FOLLOWER: { description: 'Following a private user without approval: no access until approved' },
  },
});

export enum FollowRequestStatus {
  FOLLOWED = 'FOLLOWED',
  REQUESTED = 'REQUESTED',
}
registerEnumType(FollowRequestStatus, { name: 'FollowRequestStatus' });

export enum PendingFollowerKind {
  REQUEST = 'REQUEST',
  LEGACY = 'LEGACY',
}
registerEnumType(PendingFollowerKind, {
  name: 'PendingFollowerKind',
  valuesConfig: {
    REQUEST: { description: 'A follow request (approve/reject with its id)' },
    LEGACY: { description: 'A follower without approval while you are private (approveFollower / removeFollower)' },
  },
});

// The stored notification types (prisma/schema.prisma), exposed as they are.
registerEnumType(NotificationKind, { name: 'NotificationType' });
export { NotificationKind };

export enum TimelineMode {
  ALL = 'ALL',
  PLAYED = 'PLAYED',
  OVERTAKEN = 'OVERTAKEN',
}
registerEnumType(TimelineMode, {
  name: 'TimelineMode',
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
  @Field(() => Boolean, { description: 'False when the operation changed nothing (following again, unfollowing someone not followed)' })
  changed!: boolean;
}

@ObjectType()
export class SendFollowRequestPayload {
  @Field(() => FollowRequestStatus, { description: 'FOLLOWED (public inviter, or already approved) or REQUESTED' })
  status!: FollowRequestStatus;
  @Field(() => ID) targetId!: string;
  @Field(() => FollowStateEnum) state!: FollowStateEnum;
}

@ObjectType({ description: 'Somebody waiting for your approval' })
export class PendingFollower {
  @Field(() => PendingFollowerKind) kind!: PendingFollowerKind;
  @Field(() => Int, { nullable: true, description: 'Request id (REQUEST only)' }) requestId!: number | null;
  @Field(() => ID) requesterId!: string;
  @Field(() => Date, { description: 'Request time (REQUEST) or follow time (LEGACY)' }) createdAt!: Date;
}

@ObjectType()
export class PendingFollowerConnection extends Connection(PendingFollower, 'PendingFollower') {}

@ObjectType({ description: 'A follow request you sent that is still pending' })
export class OutgoingFollowRequest {
  @Field(() => Int) id!: number;
  @Field(() => ID) targetId!: string;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType()
export class OutgoingFollowRequestConnection extends Connection(OutgoingFollowRequest, 'OutgoingFollowRequest') {}

@ObjectType({ description: 'Your invitation token (only its existence: the token itself is shown once, when issued)' })
export class FollowInviteStatus {
  @Field(() => Boolean) exists!: boolean;
  @Field(() => Date, { nullable: true }) createdAt!: Date | null;
  @Field(() => String, {
    nullable: true,
    description:
      'The current working token (share as /invite/{token}), opened from its sealed copy: only its owner sees it. Null when there is none, or when it was issued before tokens were sealed or under another INVITE_TOKEN_KEY (issueFollowInvite gives a new one)',
  })
  token!: string | null;
}

@ObjectType()
export class IssueFollowInvitePayload {
  @Field(() => String, { description: '32 lowercase hex characters. Share as /invite/{token}. Stored as its hash (the lookup key) and sealed for you: followInvite shows it again.' })
  token!: string;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType({ description: 'What an invitation token leads to' })
export class FollowInvite {
  @Field(() => String, { description: 'Kind of invitation (always "follow" for now)' }) type!: string;
  @Field(() => ID) inviterId!: string;
  @Field(() => Boolean, { description: 'The token is the viewer’s own' }) isSelf!: boolean;
  @Field(() => Boolean, { description: 'The viewer already follows with access (public: following; private: approved)' })
  isFollowing!: boolean;
  @Field(() => Boolean) hasPendingRequest!: boolean;
}

@ObjectType('FollowList', { implements: NodeInterface, description: 'A list of users you follow (visible to you only)' })
export class FollowListType {
  @Field(() => Int, { name: 'databaseId', description: 'Database id of the list (the `listId` of the list operations)' }) id!: number;
  @Field(() => String) name!: string;
  @Field(() => Boolean, { description: 'Stored for the future; lists are never shown to others' }) isPublic!: boolean;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Int) memberCount!: number;
}

@ObjectType()
export class DeleteFollowListPayload {
  @Field(() => ID, { description: 'Global id of the deleted list (evict it from a client cache)' }) id!: string;
  @Field(() => Boolean) deleted!: boolean;
}

@ObjectType()
export class FollowListMemberPayload {
  @Field(() => Int) listId!: number;
  @Field(() => ID) userId!: string;
  @Field(() => Boolean, { description: 'The user is in the list after the operation' }) isMember!: boolean;
}

@ObjectType({ description: 'A user you follow, with the ids of your lists they are in' })
export class FollowedUserWithLists {
  @Field(() => ID) userId!: string;
  @Field(() => FollowStateEnum) state!: FollowStateEnum;
  @Field(() => Date) followedAt!: Date;
  @Field(() => [Int]) listIds!: number[];
}

@ObjectType()
export class FollowedUserWithListsConnection extends Connection(FollowedUserWithLists, 'FollowedUserWithLists') {}

@ObjectType('Notification', { implements: NodeInterface, description: 'Something that happened to you' })
export class NotificationType {
  @Field(() => Int, { name: 'databaseId', description: 'Database id of the notification' }) id!: number;
  @Field(() => NotificationKind) type!: NotificationKind;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Boolean, { description: 'Created before your last markNotificationsRead' }) read!: boolean;
  @Field(() => ID, { nullable: true, description: 'Who did it (follower, approver, requester, the player who overtook you)' })
  actorId!: string | null;
  @Field(() => Int, { nullable: true, description: 'OVERTAKEN: the chart' }) chartId!: number | null;
  @Field(() => String, { nullable: true, description: 'OVERTAKEN: game version' }) version!: string | null;
  @Field(() => Int, { nullable: true, description: 'OVERTAKEN: the actor’s new EX score' }) actorExScore!: number | null;
  @Field(() => Int, { nullable: true, description: 'OVERTAKEN: your best EX score at that moment' }) myExScore!: number | null;
}

@ObjectType()
export class NotificationConnection extends Connection(NotificationType, 'Notification') {}

@ObjectType()
export class MarkNotificationsReadPayload {
  @Field(() => Date) lastReadAt!: Date;
  @Field(() => Int, { description: 'The badge after marking read: pending requests and legacy followers stay until acted on' })
  unreadCount!: number;
}

@ObjectType({
  description:
    'Value type: the unread badge and its parts. total = notifications + pendingRequests + legacyFollowers; notifications = newFollowers + overtaken + followApproved (after the read watermark)',
})
export class UnreadNotificationSummary {
  @Field(() => Int, { description: 'The badge (= unreadNotificationCount)' }) total!: number;
  @Field(() => Int, { description: 'Notifications after the read watermark (newFollowers + overtaken + followApproved)' }) notifications!: number;
  @Field(() => Int, { description: 'NEW_FOLLOWER notifications after the read watermark' }) newFollowers!: number;
  @Field(() => Int, { description: 'OVERTAKEN notifications after the read watermark (of rivals you may see)' }) overtaken!: number;
  @Field(() => Int, { description: 'FOLLOW_APPROVED notifications after the read watermark' }) followApproved!: number;
  @Field(() => Int, { description: 'Follow requests waiting for your decision (counted until approved or rejected, whatever the watermark)' })
  pendingRequests!: number;
  @Field(() => Int, { description: 'While you are private: followers without approval that have no pending request (counted until approved or removed)' })
  legacyFollowers!: number;
}

@ObjectType()
export class ViewerTimelineScore {
  @Field(() => Int) exScore!: number;
  @Field(() => Float, { nullable: true }) bpi!: number | null;
  @Field(() => Int, { description: 'your EX − theirs' }) diffExScore!: number;
}

@ObjectType({ description: 'One score update of a user you follow' })
export class TimelineEntry {
  @Field(() => ID, { description: 'The score (play) id' }) id!: number;
  @Field(() => ID) userId!: string;
  @Field(() => Int) chartId!: number;
  @Field(() => String) version!: string;
  @Field(() => Date) playedAt!: Date;
  @Field(() => Int) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of the play (V1: stored with the definition in force at import; model V2: the fitted BPI V2 of its EX score, null when the chart has none)' }) bpi!: number | null;
  @Field(() => Int, { nullable: true, description: 'Their best EX on the chart in this version before this play' })
  previousExScore!: number | null;
  @Field(() => Int, { nullable: true }) diffExScore!: number | null;
  @Field(() => Float, { nullable: true, description: 'BPI of their play before this one (same chart and version)' }) previousBpi!: number | null;
  @Field(() => ClearLamp, { nullable: true }) clearLamp!: ClearLamp | null;
  @Field(() => Int, { nullable: true }) missCount!: number | null;
  @Field(() => Boolean, { description: 'This play passed your best (previous best ≤ yours < this)' }) isOvertaken!: boolean;
  @Field(() => ViewerTimelineScore, { nullable: true, description: 'Your best on the chart in this version (null: not played)' })
  viewerScore!: ViewerTimelineScore | null;
}

@ObjectType()
export class TimelineConnection extends Connection(TimelineEntry, 'TimelineEntry') {}
