import { Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { toGlobalId } from '../../graphql/global-id';
import { GraphQLUUID } from 'graphql-scalars';
import type { User } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { UserType } from '../shared/user.type';
import { ChartTheme } from '../stats/dashboard.types';
import { BatchArgs, BatchCardArgs, BatchesArgs, DeleteBatchArgs, ScoreDetailsArgs, VersionArgs } from './logs.inputs';
import {
  BatchCardType,
  BatchConnection,
  BatchDetailType,
  BatchRefType,
  DeleteBatchPayload,
  PlayDayConnection,
  ScoreDetailsType,
  VersionSummaryType,
} from './logs.types';

@Resolver()
export class LogsMutationResolver {
  @Mutation(() => DeleteBatchPayload, {
    description: 'Delete one of your batches; bests and the totals of later batches are recomputed',
  })
  deleteBatch(@Args(() => DeleteBatchArgs) args: DeleteBatchArgs, @Ctx() ctx: Context): Promise<DeleteBatchPayload> {
    return ctx.services.logs.deleteBatch(args.userId, args.batchId);
  }

  @Query(() => BatchCardType, {
    description:
      "An import batch's share card (GET /api/v1/batches/{batchId}/card.png): visible as the batch's player (rule Query.batchCard); NOT_FOUND for an unknown batch",
  })
  batchCard(@Args(() => BatchCardArgs) args: BatchCardArgs, @Ctx() ctx: Context) {
    return ctx.services.logs.batchCard(args.batchId, args.theme ?? ChartTheme.LIGHT);
  }
}

/** Logs on User (rules: src/graphql/rules.ts, User.*). */
@Resolver(() => UserType)
export class LogsUserResolver {
  @FieldResolver(() => BatchConnection, { nullable: true, description: 'Import batches of a version, newest first' })
  batches(@Root() user: User, @Args(() => BatchesArgs) args: BatchesArgs, @Ctx() ctx: Context) {
    return ctx.services.logs.batches(user.id, args);
  }

  @FieldResolver(() => PlayDayConnection, { nullable: true, description: 'Timeline per JST play day, newest first' })
  playDays(@Root() user: User, @Args(() => BatchesArgs) args: BatchesArgs, @Ctx() ctx: Context) {
    return ctx.services.logs.playDays(user.id, args);
  }

  @FieldResolver(() => BatchDetailType, {
    nullable: true,
    description: 'One batch with its scores and the rivals overtaken (rivals: owner only)',
  })
  batch(@Root() user: User, @Args(() => BatchArgs) args: BatchArgs, @Ctx() ctx: Context) {
    return ctx.services.logs.details.batch(user.id, args.id);
  }

  @FieldResolver(() => ScoreDetailsType, { nullable: true, description: 'Improvements of a JST day, week or month' })
  scoreDetails(@Root() user: User, @Args(() => ScoreDetailsArgs) args: ScoreDetailsArgs, @Ctx() ctx: Context) {
    // period / basis (enums) win over the deprecated unit / groupedBy strings; their values are those strings
    return ctx.services.logs.details.scoreDetails(user.id, {
      ...args,
      unit: args.period ?? args.unit,
      groupedBy: args.basis ?? args.groupedBy,
    });
  }

  @FieldResolver(() => VersionSummaryType, {
    nullable: true,
    description: 'Bests against the nearest earlier version with data',
  })
  versionSummary(@Root() user: User, @Args(() => VersionArgs) args: VersionArgs, @Ctx() ctx: Context) {
    return ctx.services.logs.versionSummary(user.id, args.version);
  }
}

/** BatchRef.id: the Batch's global id (a BatchRef names a batch; node(id:) gives it, User.batch(id:) accepts it). */
@Resolver(() => BatchRefType)
export class BatchRefResolver {
  @FieldResolver(() => ID, { description: "The batch's global id (a Batch: pass it to node(id:) or User.batch(id:))" })
  id(@Root() ref: { id: string }) {
    return toGlobalId('Batch', ref.id);
  }

  @FieldResolver(() => GraphQLUUID, { description: 'Database id of the batch (a UUID)' })
  databaseId(@Root() ref: { id: string }) {
    return ref.id;
  }
}
