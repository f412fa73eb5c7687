import { Arg, Args, Ctx, FieldResolver, Float, Mutation, Resolver, Root } from 'type-graphql';
import type { User } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { parseJsonArgument } from '../../errors';
import { ChartType } from '../shared/chart.type';
import { UserType } from '../shared/user.type';
import { FingeringPatternType, PatternVote } from '../patterns/patterns.types';
import {
  BpiPlanArgs,
  DeleteOptimizeMemoArgs,
  OptimizeMemosArgs,
  SaveOptimizeMemoArgs,
  TicketRecommendationArgs,
  TicketRecommendationsArgs,
} from './optimizer.inputs';
import type { MemoView, TicketChartView } from './optimizer.service';
import {
  ArrangementScoreImportPayload,
  BpiPlanStepType,
  BpiPlanType,
  DeleteOptimizeMemoPayload,
  OptimizeMemoConnection,
  OptimizeMemoType,
  SaveOptimizeMemoPayload,
  TicketChartType,
  TicketRecommendationType,
} from './optimizer.types';

/** Root operations: memos (owner), the arrangement-score import (admin). Rules: src/graphql/rules.ts. */
@Resolver()
export class OptimizerResolver {
  @Mutation(() => SaveOptimizeMemoPayload, {
    description: 'Compute a plan from your scores now and save it with its arguments (at most 100 memos)',
  })
  saveOptimizeMemo(@Args(() => SaveOptimizeMemoArgs) args: SaveOptimizeMemoArgs, @Ctx() ctx: Context) {
    return ctx.services.optimizer.saveMemo(args.userId, args.input);
  }

  @Mutation(() => DeleteOptimizeMemoPayload, {
    description: 'Delete one of your memos (NOT_FOUND when you have no such memo)',
  })
  deleteOptimizeMemo(@Args(() => DeleteOptimizeMemoArgs) args: DeleteOptimizeMemoArgs, @Ctx() ctx: Context) {
    return ctx.services.optimizer.deleteMemo(args.userId, args.memoId);
  }

  @Mutation(() => ArrangementScoreImportPayload, {
    description:
      'Admin: import precomputed arrangement scores, JSON text [{title, difficulty, playStyle?, scores: {pattern: number}}] (README "Arrangement scores"); ' +
      "validated whole (nothing written on a problem), one transaction, each entry replaces its chart's scores; re-runnable",
  })
  importArrangementScores(
    @Arg('json', () => String, { description: 'The JSON document' }) json: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.optimizer.importArrangementScores(parseJsonArgument(json, 'json'));
  }
}

/** The optimizer on User (rules: User.bpiPlan, User.optimizeMemos, User.ticketRecommendation(s)). */
@Resolver(() => UserType)
export class OptimizerUserResolver {
  @FieldResolver(() => BpiPlanType, {
    nullable: true,
    description:
      'Which charts to improve, and to which EX score, to reach a total BPI (docs/domain/optimizer.md): the least EX points within the ' +
      "reference's per-chart caps, deterministic. Bad arguments: BAD_USER_INPUT naming the argument",
  })
  bpiPlan(@Root() user: User, @Args(() => BpiPlanArgs) args: BpiPlanArgs, @Ctx() ctx: Context) {
    return ctx.services.optimizer.plan(user.id, args.input);
  }

  @FieldResolver(() => OptimizeMemoConnection, { nullable: true, description: 'Saved plans, newest first' })
  optimizeMemos(@Root() user: User, @Args(() => OptimizeMemosArgs) args: OptimizeMemosArgs, @Ctx() ctx: Context) {
    return ctx.services.optimizer.memos(user.id, args);
  }

  @FieldResolver(() => TicketRecommendationType, {
    nullable: true,
    description:
      "Charts a lane ticket suits best (imported arrangement scores), with the player's score, BPI and gap per chart; paged",
  })
  ticketRecommendation(
    @Root() user: User,
    @Args(() => TicketRecommendationArgs) args: TicketRecommendationArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.optimizer.ticket(user.id, args);
  }

  @FieldResolver(() => [TicketRecommendationType], {
    nullable: true,
    description: 'Up to 50 lane tickets at once: the first page of each',
  })
  ticketRecommendations(
    @Root() user: User,
    @Args(() => TicketRecommendationsArgs) args: TicketRecommendationsArgs,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.optimizer.tickets(user.id, args);
  }
}

@Resolver(() => BpiPlanStepType)
export class BpiPlanStepResolver {
  @FieldResolver(() => ChartType, { nullable: true, description: 'The chart (from the in-memory catalogue: no query)' })
  chart(@Root() step: { chartId: number }, @Ctx() ctx: Context) {
    return ctx.services.catalogue.catalogueChart(Number(step.chartId));
  }
}

@Resolver(() => TicketChartType)
export class TicketChartResolver {
  @FieldResolver(() => ChartType, { nullable: true, description: 'The chart (from the in-memory catalogue: no query)' })
  chart(@Root() item: TicketChartView, @Ctx() ctx: Context) {
    return ctx.services.catalogue.catalogueChart(item.chartId);
  }

  @FieldResolver(() => PatternVote, {
    nullable: true,
    description: "The caller's vote on this pattern for this chart (null: none, or signed out; batched)",
  })
  myVote(@Root() item: TicketChartView, @Ctx() ctx: Context) {
    return ctx.services.optimizer.myVote(item);
  }
}

@Resolver(() => OptimizeMemoType)
export class OptimizeMemoResolver {
  @FieldResolver(() => Boolean, { description: 'The definitions release changed since the plan was computed' })
  definitionsChanged(@Root() memo: MemoView, @Ctx() ctx: Context) {
    return ctx.services.optimizer.definitionsChanged(memo);
  }

  @FieldResolver(() => Boolean, {
    description: "The player's bests in the memo's version changed since it was saved (a new import, a deleted batch)",
  })
  scoresMovedSince(@Root() memo: MemoView, @Ctx() ctx: Context) {
    return ctx.services.optimizer.scoresMovedSince(memo);
  }
}

/** The imported arrangement score beside a fingering pattern's votes (the reference's pattern list serves that score). */
@Resolver(() => FingeringPatternType)
export class ArrangementPatternResolver {
  @FieldResolver(() => Float, {
    nullable: true,
    description:
      'The imported arrangement score of this pattern on this chart (precomputed data, higher is better; null: none imported). Votes do not change it',
  })
  arrangementScore(
    @Root() p: { chartId: number; pattern: string; arrangementScore?: number | null },
    @Ctx() ctx: Context,
  ) {
    // a row of the pattern list carries it already (patterns.list.ts)
    return p.arrangementScore !== undefined ? p.arrangementScore : ctx.services.optimizer.arrangementScore(p);
  }
}
