import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { ChartFields } from '../scores/scores.types';
import { ArenaClass, ClearLamp } from '../shared/enums';
import { UserType } from '../shared/user.type';
import { GameVersionScalar } from '../../graphql/scalars';

@ObjectType('GlobalRankingEntry', {
  description:
    'Value type: one player on the total-BPI ranking of a version. Players the caller may not see are anonymous: player is null.',
})
export class GlobalRankingEntryType {
  @Field(() => Int, {
    description: 'Competition rank: 1 + players with a strictly higher total BPI (ties share a rank)',
  })
  rank!: number;
  @Field(() => UserType, {
    nullable: true,
    description:
      'Null for a player the caller may not see (private, not followed with approval), or whose area / arena class the ranking is filtered on while they hide it',
  })
  player!: UserType | null;
  @Field(() => Boolean, { description: 'True when player is null (the caller may not see this player)' })
  anonymous!: boolean;
  @Field(() => Float, { description: 'Total BPI in the version (−15 without scores)' }) totalBpi!: number;
  @Field(() => Boolean, { description: 'This row is the caller’s' }) isSelf!: boolean;
}

@ObjectType({ description: 'A page of the players ranked by total BPI' })
export class GlobalRankingConnection extends Connection(GlobalRankingEntryType, 'GlobalRankingEntry') {
  @Field(() => GameVersionScalar, { description: 'Game version the ranking is for' }) version!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Rank of the caller under the same filters; null when signed out or absent',
  })
  selfRank!: number | null;
}

@ObjectType('ProfileStatsEntry', {
  description:
    "Value type: per game version, total BPI and official arena status (masked by the owner's privacy switches for others)",
})
export class ProfileStatsEntryType {
  @Field(() => GameVersionScalar, { description: 'Game version' }) version!: string;
  @Field(() => Float, {
    nullable: true,
    description:
      'Total BPI in the version; null when never computed (not masked: the total BPI is public with the profile)',
  })
  totalBpi!: number | null;
  @Field(() => ArenaClass, {
    nullable: true,
    description: 'Official arena class in the version; null when hidden (showArenaClass off) or none',
  })
  arenaClass!: string | null;
  @Field(() => Int, { nullable: true, description: 'null when hidden (showArenaRank off)' }) arenaRank!: number | null;
  @Field(() => String, { nullable: true, description: 'null when hidden (showArea off)' }) area!: string | null;
  @Field(() => String, { nullable: true, description: 'null when hidden (showGrade off)' }) gradeSp!: string | null;
  @Field(() => String, { nullable: true, description: 'null when hidden (showGrade off)' }) gradeDp!: string | null;
  @Field(() => Date, { nullable: true, description: "When the version's stats were last recomputed; null when never" })
  updatedAt!: Date | null;
  @Field(() => ArenaClass, {
    nullable: true,
    description: 'Best official arena class reached in the version; null when hidden (showArenaClass off) or none',
  })
  bestArenaClass!: string | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When the best arena class was first seen; null when hidden (showArenaClass off) or none',
  })
  bestArenaClassAt!: Date | null;
}

@ObjectType('AreaRank', {
  description: 'Value type: rank among the A-class players of the same area in the latest official arena ranking',
})
export class AreaRankType {
  @Field(() => String, { description: 'The area (prefecture / region, as the official arena data names it)' })
  area!: string;
  // rank: field resolver (stats.resolver.ts AreaRankResolver) over areaRank, the key the REST profile shape keeps
  @Field(() => Int, {
    description: '1-based rank in that area (same as rank)',
    deprecationReason: 'Use rank (the type name is not repeated in its fields); removed in the next release',
  })
  areaRank!: number;
  @Field(() => Int, { description: 'A-class players of the area in the ranking' }) totalInArea!: number;
}

@ObjectType('Radar', {
  description: 'Value type: total BPI per radar category (−15 when no chart of the category is played)',
})
export class RadarType {
  // the camelCase fields (notes, chord…) are field resolvers reading these keys (stats.resolver.ts RadarResolver)
  @Field(() => Float, {
    description: 'Total BPI over the NOTES charts (same as notes)',
    deprecationReason: 'Use notes (fields are camelCase); removed in the next release',
  })
  NOTES!: number;
  @Field(() => Float, {
    description: 'Total BPI over the CHORD charts (same as chord)',
    deprecationReason: 'Use chord (fields are camelCase); removed in the next release',
  })
  CHORD!: number;
  @Field(() => Float, {
    description: 'Total BPI over the PEAK charts (same as peak)',
    deprecationReason: 'Use peak (fields are camelCase); removed in the next release',
  })
  PEAK!: number;
  @Field(() => Float, {
    description: 'Total BPI over the CHARGE charts (same as charge)',
    deprecationReason: 'Use charge (fields are camelCase); removed in the next release',
  })
  CHARGE!: number;
  @Field(() => Float, {
    description: 'Total BPI over the SCRATCH charts (same as scratch)',
    deprecationReason: 'Use scratch (fields are camelCase); removed in the next release',
  })
  SCRATCH!: number;
  @Field(() => Float, {
    description: 'Total BPI over the SOFLAN charts (same as soflan)',
    deprecationReason: 'Use soflan (fields are camelCase); removed in the next release',
  })
  SOFLAN!: number;
}

@ObjectType('RecommendedEntry', {
  description: 'Value type: a chart in weapons/potential (docs/domain/stats.md#recommended)',
})
export class RecommendedEntryType extends ChartFields {
  @Field(() => Int, { description: 'Id of the play that set this best' }) logId!: number;
  @Field(() => Int, { description: 'Best EX score' }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'BPI of the best (current definition) (model V2: the fitted BPI V2, null when the chart has none)',
  })
  bpi!: number | null;
  @Field(() => ClearLamp, { nullable: true, description: 'Best clear lamp; null when none was recorded' })
  clearLamp!: ClearLamp | null;
  @Field(() => String, { nullable: true, description: 'Lamp as the reference wire string ("HARD CLEAR")' })
  clearState!: string | null;
  @Field(() => Int, { nullable: true, description: 'Fewest misses; null when unknown' }) missCount!: number | null;
  @Field(() => Date, { description: 'When the best was played' }) scoreAt!: Date;
  @Field(() => Float, { description: 'BPI (−15 when none) minus the player total BPI' }) bpiDiff!: number;
}

@ObjectType('RecommendedList', {
  description: 'Value type: one page of weapons or potential, with the size of the whole list',
})
export class RecommendedListType {
  @Field(() => [RecommendedEntryType], { description: 'The entries of the page (limit / offset)' })
  data!: RecommendedEntryType[];
  @Field(() => Int, { description: 'Entries in the whole list' }) total!: number;
}

@ObjectType('Recommended', {
  description:
    "Value type: a player's strongest charts (weapons) and the charts with the most room (potential), against the total BPI",
})
export class RecommendedType {
  @Field(() => Float, { description: 'The total BPI the entries are compared with' }) totalBpi!: number;
  @Field(() => RecommendedListType, { description: 'Charts most above the total (strongest)' })
  weapons!: RecommendedListType;
  @Field(() => RecommendedListType, { description: 'Charts most below the total (most room)' })
  potential!: RecommendedListType;
}

@ObjectType('TotalBpiHistoryPoint', { description: 'Value type: the total BPI at the end of one day, week or month' })
export class TotalBpiHistoryPointType {
  @Field(() => String, { description: 'JST date (day), Monday of the week, or YYYY-MM' }) date!: string;
  @Field(() => Float, { description: 'Total BPI at the end of the period' }) totalBpi!: number;
  @Field(() => Int, { description: 'Charts of the set played so far' }) count!: number;
  @Field(() => Int, { description: 'Plays in this period' }) updated!: number;
}
