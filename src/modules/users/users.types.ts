import { Field, ID, ObjectType } from 'type-graphql';
import { PageInfo } from '../../graphql/connection';
import { UserType } from '../shared/user.type';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

@ObjectType('UserBadge', { description: 'Value type: a supporter / staff badge shown on a profile' })
export class UserBadgeType {
  @Field(() => String, { description: 'coffee, saba, iidx, developer or pro' }) role!: string;
  @Field(() => String, { description: 'Text shown with the badge' }) description!: string;
  @Field(() => Date, { description: 'When the badge was granted' }) grantedAt!: Date;
}

@ObjectType('FollowCounts', {
  description: 'Value type: live counts of follow rows in each direction (approved or not)',
})
export class FollowCountsType {
  @Field(() => GraphQLNonNegativeInt, { description: 'Players following this user' }) followers!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Players this user follows' }) following!: number;
}

@ObjectType('Relationship', {
  description:
    'Value type: follow rows between the viewer and this user (approval ignored); all false for anonymous viewers',
})
export class RelationshipType {
  @Field(() => Boolean, { description: 'viewer → user' }) isFollowing!: boolean;
  @Field(() => Boolean, { description: 'user → viewer' }) isFollowedBy!: boolean;
  @Field(() => Boolean, { description: 'Both isFollowing and isFollowedBy' }) isMutual!: boolean;
  @Field(() => Boolean, { description: 'The user is the viewer' }) isSelf!: boolean;
}

@ObjectType('StatsPrivacy', { description: "Value type: the owner's display switches for stats" })
export class StatsPrivacyType {
  @Field(() => Boolean, { description: 'Others see the arena class (and best arena class)' }) showArenaClass!: boolean;
  @Field(() => Boolean, { description: 'Others see the arena rank' }) showArenaRank!: boolean;
  @Field(() => Boolean, { description: 'Others see the area' }) showArea!: boolean;
  @Field(() => Boolean, { description: 'Others see the dan grades' }) showGrade!: boolean;
}

@ObjectType('FollowEdge', { description: 'One follower or followed player of a page, with the follow time' })
export class FollowEdgeType {
  @Field(() => String, {
    description: 'Opaque cursor of this item: pass it as `after` to read the items that follow it',
  })
  cursor!: string;
  @Field(() => UserType, { description: 'The other user' }) node!: UserType;
  @Field(() => Date, { description: 'When the follow started' }) followedAt!: Date;
}

@ObjectType('FollowConnection', { description: 'A page of followers or followed players' })
export class FollowConnectionType {
  @Field(() => [FollowEdgeType], { description: 'The followers or followed players of this page' })
  edges!: FollowEdgeType[];
  @Field(() => PageInfo, { description: 'Whether more items follow or precede this page, and the cursors of its ends' })
  pageInfo!: PageInfo;
  @Field(() => GraphQLNonNegativeInt, { description: 'Number of followers or followed players in all pages' })
  totalCount!: number;
}

@ObjectType('NameAvailability', { description: 'Value type: whether a user name can be taken' })
export class NameAvailabilityType {
  @Field(() => String, { description: 'The name asked about (trimmed)' }) name!: string;
  @Field(() => Boolean, { description: 'True when the name is valid and nobody has it' }) available!: boolean;
  @Field(() => String, { description: 'Why not, or a confirmation, for the user' }) message!: string;
}

@ObjectType('ProfilePayload', { description: 'Result of creating or updating a profile' })
export class ProfilePayload {
  @Field(() => UserType, { description: 'The profile after the change' }) user!: UserType;
}

@ObjectType('DeleteAccountPayload', { description: 'Result of deleting your account (every row of yours is gone)' })
export class DeleteAccountPayload {
  @Field(() => ID, { description: 'Database id of the deleted user' }) deletedUserId!: string;
  @Field(() => String, { description: 'A one-line summary for the user' }) message!: string;
}
