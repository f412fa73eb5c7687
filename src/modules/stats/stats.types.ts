import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { UserType } from '../users/users.types';

@ObjectType('GlobalRankingEntry', {
  description: 'One player on the total-BPI ranking of a version. Players the caller may not see are anonymous: player is null.',
})
export class GlobalRankingEntryType {
  @Field(() => Int, { description: 'Competition rank: 1 + players with a strictly higher total BPI (ties share a rank)' })
  rank!: number;
  @Field(() => UserType, {
    nullable: true,
    description: 'Null for a player the caller may not see (private, not followed with approval), or whose area / arena class the ranking is filtered on while they hide it',
  })
  player!: UserType | null;
  @Field(() => Boolean) anonymous!: boolean;
  @Field(() => Float, { description: 'Total BPI in the version (−15 without scores)' }) totalBpi!: number;
  @Field(() => Boolean, { description: 'This row is the caller’s' }) isSelf!: boolean;
}

@ObjectType()
export class GlobalRankingConnection extends Connection(GlobalRankingEntryType, 'GlobalRankingEntry') {
  @Field(() => String) version!: string;
  @Field(() => Int, { nullable: true, description: 'Rank of the caller under the same filters; null when signed out or absent' })
  selfRank!: number | null;
}
