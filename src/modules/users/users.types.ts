import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { PageInfo } from '../../graphql/connection';

/**
 * A player. Profile fields, stats, relationships and per-area fields are added by field
 * resolvers (users, scores, social…); see users.resolver.ts.
 *
 * Visibility of nested users (followers, following, authors…): the root `user(id)` is checked by
 * the rule table; every profile field resolver re-checks `canView` per row (batched through
 * loaders). For a user the viewer may not see, `isMasked` is true and every profile/stats field
 * (profileText, profileImage, gameId, socialId, role, follows, stats, areaRank, compare, followers,
 * following) is null; `id`, `name`, `isPublic` and `relationship` stay. In the follow connections
 * the name is masked as well (MASKED_USER_NAME, as the reference's follow lists).
 */
@ObjectType('User')
export class UserType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'User name (2–20 characters); "非公開ユーザー" in follow lists for a private user the viewer may not see' })
  name!: string;
  @Field(() => Boolean) isPublic!: boolean;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType('UserBadge', { description: 'Supporter / staff badge shown on a profile' })
export class UserBadgeType {
  @Field(() => String, { description: 'coffee, saba, iidx, developer or pro' }) role!: string;
  @Field(() => String) description!: string;
  @Field(() => Date) grantedAt!: Date;
}

@ObjectType('FollowCounts', { description: 'Live counts of follow rows in each direction (approved or not)' })
export class FollowCountsType {
  @Field(() => Int) followers!: number;
  @Field(() => Int) following!: number;
}

@ObjectType('Relationship', { description: 'Follow rows between the viewer and this user (approval ignored); all false for anonymous viewers' })
export class RelationshipType {
  @Field(() => Boolean, { description: 'viewer → user' }) isFollowing!: boolean;
  @Field(() => Boolean, { description: 'user → viewer' }) isFollowedBy!: boolean;
  @Field(() => Boolean) isMutual!: boolean;
  @Field(() => Boolean) isSelf!: boolean;
}

@ObjectType('ProfileStatsEntry', { description: 'Per game version: total BPI and official arena status (masked by the owner\'s privacy switches for others)' })
export class ProfileStatsEntryType {
  @Field(() => String) version!: string;
  @Field(() => Float, { nullable: true }) totalBpi!: number | null;
  @Field(() => String, { nullable: true, description: 'null when hidden (showArenaClass off)' }) arenaClass!: string | null;
  @Field(() => Int, { nullable: true, description: 'null when hidden (showArenaRank off)' }) arenaRank!: number | null;
  @Field(() => String, { nullable: true, description: 'null when hidden (showArea off)' }) area!: string | null;
  @Field(() => String, { nullable: true, description: 'null when hidden (showGrade off)' }) gradeSp!: string | null;
  @Field(() => String, { nullable: true, description: 'null when hidden (showGrade off)' }) gradeDp!: string | null;
  @Field(() => Date, { nullable: true }) updatedAt!: Date | null;
  @Field(() => String, { nullable: true }) bestArenaClass!: string | null;
  @Field(() => Date, { nullable: true }) bestArenaClassAt!: Date | null;
}

@ObjectType('AreaRank', { description: 'Rank among the A-class players of the same area in the latest official arena ranking' })
export class AreaRankType {
  @Field(() => String) area!: string;
  @Field(() => Int) areaRank!: number;
  @Field(() => Int) totalInArea!: number;
}

@ObjectType('StatsPrivacy', { description: 'The owner\'s display switches for stats' })
export class StatsPrivacyType {
  @Field(() => Boolean) showArenaClass!: boolean;
  @Field(() => Boolean) showArenaRank!: boolean;
  @Field(() => Boolean) showArea!: boolean;
  @Field(() => Boolean) showGrade!: boolean;
}

@ObjectType('WinLoss', { description: 'Viewer against the user on the SP charts of one level both have played (win: viewer\'s EX is higher)' })
export class WinLossType {
  @Field(() => Int) level!: number;
  @Field(() => Int) win!: number;
  @Field(() => Int) lose!: number;
  @Field(() => Int) draw!: number;
}

@ObjectType('Radar', { description: 'Total BPI per radar category (−15 when no chart of the category is played)' })
export class RadarType {
  @Field(() => Float) NOTES!: number;
  @Field(() => Float) CHORD!: number;
  @Field(() => Float) PEAK!: number;
  @Field(() => Float) CHARGE!: number;
  @Field(() => Float) SCRATCH!: number;
  @Field(() => Float) SOFLAN!: number;
}

@ObjectType('ProfileCompare')
export class ProfileCompareType {
  @Field(() => String) version!: string;
  @Field(() => [WinLossType], { nullable: true, description: 'null for anonymous viewers' }) winLoss!: WinLossType[] | null;
  @Field(() => RadarType, { description: 'The user\'s radar' }) radar!: RadarType;
}

@ObjectType('FollowEdge')
export class FollowEdgeType {
  @Field(() => String) cursor!: string;
  @Field(() => UserType, { description: 'The other user' }) node!: UserType;
  @Field(() => Date) followedAt!: Date;
}

@ObjectType('FollowConnection')
export class FollowConnectionType {
  @Field(() => [FollowEdgeType]) edges!: FollowEdgeType[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
  @Field(() => Int) totalCount!: number;
}

@ObjectType('NameAvailability')
export class NameAvailabilityType {
  @Field(() => String) name!: string;
  @Field(() => Boolean) available!: boolean;
  @Field(() => String) message!: string;
}

@ObjectType('ProfilePayload')
export class ProfilePayload {
  @Field(() => UserType) user!: UserType;
}

@ObjectType('DeleteAccountPayload')
export class DeleteAccountPayload {
  @Field(() => ID) deletedUserId!: string;
  @Field(() => String) message!: string;
}

@ObjectType('RadarCategoryImportPayload', { description: 'Result of importing radar categories ([{title, difficulty, top}])' })
export class RadarCategoryImportPayload {
  @Field(() => Int, { description: 'entries in the file' }) total!: number;
  @Field(() => Int, { description: 'entries matching an SP chart of the catalogue' }) matched!: number;
  @Field(() => Int, { description: 'charts whose category changed' }) updated!: number;
  @Field(() => Int, { description: 'entries with no matching chart' }) unmatched!: number;
  @Field(() => Int, { description: 'malformed entries skipped' }) invalid!: number;
  @Field(() => [String], { description: 'up to 20 unmatched "title (DIFFICULTY)"' }) unmatchedSamples!: string[];
}

