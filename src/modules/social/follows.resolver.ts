import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { unauthenticated } from '../../errors';
import { UserType } from '../users/users.types';
import { FollowsService } from './follows.service';
import { FollowerArgs, FollowRequestIdArgs, InviteTokenArgs, OwnerArgs, OwnerConnectionArgs, TargetArgs } from './social.inputs';
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

const viewerId = (ctx: Context) => {
  if (!ctx.viewer) throw unauthenticated();
  return ctx.viewer.id;
};

const payload = (r: { followerId: string; followingId: string; state: string; pendingRequest: boolean }): FollowPayload => ({
  followerId: r.followerId,
  followingId: r.followingId,
  state: r.state as FollowStateEnum,
  pendingRequest: r.pendingRequest,
});

/** Follow / unfollow, follow requests and invitations. */
@Resolver()
export class FollowsResolver {
  // ---- follower side

  @Mutation(() => FollowPayload, { description: 'Follow a public user (instant). Private users: use their invitation (sendFollowRequest).' })
  async follow(@Args(() => TargetArgs) { userId }: TargetArgs, @Ctx() ctx: Context): Promise<FollowPayload> {
    return payload(await new FollowsService(ctx.app).follow(viewerId(ctx), userId));
  }

  @Mutation(() => FollowPayload, { description: 'Stop following (also removes the user from your follow lists; an approval ends with the follow).' })
  async unfollow(@Args(() => TargetArgs) { userId }: TargetArgs, @Ctx() ctx: Context): Promise<FollowPayload> {
    return payload(await new FollowsService(ctx.app).unfollow(viewerId(ctx), userId));
  }

  @Mutation(() => SendFollowRequestPayload, {
    description: 'Use an invitation token: follows a public inviter at once; asks a private inviter for approval (idempotent).',
  })
  async sendFollowRequest(@Args(() => InviteTokenArgs) { token }: InviteTokenArgs, @Ctx() ctx: Context): Promise<SendFollowRequestPayload> {
    const r = await new FollowsService(ctx.app).sendRequest(viewerId(ctx), token);
    return { status: r.status as FollowRequestStatus, targetId: r.targetId, state: r.state as FollowStateEnum };
  }

  @Mutation(() => FollowPayload, { description: 'Withdraw your pending follow request to a user' })
  async withdrawFollowRequest(@Args(() => TargetArgs) { userId }: TargetArgs, @Ctx() ctx: Context): Promise<FollowPayload> {
    return payload(await new FollowsService(ctx.app).withdrawRequest(viewerId(ctx), userId));
  }

  @Query(() => OutgoingFollowRequestConnection, { description: 'Your pending follow requests, newest first' })
  outgoingFollowRequests(@Args(() => OwnerConnectionArgs) { userId, first, after }: OwnerConnectionArgs, @Ctx() ctx: Context) {
    return new FollowsService(ctx.app).outgoingRequests(userId, first, after);
  }

  // ---- owner side

  @Query(() => PendingFollowerConnection, {
    description: 'Waiting for your approval: follow requests (oldest first), then, while you are private, followers you never approved',
  })
  incomingFollowRequests(@Args(() => OwnerConnectionArgs) { userId, first, after }: OwnerConnectionArgs, @Ctx() ctx: Context) {
    return new FollowsService(ctx.app).pendingFollowers(userId, first, after);
  }

  @Mutation(() => FollowPayload, { description: 'Approve a follow request: the requester follows you with access, and is notified' })
  async approveFollowRequest(@Args(() => FollowRequestIdArgs) { userId, requestId }: FollowRequestIdArgs, @Ctx() ctx: Context) {
    return payload(await new FollowsService(ctx.app).approveRequest(userId, requestId));
  }

  @Mutation(() => FollowPayload, { description: 'Reject a follow request (the requester is not notified)' })
  async rejectFollowRequest(@Args(() => FollowRequestIdArgs) { userId, requestId }: FollowRequestIdArgs, @Ctx() ctx: Context) {
    return payload(await new FollowsService(ctx.app).rejectRequest(userId, requestId));
  }

  @Mutation(() => FollowPayload, { description: 'Approve an existing follower that has no approval (a legacy follower)' })
  async approveFollower(@Args(() => FollowerArgs) { userId, followerId }: FollowerArgs, @Ctx() ctx: Context) {
    return payload(await new FollowsService(ctx.app).approveFollower(userId, followerId));
  }

  @Mutation(() => FollowPayload, { description: 'Remove a follower (and their approval). Not a block: they may ask again.' })
  async removeFollower(@Args(() => FollowerArgs) { userId, followerId }: FollowerArgs, @Ctx() ctx: Context) {
    return payload(await new FollowsService(ctx.app).removeFollower(userId, followerId));
  }

  // ---- invitations

  @Query(() => FollowInviteStatus, { description: 'Whether you have an invitation token (the token itself is only shown when issued)' })
  followInvite(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return new FollowsService(ctx.app).inviteStatus(userId);
  }

  @Mutation(() => IssueFollowInvitePayload, { description: 'Issue a new invitation token; the previous one stops working' })
  issueFollowInvite(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return new FollowsService(ctx.app).issueInvite(userId);
  }

  @Query(() => FollowInvite, { description: 'Who an invitation token belongs to, and where you stand with them (30 a minute per client IP)' })
  resolveFollowInvite(@Args(() => InviteTokenArgs) { token }: InviteTokenArgs, @Ctx() ctx: Context) {
    return new FollowsService(ctx.app).resolveInvite(ctx.viewer?.id ?? null, token, ctx.ip);
  }
}

@Resolver(() => PendingFollower)
export class PendingFollowerResolver {
  @FieldResolver(() => UserType, { nullable: true, description: 'Who asks (they chose to show themselves to you)' })
  requester(@Root() p: PendingFollower, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(p.requesterId);
  }
}

@Resolver(() => OutgoingFollowRequest)
export class OutgoingFollowRequestResolver {
  @FieldResolver(() => UserType, { nullable: true })
  target(@Root() r: OutgoingFollowRequest, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(r.targetId);
  }
}

@Resolver(() => FollowInvite)
export class FollowInviteResolver {
  @FieldResolver(() => UserType, { nullable: true, description: 'The inviter (holding the token reveals who they are)' })
  inviter(@Root() r: FollowInvite, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(r.inviterId);
  }
}
