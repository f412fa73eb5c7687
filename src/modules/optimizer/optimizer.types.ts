import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLUUID } from 'graphql-scalars';
import { NodeInterface } from '../../graphql/global-id';
import { Connection } from '../../graphql/connection';
import { ClearLamp, Difficulty, RadarCategory } from '../shared/enums';
import { GameVersionScalar } from '../../graphql/scalars';

/** GraphQL names of the optimizer's string options (values = the domain's, src/domain/optimizer/input.ts). */
export enum OptimizerStrategy {
  UNPLAYED = 'unplayed',
  PLAYED = 'played',
}
registerEnumType(OptimizerStrategy, {
  name: 'OptimizerStrategy',
  description: 'Which charts a plan may use: UNPLAYED (no score, or BPI at the −15 floor) and/or PLAYED (the rest)',
  valuesConfig: {
    UNPLAYED: { description: 'Charts without a score, or whose BPI is at the −15 floor' },
    PLAYED: { description: 'Charts with a score above the −15 floor' },
  },
});

export enum OptimizerSearchMode {
  FLEXIBLE = 'flexible',
  FASTEST = 'fastest',
}
registerEnumType(OptimizerSearchMode, {
  name: 'OptimizerSearchMode',
  description: 'What the plan minimises',
  valuesConfig: {
    FLEXIBLE: { description: 'The least total EX points, with at most maxSteps charts (default)' },
    FASTEST: { description: 'The fewest charts that reach the target, then the least EX among plans with that many' },
  },
});

export enum TicketScoreMode {
  RELATIVE = 'relative',
  RAW = 'raw',
}
registerEnumType(TicketScoreMode, {
  name: 'TicketScoreMode',
  description: 'How charts are ranked for a lane ticket',
  valuesConfig: {
    RELATIVE: {
      description: "By the pattern's arrangement score divided by the chart's best arrangement score (default)",
    },
    RAW: { description: "By the pattern's arrangement score" },
  },
});

@ObjectType('BpiPlanSettings', { description: 'Value type: the arguments a plan was computed with, defaults applied' })
export class BpiPlanSettingsType {
  @Field(() => Float, { description: 'The total BPI asked for' }) targetBpi!: number;
  @Field(() => Int, { description: 'At most this many charts to improve' }) maxSteps!: number;
  @Field(() => [OptimizerStrategy], { description: 'Charts the plan may use (unplayed / played)' })
  strategies!: OptimizerStrategy[];
  @Field(() => [Difficulty], { description: 'Difficulties the plan may use' }) difficulties!: Difficulty[];
  @Field(() => OptimizerSearchMode, { description: 'What the plan minimises' }) searchMode!: OptimizerSearchMode;
  @Field(() => [RadarCategory], { description: 'Radar elements the plan draws from (all six = no filter)' })
  radarElements!: RadarCategory[];
  @Field(() => Boolean, {
    description: "Per-chart caps follow the player's total BPI (the reference's humanCap); false: up to BPI 100",
  })
  considerCurrentTotalBpi!: boolean;
  @Field(() => GameVersionScalar, { description: 'Game version of the scores' }) version!: string;
}

@ObjectType('BpiPlanStep', { description: 'Value type: one chart of a plan — improve it from one EX score to another' })
export class BpiPlanStepType {
  @Field(() => Int, { description: 'Position in the plan, 1-based (the order the steps are taken in)' }) rank!: number;
  @Field(() => ID, { description: 'The chart to improve (also as `chart`)' }) chartId!: number;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Chart difficulty' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Chart level' }) level!: number;
  @Field(() => Float, { description: "The chart's BPI now (−15 when unplayed)" }) fromBpi!: number;
  @Field(() => Float, { description: "The chart's BPI after the step" }) toBpi!: number;
  @Field(() => Int, { nullable: true, description: 'EX score now (null: unplayed)' }) fromExScore!: number | null;
  @Field(() => Int, { description: 'EX score to reach' }) toExScore!: number;
  @Field(() => Int, { description: 'EX points asked: toExScore − fromExScore (from 0 when unplayed)' })
  exScoreGap!: number;
  @Field(() => Float, { description: 'Increase of the TOTAL BPI by this step, in step order (rounded to 2 decimals)' })
  bpiGain!: number;
  @Field(() => Float, { description: 'Total BPI after this step (rounded to 2 decimals)' }) cumulativeTotalBpi!: number;
  @Field(() => Boolean, { description: 'The chart is unplayed (or at the −15 floor)' }) isUnplayed!: boolean;
  @Field(() => RadarCategory, { nullable: true, description: "The chart's radar element (null: none)" })
  radarCategory!: RadarCategory | null;
  @Field(() => Boolean, { description: "The chart's radar element is among the player's three strongest" })
  isRadarStrength!: boolean;
  // chart: field resolver
}

@ObjectType('BpiPlan', {
  description:
    'Value type: which charts to improve, and to which EX score, to reach a total BPI (docs/domain/optimizer.md) — the least EX points ' +
    'within the per-chart realism caps, deterministic (the same scores and arguments give the same plan)',
})
export class BpiPlanType {
  @Field(() => [BpiPlanStepType], { description: 'The steps, in the order to take them' }) steps!: BpiPlanStepType[];
  @Field(() => Float, { description: "The player's total BPI now (over the song set, rounded to 2 decimals)" })
  currentTotalBpi!: number;
  @Field(() => Float, { description: 'The effective target (after an automatic raise)' }) targetTotalBpi!: number;
  @Field(() => Float, { nullable: true, description: 'The target asked for, when it was raised (else null)' })
  originalTargetTotalBpi!: number | null;
  @Field(() => Boolean, { description: 'The plan reaches the effective target' }) achievable!: boolean;
  @Field(() => Boolean, { description: 'The player is already at or above the target (no steps)' })
  alreadyAchieved!: boolean;
  @Field(() => Int, { description: 'N: charts in the song set (SP ☆12 with a definition, in the version)' })
  totalSongCount!: number;
  @Field(() => String, {
    nullable: true,
    description:
      'Why the target was raised, or the search widened beyond the radar elements (Japanese, as the reference)',
  })
  autoAdjustmentNote!: string | null;
  @Field(() => Float, {
    nullable: true,
    description: 'When the target is out of reach: the highest total reachable within maxSteps (else null)',
  })
  maxAchievableBpi!: number | null;
  @Field(() => Int, { description: 'Σ exScoreGap: the EX points the plan asks for' }) totalExScoreGap!: number;
  @Field(() => Int, {
    description:
      'A proven lower bound on the EX points any plan within the same caps needs (= totalExScoreGap when provenOptimal)',
  })
  exLowerBound!: number;
  @Field(() => Boolean, {
    description:
      'The plan is proven to ask for the least EX within its caps. false also when the search ran out of its time ' +
      'budget (WORKER_TASK_BUDGET_MS): the plan is then the best one found so far, still a valid plan',
  })
  provenOptimal!: boolean;
  @Field(() => Float, { description: 'The total BPI the per-chart caps of the final search were computed from' })
  capTotalBpi!: number;
  @Field(() => GameVersionScalar, { description: 'Game version of the scores' }) version!: string;
  @Field(() => String, {
    nullable: true,
    description: 'Definitions release the plan was computed with (null: none imported)',
  })
  definitionsVersion!: string | null;
}

@ObjectType('OptimizeMemo', {
  implements: NodeInterface,
  description: 'A saved plan (owner-only writes): its arguments, the plan, and whether it is stale',
})
export class OptimizeMemoType {
  @Field(() => GraphQLUUID, {
    name: 'databaseId',
    description: 'Database id of the memo (a UUID; deleteOptimizeMemo(memoId:) takes it or the global id)',
  })
  id!: string;
  @Field(() => Date, { description: 'When it was saved' }) createdAt!: Date;
  @Field(() => GameVersionScalar, { description: 'Game version of the scores' }) version!: string;
  @Field(() => Float, { nullable: true, description: 'The total BPI asked for' }) targetBpi!: number | null;
  @Field(() => BpiPlanSettingsType, { description: 'The arguments the plan was computed with' })
  settings!: BpiPlanSettingsType;
  @Field(() => BpiPlanType, { description: 'The plan as computed when saved' }) plan!: BpiPlanType;
  @Field(() => String, { nullable: true, description: 'Definitions release the plan was computed with' })
  definitionsVersion!: string | null;
  // definitionsChanged, scoresMovedSince: field resolvers
}

@ObjectType({ description: 'A page of your optimizer memos, newest first' })
export class OptimizeMemoConnection extends Connection(OptimizeMemoType, 'OptimizeMemo') {}

@ObjectType('SaveOptimizeMemoPayload', { description: 'Result of saving a plan' })
export class SaveOptimizeMemoPayload {
  @Field(() => OptimizeMemoType, { description: 'The memo saved' }) memo!: OptimizeMemoType;
}

@ObjectType('DeleteOptimizeMemoPayload', { description: 'Result of deleting a memo' })
export class DeleteOptimizeMemoPayload {
  @Field(() => ID, { description: 'The id of the memo deleted' }) deletedId!: string;
}

@ObjectType('TicketChart', { description: "Value type: a chart a lane ticket suits, with the player's score on it" })
export class TicketChartType {
  @Field(() => ID, { description: 'The chart (also as `chart`)' }) chartId!: number;
  @Field(() => String, { description: "The ticket's lane pattern" }) pattern!: string;
  @Field(() => Float, { description: "The pattern's imported arrangement score on this chart" }) patternScore!: number;
  @Field(() => Float, { description: "The chart's best arrangement score over all its patterns" })
  maxPatternScore!: number;
  @Field(() => Float, { description: 'patternScore / maxPatternScore · 100 (0 when maxPatternScore ≤ 0)' })
  relativeScore!: number;
  @Field(() => Int, {
    nullable: true,
    description: "The player's best EX score on the chart in the version (null: unplayed)",
  })
  exScore!: number | null;
  @Field(() => Float, { nullable: true, description: 'BPI of that best (null: unplayed or no definition)' }) bpi!:
    number | null;
  @Field(() => ClearLamp, { nullable: true, description: 'Clear lamp of that best (null: unplayed or none)' })
  clearLamp!: ClearLamp | null;
  @Field(() => Float, {
    nullable: true,
    description: "The player's stored total BPI − the chart's BPI (null when either is missing)",
  })
  bpiGap!: number | null;
  @Field(() => Int, { description: 'Upvotes of this pattern on this chart (fingering-pattern votes)' })
  upvotes!: number;
  @Field(() => Int, { description: 'Downvotes of this pattern on this chart' }) downvotes!: number;
  // chart, myVote: field resolvers
}

@ObjectType({ description: 'A page of charts a lane ticket is worth using on' })
export class TicketChartConnection extends Connection(TicketChartType, 'TicketChart') {}

@ObjectType('TicketRecommendation', {
  description: "Value type: the charts one lane ticket suits best, with the player's scores",
})
export class TicketRecommendationType {
  @Field(() => String, { description: 'The ticket (its 7-digit lane pattern)' }) ticketId!: string;
  @Field(() => String, { description: 'The expiry given with the ticket, echoed ("" when none)' }) expiresAt!: string;
  @Field(() => TicketScoreMode, { description: 'How the charts are ranked' }) scoreMode!: TicketScoreMode;
  @Field(() => Float, { nullable: true, description: "The player's stored total BPI in the version (null: none yet)" })
  totalBpi!: number | null;
  @Field(() => TicketChartConnection, { description: 'The charts, best first (ties by chart id)' })
  charts!: TicketChartConnection;
}

@ObjectType('ArrangementScoreImportPayload', { description: 'Report of an arrangement-score import' })
export class ArrangementScoreImportPayload {
  @Field(() => Int, { description: 'Charts in the file' }) charts!: number;
  @Field(() => Int, { description: 'Patterns new to their chart' }) added!: number;
  @Field(() => Int, { description: 'Patterns whose score changed' }) changed!: number;
  @Field(() => Int, { description: 'Patterns with the same score as stored' }) unchanged!: number;
  @Field(() => Int, {
    description: "Patterns removed (stored for a chart of the file, no longer in the chart's entry)",
  })
  removed!: number;
}
