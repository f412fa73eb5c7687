import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { UserType } from '../shared/user.type';
import { ChartType } from '../shared/chart.type';
import { ClearLamp, Difficulty, PlayStyle } from '../shared/enums';
import { GameVersionScalar } from '../../graphql/scalars';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

export enum ChartPopularityOrder {
  MOST = 'MOST',
  FEWEST = 'FEWEST',
}
registerEnumType(ChartPopularityOrder, {
  name: 'ChartPopularityOrder',
  description: 'MOST: most players first. FEWEST: fewest players first (charts played by at least one player).',
  valuesConfig: {
    MOST: { description: 'Most players first' },
    FEWEST: { description: 'Fewest players first (charts played by at least one player)' },
  },
});

@ObjectType('ChartAttribute', { description: "Value type: one named value of a chart's attribute vector" })
export class ChartAttributeType {
  @Field(() => String, { description: 'Attribute name (e.g. p_scratch, g_density)' }) name!: string;
  @Field(() => Float, { description: 'Attribute value' }) value!: number;
}

@ObjectType('PlayerChartScore', { description: "Value type: a player's best score on a chart in one game version" })
export class PlayerChartScoreType {
  @Field(() => GameVersionScalar, { description: 'Game version of the best' }) version!: string;
  @Field(() => Int, { description: 'Best EX score' }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'BPI of the EX score — model V1 (default): current definition, null without one; V2: fitted parameters, null when the chart has none',
  })
  bpi!: number | null;
  /** The chart (not a field: for bpi(model: V2)). */
  chartId!: number;
  @Field(() => ClearLamp, { nullable: true, description: 'Best clear lamp; null when none was recorded' }) clearLamp!:
    string | null;
  @Field(() => Int, { nullable: true, description: 'Fewest misses; null when unknown' }) missCount!: number | null;
  @Field(() => Date, { description: 'When the best was played' }) playedAt!: Date;
}

@ObjectType('SongRankingEntry', {
  description:
    'Value type: one player on a chart ranking. Players the caller may not see are anonymous: player is null.',
})
export class SongRankingEntryType {
  @Field(() => Int, {
    description: 'Competition rank: 1 + players with a strictly higher EX score (ties share a rank)',
  })
  rank!: number;
  @Field(() => UserType, {
    nullable: true,
    description: 'Null for a player the caller may not see (private, not followed with approval)',
  })
  player!: UserType | null;
  @Field(() => Boolean, { description: 'True when player is null (the caller may not see this player)' })
  anonymous!: boolean;
  @Field(() => Int, { description: "The player's best EX score on the chart" }) exScore!: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'BPI of the EX score — model V1 (default): current definition, null without one; V2: fitted parameters, null when the chart has none',
  })
  bpi!: number | null;
  /** The ranked chart (not a field: for bpi(model: V2)). */
  chartId!: number;
  @Field(() => Boolean, { description: 'This row is the caller’s (profile variant: the profile user’s)' })
  isSelf!: boolean;
}

@ObjectType({ description: 'A page of the players ranked on one chart' })
export class SongRankingConnection extends Connection(SongRankingEntryType, 'SongRankingEntry') {
  @Field(() => GameVersionScalar, { description: 'Game version the ranking is for' }) version!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Rank of the caller (profile variant: of the profile user); null when absent',
  })
  selfRank!: number | null;
}

@ObjectType('SimilarChart', { description: 'Value type: a chart near another by attribute-vector distance' })
export class SimilarChartType {
  @Field(() => ChartType, { description: 'The similar chart' }) chart!: ChartType;
  @Field(() => Float, { description: 'Euclidean distance over the attribute names both charts have' })
  distance!: number;
  @Field(() => PlayerChartScoreType, { nullable: true, description: "Profile variant: the profile user's best score" })
  score!: PlayerChartScoreType | null;
}

@ObjectType('ChartPopularity', { description: 'Value type: a chart with the number of players who played it' })
export class ChartPopularityType {
  @Field(() => ChartType, { description: 'The chart' }) chart!: ChartType;
  @Field(() => GraphQLNonNegativeInt, { description: 'Players with a best score on this chart in the version' })
  playerCount!: number;
}

@ObjectType({ description: 'A page of charts by how many players played them' })
export class ChartPopularityConnection extends Connection(ChartPopularityType, 'ChartPopularity') {}

@ObjectType('ChartWithScore', {
  description: "Value type: a catalogue chart with one player's best score (profile song list)",
})
export class ChartWithScoreType {
  @Field(() => ChartType, { description: 'The chart' }) chart!: ChartType;
  @Field(() => PlayerChartScoreType, {
    nullable: true,
    description: "The player's best on it; null when not played (or not visible)",
  })
  score!: PlayerChartScoreType | null;
}

@ObjectType({ description: "A page of charts, each with the viewer's best on it" })
export class ChartWithScoreConnection extends Connection(ChartWithScoreType, 'ChartWithScore') {}

@InputType('ChartAttributeInput', { description: "One named value of a chart's attribute vector" })
export class ChartAttributeInput {
  @Field(() => String, { description: 'Attribute name (e.g. p_scratch, g_density)' }) name!: string;
  @Field(() => Float, { description: 'Attribute value (a finite number)' }) value!: number;
}

export enum SimilarityModeEnum {
  SHARED = 'SHARED',
  PROFILE = 'PROFILE',
  GLOBAL = 'GLOBAL',
}
registerEnumType(SimilarityModeEnum, {
  name: 'SimilarityMode',
  description: 'How similarSongs measures the distance between two charts (Euclidean)',
  valuesConfig: {
    SHARED: { description: 'Over every attribute name both charts have (the default)' },
    PROFILE: {
      description:
        "The reference's profile mode: the 11 p_* attributes (relative within a chart), a missing one counting as 0; charts without p_* attributes take no part",
    },
    GLOBAL: {
      description:
        "The reference's global mode: 9 g_* attributes (comparable across charts; not g_udeoshi, g_scratch_complex), a missing one counting as 0; charts without g_* attributes take no part",
    },
  },
});

@InputType('ChartAttributesInput', {
  description: 'Attribute vector of one chart, matched by title + difficulty (+ play style, default SP)',
})
export class ChartAttributesInput {
  @Field(() => String, { description: 'Song title (exact)' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty slot' }) difficulty!: Difficulty;
  @Field(() => PlayStyle, { nullable: true, defaultValue: PlayStyle.SP, description: 'Play style (default SP)' })
  playStyle?: PlayStyle | null;
  @Field(() => [ChartAttributeInput], { description: "The attribute vector; replaces the chart's previous one" })
  attributes!: ChartAttributeInput[];
}

@ObjectType('ChartAttributesImportProblem', {
  description: 'Value type: an entry of an attribute import that was not stored',
})
export class ChartAttributesImportProblem {
  @Field(() => Int, { description: '0-based position of the entry in the input list' }) index!: number;
  @Field(() => String, { nullable: true, description: 'Title of the entry, when given' }) title!: string | null;
  @Field(() => String, { description: 'Why it was not stored (e.g. unknown chart)' }) reason!: string;
}

@ObjectType({ description: 'Result of importing chart attribute vectors' })
export class ImportChartAttributesPayload {
  @Field(() => Int, { description: 'Charts whose attribute vector changed' }) updated!: number;
  @Field(() => Int, { description: 'Charts whose attribute vector was already the same' }) unchanged!: number;
  @Field(() => [ChartAttributesImportProblem], { description: 'Entries not stored, with the reason' })
  problems!: ChartAttributesImportProblem[];
}
