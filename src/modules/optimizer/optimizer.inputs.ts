import { ArgsType, Field, Float, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/connection';
import { Difficulty, RadarCategory } from '../shared/enums';
import { OptimizerSearchMode, OptimizerStrategy, TicketScoreMode } from './optimizer.types';
import { GameVersionScalar } from '../../graphql/scalars';

@InputType('BpiPlanInput', {
  description: 'Arguments of the BPI optimizer (docs/domain/optimizer.md#arguments); absent = the default',
})
export class BpiPlanInput {
  @Field(() => Float, { description: 'The total BPI to reach, −15 to 100' }) targetBpi!: number;
  @Field(() => Int, { nullable: true, description: 'At most this many charts to improve, 1–400 (default 30)' })
  maxSteps?: number | null;
  @Field(() => [OptimizerStrategy], {
    nullable: true,
    description: 'Charts the plan may use (default both; an empty list is refused)',
  })
  strategies?: OptimizerStrategy[] | null;
  @Field(() => [Difficulty], {
    nullable: true,
    description: 'Difficulties the plan may use: HYPER, ANOTHER, LEGGENDARIA (default all three)',
  })
  difficulties?: Difficulty[] | null;
  @Field(() => OptimizerSearchMode, { nullable: true, description: 'What the plan minimises (default FLEXIBLE)' })
  searchMode?: OptimizerSearchMode | null;
  @Field(() => [RadarCategory], {
    nullable: true,
    description:
      'Radar elements to draw from (default all six); when the filtered charts cannot reach the target, every chart is searched (and the note says so)',
  })
  radarElements?: RadarCategory[] | null;
  @Field(() => Boolean, {
    nullable: true,
    description: "Cap each chart by the player's total BPI and radar (default true); false: up to BPI 100",
  })
  considerCurrentTotalBpi?: boolean | null;
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version of the scores (default: the latest)' })
  version?: string | null;
}

@ArgsType()
export class BpiPlanArgs {
  @Field(() => BpiPlanInput, { description: 'The optimizer arguments' }) input!: BpiPlanInput;
}

@ArgsType()
export class SaveOptimizeMemoArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
  @Field(() => BpiPlanInput, {
    description: 'The optimizer arguments: the plan is computed from your scores now and saved with them',
  })
  input!: BpiPlanInput;
}

@ArgsType()
export class DeleteOptimizeMemoArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
  @Field(() => ID, { description: 'The memo to delete' }) memoId!: string;
}

@ArgsType()
export class OptimizeMemosArgs extends ConnectionArgs {}

@InputType('TicketInput', { description: 'A lane ticket as pasted from the game site' })
export class TicketInput {
  @Field(() => String, { description: 'The ticket: 7 distinct lane digits 1–7, e.g. 2641753' }) ticketId!: string;
  @Field(() => String, { nullable: true, description: 'Its expiry text, echoed back' }) expiresAt?: string | null;
}

@ArgsType()
export class TicketRecommendationArgs {
  @Field(() => String, { description: 'The ticket: 7 distinct lane digits 1–7' }) ticketId!: string;
  @Field(() => String, { nullable: true, description: 'Its expiry text, echoed back' }) expiresAt?: string | null;
  @Field(() => TicketScoreMode, { nullable: true, description: 'Ranking (default RELATIVE)' })
  scoreMode?: TicketScoreMode | null;
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version of the scores (default: the latest)' })
  version?: string | null;
  @Field(() => Int, { nullable: true, description: 'Page size, 1–50 (default 10)' }) first?: number | null;
  @Field(() => String, { nullable: true, description: 'Opaque cursor from pageInfo.endCursor' }) after?: string | null;
}

@ArgsType()
export class TicketRecommendationsArgs {
  @Field(() => [TicketInput], { description: 'Up to 50 tickets' }) tickets!: TicketInput[];
  @Field(() => TicketScoreMode, { nullable: true, description: 'Ranking (default RELATIVE)' })
  scoreMode?: TicketScoreMode | null;
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version of the scores (default: the latest)' })
  version?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Page size of each ticket, 1–50 (default 10): the first page of each',
  })
  first?: number | null;
}
