import { ArgsType, Field, ID, Int } from 'type-graphql';
import { BidirectionalConnectionArgs } from '../../graphql/connection';
import { StatsPeriod, TimeBasis } from '../shared/enums';
import { GameVersionScalar } from '../../graphql/scalars';
import { ChartTheme } from '../stats/dashboard.types';

@ArgsType()
export class BatchesArgs extends BidirectionalConnectionArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?:
    string | null;
  @Field(() => Int, { nullable: true, description: 'Plays listed per entry (topScores), 1–100 (default 5)' }) topN?:
    number | null;
}

@ArgsType()
export class BatchArgs {
  @Field(() => ID, { description: 'The batch (database id or global id)' }) id!: string;
}

@ArgsType()
export class ScoreDetailsArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?:
    string | null;
  @Field(() => String, { description: 'A JST date YYYY-MM-DD in the period' }) date!: string;
  @Field(() => StatsPeriod, {
    nullable: true,
    description: 'Length of the period holding date: DAY (default), WEEK (Monday–Sunday) or MONTH',
  })
  period?: StatsPeriod | null;
  @Field(() => TimeBasis, {
    nullable: true,
    description: 'Which time of a play places it in the period: CREATED_AT (import time, default) or PLAYED_AT',
  })
  basis?: TimeBasis | null;
  @Field(() => String, {
    defaultValue: 'day',
    description: 'day, week (Mon–Sun) or month; period wins when both are given',
    deprecationReason: 'Use period (an enum); removed in the next release',
  })
  unit!: string;
  @Field(() => String, {
    defaultValue: 'createdAt',
    description: 'createdAt (import time) or playedAt (play time); basis wins when both are given',
    deprecationReason: 'Use basis (an enum); removed in the next release',
  })
  groupedBy!: string;
}

@ArgsType()
export class DeleteBatchArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "The owner: defaults to you (the token's user); only an administrator may name someone else (FORBIDDEN otherwise)",
  })
  userId!: string;
  @Field(() => ID, { description: 'The batch to delete: its plays go, and the bests are rebuilt from the rest' })
  batchId!: string;
}

@ArgsType()
export class VersionArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?:
    string | null;
}

@ArgsType()
export class BatchCardArgs {
  @Field(() => ID, { description: "The batch's database id (the `batchId` of other types)" }) batchId!: string;
  @Field(() => ChartTheme, { nullable: true, description: 'Colour scheme (default LIGHT)' }) theme?: ChartTheme | null;
}
