import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { UserType } from '../shared/user.type';
import { ChartType } from '../shared/chart.type';
import { Difficulty, PlayStyle } from '../shared/enums';

export enum ChartPopularityOrder {
  MOST = 'MOST',
  FEWEST = 'FEWEST',
}
registerEnumType(ChartPopularityOrder, {
  name: 'ChartPopularityOrder',
  description: 'MOST: most players first. FEWEST: fewest players first (charts played by at least one player).',
});

@ObjectType('ChartAttribute', { description: 'One named value of a chart’s attribute vector' })
export class ChartAttributeType {
  @Field(() => String) name!: string;
  @Field(() => Float) value!: number;
}

@ObjectType('PlayerChartScore', { description: "A player's best score on a chart in one game version" })
export class PlayerChartScoreType {
  @Field(() => String) version!: string;
  @Field(() => Int) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of the EX score — model V1 (default): current definition, null without one; V2: fitted parameters, null when the chart has none' }) bpi!: number | null;
  /** The chart (not a field: for bpi(model: V2)). */
  chartId!: number;
  @Field(() => String, { nullable: true, description: 'Clear lamp (ClearLamp value name, e.g. HARD_CLEAR)' }) clearLamp!: string | null;
  @Field(() => Int, { nullable: true }) missCount!: number | null;
  @Field(() => Date) playedAt!: Date;
}

@ObjectType('SongRankingEntry', {
  description: 'One player on a chart ranking. Players the caller may not see are anonymous: player is null.',
})
export class SongRankingEntryType {
  @Field(() => Int, { description: 'Competition rank: 1 + players with a strictly higher EX score (ties share a rank)' })
  rank!: number;
  @Field(() => UserType, { nullable: true, description: 'Null for a player the caller may not see (private, not followed with approval)' })
  player!: UserType | null;
  @Field(() => Boolean) anonymous!: boolean;
  @Field(() => Int) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'BPI of the EX score — model V1 (default): current definition, null without one; V2: fitted parameters, null when the chart has none' }) bpi!: number | null;
  /** The ranked chart (not a field: for bpi(model: V2)). */
  chartId!: number;
  @Field(() => Boolean, { description: 'This row is the caller’s (profile variant: the profile user’s)' }) isSelf!: boolean;
}

@ObjectType()
export class SongRankingConnection extends Connection(SongRankingEntryType, 'SongRankingEntry') {
  @Field(() => String) version!: string;
  @Field(() => Int, { nullable: true, description: 'Rank of the caller (profile variant: of the profile user); null when absent' })
  selfRank!: number | null;
}

@ObjectType('SimilarChart', { description: 'A chart near another by attribute-vector distance' })
export class SimilarChartType {
  @Field(() => ChartType) chart!: ChartType;
  @Field(() => Float, { description: 'Euclidean distance over the attribute names both charts have' }) distance!: number;
  @Field(() => PlayerChartScoreType, { nullable: true, description: "Profile variant: the profile user's best score" })
  score!: PlayerChartScoreType | null;
}

@ObjectType('ChartPopularity')
export class ChartPopularityType {
  @Field(() => ChartType) chart!: ChartType;
  @Field(() => Int, { description: 'Players with a best score on this chart in the version' }) playerCount!: number;
}

@ObjectType()
export class ChartPopularityConnection extends Connection(ChartPopularityType, 'ChartPopularity') {}

@ObjectType('ChartWithScore', { description: "A catalogue chart with one player's best score (profile song list)" })
export class ChartWithScoreType {
  @Field(() => ChartType) chart!: ChartType;
  @Field(() => PlayerChartScoreType, { nullable: true }) score!: PlayerChartScoreType | null;
}

@ObjectType()
export class ChartWithScoreConnection extends Connection(ChartWithScoreType, 'ChartWithScore') {}

@InputType('ChartAttributeInput')
export class ChartAttributeInput {
  @Field(() => String) name!: string;
  @Field(() => Float) value!: number;
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
    PROFILE: { description: "The reference's profile mode: the 11 p_* attributes (relative within a chart), a missing one counting as 0; charts without p_* attributes take no part" },
    GLOBAL: { description: "The reference's global mode: 9 g_* attributes (comparable across charts; not g_udeoshi, g_scratch_complex), a missing one counting as 0; charts without g_* attributes take no part" },
  },
});

@InputType('ChartAttributesInput', { description: 'Attribute vector of one chart, matched by title + difficulty (+ play style, default SP)' })
export class ChartAttributesInput {
  @Field(() => String) title!: string;
  @Field(() => Difficulty) difficulty!: Difficulty;
  @Field(() => PlayStyle, { nullable: true, defaultValue: PlayStyle.SP }) playStyle?: PlayStyle | null;
  @Field(() => [ChartAttributeInput]) attributes!: ChartAttributeInput[];
}

@ObjectType('ChartAttributesImportProblem')
export class ChartAttributesImportProblem {
  @Field(() => Int) index!: number;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String) reason!: string;
}

@ObjectType({ description: 'Result of importing chart attribute vectors' })
export class ImportChartAttributesPayload {
  @Field(() => Int) updated!: number;
  @Field(() => Int) unchanged!: number;
  @Field(() => [ChartAttributesImportProblem]) problems!: ChartAttributesImportProblem[];
}

