import { Field, ID, Int, ObjectType } from 'type-graphql';
import { PageInfo } from '../../graphql/connection';
import { UserType } from '../shared/user.type';

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

@ObjectType('StatsPrivacy', { description: 'The owner\'s display switches for stats' })
export class StatsPrivacyType {
  @Field(() => Boolean) showArenaClass!: boolean;
  @Field(() => Boolean) showArenaRank!: boolean;
  @Field(() => Boolean) showArea!: boolean;
  @Field(() => Boolean) showGrade!: boolean;
}

@ObjectType('FollowEdge')
export class FollowEdgeType {
  @Field(() => String) cursor!: string;
  @Field(() => UserType, { description: 'The other user' }) node!: UserType;
  @Field(() => Date) followedAt!: Date;
}

@ObjectType('FollowConnection', { description: 'A page of followers or followed players' })
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

