import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { parseIntId } from '../../graphql/args';
import type { Context } from '../../graphql/context';
import { toGlobalId } from '../../graphql/global-id';
import { visibleUser } from '../../graphql/rules';
import { UserType } from '../shared/user.type';
import {
  CreateFollowListArgs,
  FollowListArgs,
  FollowListMemberArgs,
  OwnerArgs,
  OwnerConnectionArgs,
  UpdateFollowListArgs,
} from './social.inputs';
import {
  DeleteFollowListPayload,
  FollowedUserWithLists,
  FollowedUserWithListsConnection,
  FollowListMemberPayload,
  FollowListType,
} from './social.types';

/** Follow lists: owner-only, never shown to anyone else. */
@Resolver()
export class FollowListsResolver {
  @Query(() => [FollowListType], { description: 'Your follow lists, oldest first' })
  followLists(@Args(() => OwnerArgs) { userId }: OwnerArgs, @Ctx() ctx: Context) {
    return ctx.services.social.lists.lists(userId);
  }

  @Query(() => FollowedUserWithListsConnection, {
    description: 'Everyone you follow (by name) with the ids of your lists they are in',
  })
  followingWithLists(
    @Args(() => OwnerConnectionArgs) { userId, first, after }: OwnerConnectionArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.social.lists.followingWithLists(userId, first, after);
  }

  @Mutation(() => FollowListType, { description: 'Create a follow list of your own' })
  createFollowList(
    @Args(() => CreateFollowListArgs) { userId, name, isPublic }: CreateFollowListArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.social.lists.create(userId, name, isPublic);
  }

  @Mutation(() => FollowListType, { description: 'Rename and/or change the visibility flag (at least one)' })
  updateFollowList(
    @Args(() => UpdateFollowListArgs) { userId, listId, name, isPublic }: UpdateFollowListArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.social.lists.update(userId, parseIntId(listId, 'listId'), { name, isPublic });
  }

  @Mutation(() => DeleteFollowListPayload, {
    description: 'Delete one of your follow lists (its members stay followed)',
  })
  async deleteFollowList(
    @Args(() => FollowListArgs) { userId, listId }: FollowListArgs,
    @Ctx() ctx: Context,
  ): Promise<DeleteFollowListPayload> {
    const id = parseIntId(listId, 'listId');
    await ctx.services.social.lists.delete(userId, id);
    return { id: toGlobalId('FollowList', id), deleted: true };
  }

  @Mutation(() => FollowListMemberPayload, { description: 'Add a user you follow to a list (idempotent)' })
  async addFollowListMember(
    @Args(() => FollowListMemberArgs) { userId, listId, memberId }: FollowListMemberArgs,
    @Ctx() ctx: Context,
  ) {
    const id = parseIntId(listId, 'listId');
    await ctx.services.social.lists.addMember(userId, id, memberId);
    return { listId: id, userId: memberId, isMember: true };
  }

  @Mutation(() => FollowListMemberPayload, { description: 'Remove a user from a list (idempotent)' })
  async removeFollowListMember(
    @Args(() => FollowListMemberArgs) { userId, listId, memberId }: FollowListMemberArgs,
    @Ctx() ctx: Context,
  ) {
    const id = parseIntId(listId, 'listId');
    await ctx.services.social.lists.removeMember(userId, id, memberId);
    return { listId: id, userId: memberId, isMember: false };
  }
}

@Resolver(() => FollowedUserWithLists)
export class FollowedUserWithListsResolver {
  @FieldResolver(() => UserType, {
    nullable: true,
    description: 'The user; null while they are private and have not approved you',
  })
  user(@Root() r: Pick<FollowedUserWithLists, 'userId'>, @Ctx() ctx: Context) {
    return visibleUser(ctx, r.userId);
  }
}
