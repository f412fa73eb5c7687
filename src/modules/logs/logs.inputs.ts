import { ArgsType, Field, ID, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/connection';
import { GameVersionScalar } from '../../graphql/scalars';

@ArgsType()
export class BatchesArgs extends ConnectionArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?: string | null;
  @Field(() => Int, { nullable: true, description: 'Plays listed per entry (topScores), 1–100 (default 5)' }) topN?: number | null;
}

@ArgsType()
export class BatchArgs {
  @Field(() => ID, { description: 'The batch (database id or global id)' }) id!: string;
}

@ArgsType()
export class ScoreDetailsArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?: string | null;
  @Field(() => String, { description: 'A JST date YYYY-MM-DD in the period' }) date!: string;
  @Field(() => String, { defaultValue: 'day', description: 'day, week (Mon–Sun) or month' }) unit!: string;
  @Field(() => String, { defaultValue: 'createdAt', description: 'createdAt (import time) or playedAt (play time)' }) groupedBy!: string;
}

@ArgsType()
export class DeleteBatchArgs {
  @Field(() => ID, { description: 'The owner of the batch (yourself; an admin may act for someone)' }) userId!: string;
  @Field(() => ID, { description: 'The batch to delete: its plays go, and the bests are rebuilt from the rest' }) batchId!: string;
}

@ArgsType()
export class VersionArgs {
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default the latest)' }) version?: string | null;
}
