import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { parseIntId } from '../../graphql/args';
import type { Context } from '../../graphql/context';
import { UserType } from '../shared/user.type';
import {
  FollowerArgs,
  FollowRequestIdArgs,
  InviteTokenArgs,
  OwnerArgs,
  OwnerConnectionArgs,
  TargetArgs,
} from './social.inputs';
import {
  FollowInvite,
  FollowInviteStatus,
  FollowPayload,
  FollowStateEnum,
  IssueFollowInvitePayload,
  OutgoingFollowRequest,
  OutgoingFollowRequestConnection,
  PendingFollower,
  PendingFollowerConnection,
  SendFollowRequestPayload,
  FollowRequestStatus,
} from './social.types';

const payload = (r: {
  followerId: string;
  followingId: string;
  state: string;
  pendingRequest: boolean;
  changed: boolean;
}): FollowPayload => ({
  followerId: r.followerId,
  followingId: r.followingId,
  state: r.state as FollowStateEnum,
  pendingRequest: r.pendingRequest,
  changed: r.changed,
});

/** Follow / unfollow, follow requests and invitations. */
@Resolver()
export class FollowsResolver {
  // ---- follower side

  @Mutation(() => FollowPayload, {
    description:
      'Follow a public user (instant). Following someone you already follow succeeds and changes nothing (changed: false). Private users: use their invitation (sendFollowRequest).',
  })
  async follow(@Args(() => TargetArgs) { userId }: TargetArgs, @Ctx() ctx: Context): Promise<FollowPayload> {
    return payload(await ctx.services.social.follows.follow(userId));
  }

  @Mutation(() => FollowPayload, {
    description:
      'Stop following (also removes the user from your follow lists; an approval ends with the follow). Unfollowing someone you do not follow succeeds and changes nothing (changed: false).',
  })
  async unfollow(@Args(() => TargetArgs) { userId }: TargetArgs, @Ctx() ctx: Context): Promise<FollowPayload> {
    return payload(await ctx.services.social.follows.unfollow(userId));
  }

  @Mutation(() => SendFollowRequestPayload, {
    description:
      'Use an invitation token: follows a public inviter at once; asks a private inviter for approval (idempotent).',
  })
  async sendFollowRequest(
    @Args(() => InviteTokenArgs) { token }: InviteTokenArgs,
    @Ctx() ctx: Context,
  ): Promise<SendFollowRequestPayload> {
    const r = await ctx.services.social.follows.sendRequest(token);
    return { status: r.status as FollowRequestStatus, targetId: r.targetId, state: r.state as FollowStateEnum };
  }

  @Mutation(() => FollowPayload, { description: 'Withdraw your pending follow request to a user' })
  async withdrawFollowRequest(
    @Args(() => TargetArgs) { userId }: TargetArgs,
    @Ctx() ctx: Context,
  ): Promise<FollowPayload> {
    return payload(await ctx.services.social.follows.withdrawRequest(userId));
  }

  @Query(() => OutgoingFollowRequestConnection, { description: 'Your pending follow requests, newest first' })
  outgoingFollowRequests(
    @Args(() => OwnerConnectionArgs) { userId, first, after }: OwnerConnectionArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.social.follows.outgoingRequests(userId, first, after);
  }

  // ---- owner side

  @Query(() => PendingFollowerConnection, {
    description:
      'Waiting for your approval: follow requests (oldest first), then, while you are private, followers you never approved',
  })
  incomingFollowRequests(
    @Args(() => OwnerConnectionArgs) { userId, first, after }: OwnerConnectionArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.social.follows.pendingFollowers(userId, first, after);
  }

  @Mutation(() => FollowPayload, {
    description: 'Approve a follow request: the requester follows you with access, and is notified',
  })
  async approveFollowRequest(
    @Args(() => FollowRequestIdArgs) { userId, requestId }: FollowRequestIdArgs,
    @Ctx() ctx: Context,
  ) {
    return payload(await ctx.services.social.follows.approveRequest(userId, parseIntId(requestId, 'requestId')));
  }

  @Mutation(() => FollowPayload, { description: 'Reject a follow request (the requester is not notified)' })
  async rejectFollowRequest(
    @Args(() => FollowRequestIdArgs) { userId, requestId }: FollowRequestIdArgs,
    @Ctx() ctx: Context,
  ) {
    return payload(await ctx.services.social.follows.rejectRequest(userId, parseIntId(requestId, 'requestId')));
  }

  @Mutation(() => FollowPayload, {
    description: 'Approve an existing follower that has no approval (a legacy follower)',
  })
  async approveFollower(@Args(() => FollowerArgs) { userId, followerId }: FollowerArgs, @Ctx() ctx: Context) {
    return payload(await ctx.services.social.follows.approveFollower(userId, followerId));
  }

  @Mutation(() => FollowPayload, {
    description: 'Remove a follower (and their approval). Not a block: they may ask again.',
  })
  async removeFollower(@Args(() => FollowerArgs) { userId, followerId }: FollowerArgs, @Ctx() ctx: Context) {
    return payload(await ctx.services.social.follows.removeFollower(userId, followerId));
  }

  // ---- invitations

  @Query(() => FollowInviteStatus, {
    description: 'Whether you have an invitation token (the token itself is only shown when issued)',
  })
  followInvite(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return ctx.services.social.invites.inviteStatus(userId);
  }

  @Mutation(() => IssueFollowInvitePayload, {
    description: 'Issue a new invitation token; the previous one stops working',
  })
  issueFollowInvite(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return ctx.services.social.invites.issueInvite(userId);
  }

  @Query(() => FollowInvite, {
    description: 'Who an invitation token belongs to, and where you stand with them (30 a minute per client IP)',
  })
  resolveFollowInvite(@Args(() => InviteTokenArgs) { token }: InviteTokenArgs, @Ctx() ctx: Context) {
    return ctx.services.social.follows.resolveInvite(token);
  }
}

@Resolver(() => PendingFollower)
export class PendingFollowerResolver {
  @FieldResolver(() => UserType, { nullable: true, description: 'Who asks (they chose to show themselves to you)' })
  requester(@Root() p: Pick<PendingFollower, 'requesterId'>, @Ctx() ctx: Context) {
    return ctx.services.users.user(p.requesterId);
  }
}

@Resolver(() => OutgoingFollowRequest)
export class OutgoingFollowRequestResolver {
  @FieldResolver(() => UserType, { nullable: true, description: 'The player asked; null when gone' })
  target(@Root() r: Pick<OutgoingFollowRequest, 'targetId'>, @Ctx() ctx: Context) {
    return ctx.services.users.user(r.targetId);
  }
}

@Resolver(() => FollowInvite)
export class FollowInviteResolver {
  @FieldResolver(() => UserType, {
    nullable: true,
    description: 'The inviter (holding the token reveals who they are)',
  })
  inviter(@Root() r: Pick<FollowInvite, 'inviterId'>, @Ctx() ctx: Context) {
    return ctx.services.users.user(r.inviterId);
  }
}
