import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { User } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { ConnectionArgs } from '../../graphql/connection';
import { isGameVersion, LATEST_VERSION } from '../../domain/constants';
import { formatGameId } from '../../domain/profile';
import { badInput, parseJsonArgument } from '../../errors';
import { CreateProfileInput, UpdateProfileInput } from './users.inputs';
import { importRadarCategories } from './radar.service';
import { UsersService } from './users.service';
import {
  AreaRankType,
  DeleteAccountPayload,
  FollowConnectionType,
  FollowCountsType,
  NameAvailabilityType,
  ProfileCompareType,
  ProfilePayload,
  ProfileStatsEntryType,
  RadarCategoryImportPayload,
  RelationshipType,
  StatsPrivacyType,
  UserBadgeType,
  UserType,
} from './users.types';

/**
 * Profile group. Root access comes from the rule table (user/userByName: VISIBLE); profile fields
 * of nested users (followers, following, authors…) re-check visibility per row through `canView`
 * (batched): for a user the viewer may not see they are null and `isMasked` is true. In the
 * follow connections the name of such a user is masked too (as the reference's follow lists).
 */
@Resolver(() => UserType)
export class UsersResolver {
  @Query(() => UserType, { nullable: true, description: 'A user by id (NOT_FOUND when unknown, FORBIDDEN when private and not visible)' })
  user(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(id);
  }

  @Query(() => UserType, { nullable: true, description: 'A user by name, case-insensitively (null when unknown)' })
  userByName(@Arg('name', () => String) name: string, @Ctx() ctx: Context) {
    return new UsersService(ctx).userByName(name);
  }

  @Query(() => NameAvailabilityType, { description: 'Whether a user name is valid and free (the caller\'s own name counts as taken)' })
  nameAvailability(@Arg('name', () => String) name: string, @Ctx() ctx: Context) {
    return new UsersService(ctx).nameAvailability(name);
  }

  @Mutation(() => ProfilePayload, { description: 'Creates the profile (local user) of an external identity that has none yet; CONFLICT when one exists' })
  async createProfile(@Arg('input', () => CreateProfileInput) input: CreateProfileInput, @Ctx() ctx: Context) {
    return { user: await new UsersService(ctx).createProfile(input) };
  }

  @Mutation(() => ProfilePayload, { description: 'Updates the caller\'s profile; omitted fields stay as they are' })
  async updateProfile(@Arg('input', () => UpdateProfileInput) input: UpdateProfileInput, @Ctx() ctx: Context) {
    return { user: await new UsersService(ctx).updateProfile(input) };
  }

  @Mutation(() => DeleteAccountPayload, { description: 'Deletes the caller\'s account and data; confirmName must equal the user name exactly' })
  deleteAccount(@Arg('confirmName', () => String) confirmName: string, @Ctx() ctx: Context) {
    return new UsersService(ctx).deleteAccount(confirmName);
  }

  @Mutation(() => RadarCategoryImportPayload, { description: 'Admin: import radar categories from JSON text [{title, difficulty, top}]' })
  async importRadarCategories(@Arg('json', () => String) json: string, @Ctx() ctx: Context) {
    const report = await importRadarCategories(ctx.db, parseJsonArgument(json, 'json'));
    // Always reload: categories may also have changed through the CLI since the last load.
    await ctx.app.catalogue.load();
    return report;
  }

  // ───────────── profile fields ─────────────

  @FieldResolver(() => Boolean, { description: 'True when the viewer may not see this user (private, not self, not an approved follower)' })
  async isMasked(@Root() user: User, @Ctx() ctx: Context) {
    return !(await new UsersService(ctx).canSee(user));
  }

  @FieldResolver(() => String, { nullable: true })
  profileText(@Root() user: User, @Ctx() ctx: Context) {
    return new UsersService(ctx).visible(user, () => user.profileText);
  }

  @FieldResolver(() => String, { nullable: true, description: 'https URL' })
  profileImage(@Root() user: User, @Ctx() ctx: Context) {
    return new UsersService(ctx).visible(user, () => user.profileImage);
  }

  @FieldResolver(() => String, { nullable: true, description: 'Game (IIDX) id, NNNN-NNNN' })
  gameId(@Root() user: User, @Ctx() ctx: Context) {
    return new UsersService(ctx).visible(user, () => formatGameId(user.gameId));
  }

  @FieldResolver(() => String, { nullable: true, description: 'X (Twitter) id' })
  socialId(@Root() user: User, @Ctx() ctx: Context) {
    return new UsersService(ctx).visible(user, () => user.socialId);
  }

  @FieldResolver(() => UserBadgeType, { nullable: true, description: 'Supporter / staff badge' })
  role(@Root() user: User, @Ctx() ctx: Context) {
    const s = new UsersService(ctx);
    return s.visible(user, () => s.badge(user));
  }

  @FieldResolver(() => FollowCountsType, { nullable: true, description: 'Live follower / following counts' })
  follows(@Root() user: User, @Ctx() ctx: Context) {
    const s = new UsersService(ctx);
    return s.visible(user, () => s.followCounts(user));
  }

  @FieldResolver(() => RelationshipType, { description: 'Follow rows between the viewer and this user' })
  relationship(@Root() user: User, @Ctx() ctx: Context) {
    return new UsersService(ctx).relationship(user);
  }

  @FieldResolver(() => [ProfileStatsEntryType], { nullable: true, description: 'Per-version total BPI and arena status, newest version first (INF last)' })
  stats(@Root() user: User, @Ctx() ctx: Context) {
    const s = new UsersService(ctx);
    return s.visible(user, () => s.stats(user));
  }

  @FieldResolver(() => AreaRankType, { nullable: true, description: 'Area rank among A-class players (null: no game id / not ranked / hidden by showArea)' })
  areaRank(@Root() user: User, @Ctx() ctx: Context) {
    const s = new UsersService(ctx);
    return s.visible(user, () => s.areaRank(user));
  }

  @FieldResolver(() => StatsPrivacyType, { nullable: true, description: 'The stats display switches: for the owner only (null for everyone else)' })
  statsPrivacy(@Root() user: User, @Ctx() ctx: Context) {
    return new UsersService(ctx).statsPrivacy(user);
  }

  @FieldResolver(() => ProfileCompareType, { nullable: true, description: 'Win/loss of the viewer against this user and this user\'s radar, in a version (default latest)' })
  async compare(
    @Root() user: User,
    @Arg('version', () => String, { nullable: true }) version: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    const v = version ?? LATEST_VERSION;
    if (!isGameVersion(v)) throw badInput(`Unknown game version ${v}`);
    const s = new UsersService(ctx);
    return s.visible(user, async () => {
      const [winLoss, radar] = await Promise.all([s.winLoss(user.id, v), s.radar(user.id, v)]);
      return { version: v, winLoss, radar };
    });
  }

  @FieldResolver(() => FollowConnectionType, { nullable: true, description: 'Users following this user, newest first (null when the viewer may not see this user)' })
  followers(@Root() user: User, @Args(() => ConnectionArgs) { first, after }: ConnectionArgs, @Ctx() ctx: Context) {
    const s = new UsersService(ctx);
    return s.visible(user, () => s.followConnection(user, 'followers', first, after));
  }

  @FieldResolver(() => FollowConnectionType, { nullable: true, description: 'Users this user follows, newest first (null when the viewer may not see this user)' })
  following(@Root() user: User, @Args(() => ConnectionArgs) { first, after }: ConnectionArgs, @Ctx() ctx: Context) {
    const s = new UsersService(ctx);
    return s.visible(user, () => s.followConnection(user, 'following', first, after));
  }
}

