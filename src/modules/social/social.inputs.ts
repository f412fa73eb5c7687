import { ArgsType, Field, ID, Int } from 'type-graphql';
import { BidirectionalConnectionArgs, ConnectionArgs } from '../../graphql/connection';
import { Difficulty } from '../shared/enums';
import { NotificationKind, TimelineMode } from './social.types';
import { GameVersionScalar } from '../../graphql/scalars';

@ArgsType()
export class OwnerArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
}

@ArgsType()
export class OwnerConnectionArgs extends ConnectionArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
}

@ArgsType()
export class TargetArgs {
  @Field(() => ID, { description: 'The user to follow / unfollow / withdraw the request to' }) userId!: string;
}

@ArgsType()
export class InviteTokenArgs {
  @Field(() => String, { description: 'The invitation token (32 hex characters)' }) token!: string;
}

@ArgsType()
export class FollowRequestIdArgs extends OwnerArgs {
  @Field(() => ID, { description: 'The request (PendingFollower.requestId; an Int literal is accepted as an ID)' })
  requestId!: string;
}

@ArgsType()
export class FollowerArgs extends OwnerArgs {
  @Field(() => ID, { description: 'The follower (database id or global id)' }) followerId!: string;
}

@ArgsType()
export class CreateFollowListArgs extends OwnerArgs {
  @Field(() => String, { description: '1–50 characters after trimming' }) name!: string;
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: 'Stored for the future; lists are never shown to others (default false)',
  })
  isPublic!: boolean;
}

@ArgsType()
export class UpdateFollowListArgs extends OwnerArgs {
  @Field(() => ID, { description: 'The list: its `id` (global) or `databaseId`' }) listId!: string;
  @Field(() => String, { nullable: true, description: '1–50 characters after trimming' }) name?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Stored for the future; null leaves it as it is' }) isPublic?:
    boolean | null;
}

@ArgsType()
export class FollowListArgs extends OwnerArgs {
  @Field(() => ID, { description: 'The list: its `id` (global) or `databaseId`' }) listId!: string;
}

@ArgsType()
export class FollowListMemberArgs extends OwnerArgs {
  @Field(() => ID, { description: 'The list: its `id` (global) or `databaseId`' }) listId!: string;
  @Field(() => ID, { description: 'A user you follow' }) memberId!: string;
}

@ArgsType()
export class NotificationsArgs extends OwnerConnectionArgs {
  @Field(() => NotificationKind, { nullable: true, description: 'Only this type (default: all)' })
  type?: NotificationKind | null;
}

@ArgsType()
export class TimelineArgs extends BidirectionalConnectionArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
  @Field(() => TimelineMode, {
    nullable: true,
    defaultValue: TimelineMode.ALL,
    description: 'Which updates to list (default ALL)',
  })
  mode!: TimelineMode;
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' }) version?:
    string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Part of the player’s name or of the song title (at most 256 characters)',
  })
  search?: string | null;
  @Field(() => [Int], { nullable: true, description: 'Chart levels (1–12)' }) levels?: number[] | null;
  @Field(() => [Difficulty], { nullable: true, description: 'Only these difficulties (default: all)' }) difficulties?:
    Difficulty[] | null;
}
