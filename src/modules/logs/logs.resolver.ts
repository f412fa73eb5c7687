import { Args, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { offsetFromCursor, offsetPage, pageSize } from '../../graphql/connection';
import type { Context } from '../../graphql/context';
import { DeleteBatchArgs } from '../scores/scores.inputs';
import { canView } from '../../graphql/rules';
import { resolveVersion } from '../scores/scores.service';
import { UserType } from '../users/users.types';
import { BatchArgs, BatchesArgs, ScoreDetailsArgs } from './logs.inputs';
import * as svc from './logs.service';
import { BatchConnection, BatchDetailType, DeleteBatchPayload, PlayDayConnection, ScoreDetailsType, VersionSummaryType } from './logs.types';
import { VersionArgs } from '../scores/scores.inputs';

const isOwner = (ctx: Context, userId: string) => ctx.viewer?.id === userId;

@Resolver()
export class LogsMutationResolver {
  @Mutation(() => DeleteBatchPayload, { description: 'Delete one of your batches; bests and the totals of later batches are recomputed' })
  deleteBatch(@Args(() => DeleteBatchArgs) args: DeleteBatchArgs, @Ctx() ctx: Context): Promise<DeleteBatchPayload> {
    return svc.deleteBatch(ctx.db, ctx.app.catalogue, ctx.app.events, args.userId, args.batchId);
  }
}

@Resolver(() => UserType)
export class LogsUserResolver {
  @FieldResolver(() => BatchConnection, { nullable: true, description: 'Import batches of a version, newest first' })
  async batches(@Root() user: UserType, @Args(() => BatchesArgs) args: BatchesArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    const size = pageSize(args.first);
    const offset = offsetFromCursor(args.after);
    const { nodes, totalCount } = await svc.listBatches(ctx.db, ctx.app.catalogue, user.id, resolveVersion(args.version), offset, size + 1);
    return offsetPage(nodes, offset, size, totalCount);
  }

  @FieldResolver(() => PlayDayConnection, { nullable: true, description: 'Timeline per JST play day, newest first' })
  async playDays(@Root() user: UserType, @Args(() => BatchesArgs) args: BatchesArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    const size = pageSize(args.first);
    const offset = offsetFromCursor(args.after);
    const all = await svc.playDayTimeline(ctx.db, ctx.app.catalogue, user.id, resolveVersion(args.version));
    return offsetPage(all.slice(offset, offset + size + 1), offset, size, all.length);
  }

  @FieldResolver(() => BatchDetailType, { nullable: true, description: 'One batch with its scores and the rivals overtaken (rivals: owner only)' })
  async batch(@Root() user: UserType, @Args(() => BatchArgs) args: BatchArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    return svc.batchDetail(ctx.db, ctx.app.catalogue, user.id, args.id, isOwner(ctx, user.id));
  }

  @FieldResolver(() => ScoreDetailsType, { nullable: true, description: 'Improvements of a JST day, week or month' })
  async scoreDetails(@Root() user: UserType, @Args(() => ScoreDetailsArgs) args: ScoreDetailsArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    return svc.scoreDetails(ctx.db, ctx.app.catalogue, user.id, resolveVersion(args.version), args.date, args.unit, args.groupedBy, isOwner(ctx, user.id));
  }

  @FieldResolver(() => VersionSummaryType, { nullable: true, description: 'Bests against the nearest earlier version with data' })
  async versionSummary(@Root() user: UserType, @Args(() => VersionArgs) args: VersionArgs, @Ctx() ctx: Context) {
    if (!(await canView(ctx, user.id))) return null;
    return svc.versionSummary(ctx.db, ctx.app.catalogue, user.id, resolveVersion(args.version));
  }
}
