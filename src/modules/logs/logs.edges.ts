import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { UserType } from '../shared/user.type';
import { ImportScoresPayload, PlayType } from '../scores/scores.types';
import { BatchType, OvertakenRivalType, RivalOvertakenSummaryType } from './logs.types';

/** The batch behind a `batchId` (the request's loader: one pair of statements for any number of batches). */
@Resolver(() => PlayType)
export class LogsEdgesResolver {
  @FieldResolver(() => BatchType, { nullable: true, description: 'The import batch that stored this play (`batchId`)' })
  async batch(@Root() play: { batchId: string }, @Ctx() ctx: Context) {
    return (await ctx.services.logs.batchesById([play.batchId]))[0];
  }
}

@Resolver(() => ImportScoresPayload)
export class ImportBatchEdgesResolver {
  @FieldResolver(() => BatchType, {
    nullable: true,
    description: 'The new batch (`batchId`); null when nothing improved',
  })
  async batch(@Root() p: { batchId: string | null }, @Ctx() ctx: Context) {
    return p.batchId ? (await ctx.services.logs.batchesById([p.batchId]))[0] : null;
  }
}

@Resolver(() => OvertakenRivalType)
export class OvertakenRivalEdgesResolver {
  @FieldResolver(() => UserType, {
    nullable: true,
    description: 'The rival passed (`rivalUserId`); their data is masked as everywhere when you may not see it',
  })
  rival(@Root() r: { rivalUserId: string }, @Ctx() ctx: Context) {
    return ctx.app.areas.access.user(ctx, r.rivalUserId);
  }
}

@Resolver(() => RivalOvertakenSummaryType)
export class RivalOvertakenSummaryEdgesResolver {
  @FieldResolver(() => UserType, {
    nullable: true,
    description: 'The rival passed (`rivalUserId`); their data is masked as everywhere when you may not see it',
  })
  rival(@Root() r: { rivalUserId: string }, @Ctx() ctx: Context) {
    return ctx.app.areas.access.user(ctx, r.rivalUserId);
  }
}
