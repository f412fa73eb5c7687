import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { ChartFields } from '../scores/scores.types';
import { ClearLamp } from '../shared/enums';
import { UserType } from '../shared/user.type';

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

@ObjectType('Radar', { description: 'Total BPI per radar category (−15 when no chart of the category is played)' })
export class RadarType {
  @Field(() => Float) NOTES!: number;
  @Field(() => Float) CHORD!: number;
  @Field(() => Float) PEAK!: number;
  @Field(() => Float) CHARGE!: number;
  @Field(() => Float) SCRATCH!: number;
  @Field(() => Float) SOFLAN!: number;
}

@ObjectType('RecommendedEntry', { description: 'A chart in weapons/potential (domain-stats §3.8)' })
export class RecommendedEntryType extends ChartFields {
  @Field(() => Int) logId!: number;
  @Field(() => Int) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of the best (current definition) (model V2: the fitted BPI V2, null when the chart has none)' }) bpi!: number | null;
  @Field(() => ClearLamp, { nullable: true }) clearLamp!: ClearLamp | null;
  @Field(() => String, { nullable: true }) clearState!: string | null;
  @Field(() => Int, { nullable: true }) missCount!: number | null;
  @Field(() => Date) scoreAt!: Date;
  @Field(() => Float, { description: 'BPI (−15 when none) minus the player total BPI' }) bpiDiff!: number;
}

@ObjectType('RecommendedList')
export class RecommendedListType {
  @Field(() => [RecommendedEntryType]) data!: RecommendedEntryType[];
  @Field(() => Int) total!: number;
}

@ObjectType('Recommended')
export class RecommendedType {
  @Field(() => Float, { description: 'The total BPI the entries are compared with' }) totalBpi!: number;
  @Field(() => RecommendedListType, { description: 'Charts most above the total (strongest)' }) weapons!: RecommendedListType;
  @Field(() => RecommendedListType, { description: 'Charts most below the total (most room)' }) potential!: RecommendedListType;
}

@ObjectType('TotalBpiHistoryPoint')
export class TotalBpiHistoryPointType {
  @Field(() => String, { description: 'JST date (day), Monday of the week, or YYYY-MM' }) date!: string;
  @Field(() => Float) totalBpi!: number;
  @Field(() => Int, { description: 'Charts of the set played so far' }) count!: number;
  @Field(() => Int, { description: 'Plays in this period' }) updated!: number;
}
