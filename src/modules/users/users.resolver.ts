import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { GraphQLURL } from 'graphql-scalars';
import type { User } from '../../generated/prisma/client';
import { viewerId, type Context } from '../../graphql/context';
import { ConnectionArgs } from '../../graphql/connection';
import { userVisibility } from '../../graphql/rules';
import { formatGameId } from '../../domain/profile';
import { UserType } from '../shared/user.type';
import { CreateProfileInput, UpdateProfileInput } from './users.inputs';
import {
  DeleteAccountPayload,
  FollowConnectionType,
  FollowCountsType,
  NameAvailabilityType,
  ProfilePayload,
  RelationshipType,
  StatsPrivacyType,
  UserBadgeType,
} from './users.types';
import type { FollowPage } from './users.service';

/**
 * Profile group. Who may read a field is the rule table's (src/graphql/rules.ts: Query.user and
 * User.* — for a user the viewer may not see the VISIBLE fields are null); the follow
 * connections also mask the names of such users (as the reference's follow lists).
 */
@Resolver(() => UserType)
export class UsersResolver {
  @Query(() => UserType, {
    nullable: true,
    description: 'A user by id (NOT_FOUND when unknown, FORBIDDEN when private and not visible)',
  })
  user(@Arg('id', () => ID, { description: 'The player (database id or global id)' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.users.user(id);
  }

  @Query(() => UserType, {
    nullable: true,
    description:
      "The caller whose account document is downloaded (GET /api/v1/me/export): the caller's own credential only, never a third-party app's token; null when the user no longer exists",
  })
  accountExportUser(@Ctx() ctx: Context) {
    return ctx.services.users.user(viewerId(ctx));
  }

  @Query(() => UserType, {
    nullable: true,
    description:
      "The caller whose uploaded profile image is written (PUT / DELETE /api/v1/me/profile-image): the caller's own credential only, never a third-party app's token; null when the user no longer exists",
  })
  profileImageOwner(@Ctx() ctx: Context) {
    return ctx.services.users.user(viewerId(ctx));
  }

  @Query(() => UserType, { nullable: true, description: 'A user by name, case-insensitively (null when unknown)' })
  userByName(@Arg('name', () => String, { description: 'The user name (exact)' }) name: string, @Ctx() ctx: Context) {
    return ctx.services.users.userByName(name);
  }

  @Query(() => NameAvailabilityType, {
    description: "Whether a user name is valid and free (the caller's own name counts as taken)",
  })
  nameAvailability(
    @Arg('name', () => String, { description: 'The user name to check' }) name: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.users.nameAvailability(name);
  }

  @Mutation(() => ProfilePayload, {
    description: 'Creates the profile (local user) of an external identity that has none yet; CONFLICT when one exists',
  })
  async createProfile(
    @Arg('input', () => CreateProfileInput, { description: 'The new profile' }) input: CreateProfileInput,
    @Ctx() ctx: Context,
  ) {
    return { user: await ctx.services.users.createProfile(input) };
  }

  @Mutation(() => ProfilePayload, { description: "Updates the caller's profile; omitted fields stay as they are" })
  async updateProfile(
    @Arg('input', () => UpdateProfileInput, { description: 'The fields to change (omitted fields stay)' })
    input: UpdateProfileInput,
    @Ctx() ctx: Context,
  ) {
    return { user: await ctx.services.users.updateProfile(input) };
  }

  @Mutation(() => DeleteAccountPayload, {
    description: "Deletes the caller's account and data; confirmName must equal the user name exactly",
  })
  deleteAccount(
    @Arg('confirmName', () => String, { description: 'Your user name, typed again to confirm' }) confirmName: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.users.deleteAccount(confirmName);
  }

  // ───────────── profile fields (rules: User.* in src/graphql/rules.ts) ─────────────

  @FieldResolver(() => Boolean, {
    description: 'True when the viewer may not see this user (private, not self, not an approved follower)',
  })
  isMasked(@Root() user: User, @Ctx() ctx: Context): boolean | Promise<boolean> {
    const visible = userVisibility(ctx, user);
    return typeof visible === 'boolean' ? !visible : visible.then((v) => !v);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Profile text; null when none (or when the viewer may not see the player)',
  })
  profileText(@Root() user: User) {
    return user.profileText;
  }

  @FieldResolver(() => GraphQLURL, {
    nullable: true,
    description: 'Profile image: an https URL; null when none (or when the viewer may not see the player)',
  })
  profileImage(@Root() user: User) {
    return user.profileImage;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Game (IIDX) id, NNNN-NNNN' })
  gameId(@Root() user: User) {
    return formatGameId(user.gameId);
  }

  @FieldResolver(() => String, { nullable: true, description: 'X (Twitter) id' })
  socialId(@Root() user: User) {
    return user.socialId;
  }

  @FieldResolver(() => UserBadgeType, { nullable: true, description: 'Supporter / staff badge' })
  role(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.users.badge(user);
  }

  @FieldResolver(() => FollowCountsType, { nullable: true, description: 'Live follower / following counts' })
  follows(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.users.followCounts(user);
  }

  @FieldResolver(() => RelationshipType, { description: 'Follow rows between the viewer and this user' })
  relationship(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.users.relationship(user);
  }

  @FieldResolver(() => StatsPrivacyType, {
    nullable: true,
    description: 'The stats display switches: for the owner only (null for everyone else)',
  })
  statsPrivacy(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.users.statsPrivacy(user);
  }

  @FieldResolver(() => FollowConnectionType, {
    nullable: true,
    description: 'Users following this user, newest first (null when the viewer may not see this user)',
  })
  followers(@Root() user: User, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return ctx.services.users.followConnection(user, 'followers', args);
  }

  @FieldResolver(() => FollowConnectionType, {
    nullable: true,
    description: 'Users this user follows, newest first (null when the viewer may not see this user)',
  })
  following(@Root() user: User, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return ctx.services.users.followConnection(user, 'following', args);
  }
}

/** A follow page's total, counted only when a query selects it (no rule of its own: the page's). */
@Resolver(() => FollowConnectionType)
export class FollowConnectionResolver {
  @FieldResolver() // (type and description: FollowConnectionType's field)
  totalCount(@Root() page: FollowPage): Promise<number> {
    return page.count();
  }
}
