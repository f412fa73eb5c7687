import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { FingeringPattern } from '../../generated/prisma/client';
import { parseIntId } from '../../graphql/args';
import type { Context } from '../../graphql/context';
import { ChartType } from '../shared/chart.type';
import { FingeringPatternsArgs } from './patterns.inputs';
import {
  FingeringPatternConnection,
  FingeringPatternSearchResult,
  FingeringPatternSort,
  FingeringPatternType,
  FingeringPatternVotePayload,
  PatternVote,
} from './patterns.types';

@Resolver(() => FingeringPatternType)
export class PatternsResolver {
  @Query(() => FingeringPatternConnection, {
    description:
      'Lane patterns of a chart — every imported arrangement and every voted pattern, votes beside — 100 per page by default (at most 100)',
  })
  fingeringPatterns(@Args(() => FingeringPatternsArgs) args: FingeringPatternsArgs, @Ctx() ctx: Context) {
    return ctx.services.patterns.list(
      parseIntId(args.chartId, 'chartId'),
      args.sort ?? FingeringPatternSort.ARRANGEMENT_SCORE,
      args.first,
      args.after,
    );
  }

  @Query(() => FingeringPatternSearchResult, {
    nullable: true,
    description:
      'Exact-match pattern lookup on one chart: an imported arrangement (voted or not) or a voted pattern (null: neither)',
  })
  searchFingeringPattern(
    @Arg('chartId', () => ID, { description: 'The chart (database id or global id)' }) chartId: string,
    @Arg('pattern', () => String, { description: 'The pattern: 7 digits, a permutation of 1–7' }) pattern: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.patterns.search(parseIntId(chartId, 'chartId'), pattern);
  }

  @Mutation(() => FingeringPatternVotePayload, {
    description: 'Votes for a pattern (one vote per user; a new type replaces the old)',
  })
  async voteFingeringPattern(
    @Arg('chartId', () => ID, { description: 'The chart (database id or global id)' }) chartId: string,
    @Arg('pattern', () => String, {
      description: 'The pattern: 7 digits, a permutation of 1–7 (1234567 = normal, 7654321 = mirror)',
    })
    pattern: string,
    @Arg('vote', () => PatternVote, { description: 'Your vote (replaces a previous one)' }) vote: PatternVote,
    @Ctx() ctx: Context,
  ): Promise<FingeringPatternVotePayload> {
    return { pattern: await ctx.services.patterns.vote(parseIntId(chartId, 'chartId'), pattern, vote), myVote: vote };
  }

  @Mutation(() => FingeringPatternVotePayload, { description: "Cancels the caller's vote on a pattern (idempotent)" })
  async cancelFingeringPatternVote(
    @Arg('chartId', () => ID, { description: 'The chart (database id or global id)' }) chartId: string,
    @Arg('pattern', () => String, { description: 'The pattern: 7 digits, a permutation of 1–7' }) pattern: string,
    @Ctx() ctx: Context,
  ): Promise<FingeringPatternVotePayload> {
    return { pattern: await ctx.services.patterns.cancelVote(parseIntId(chartId, 'chartId'), pattern), myVote: null };
  }

  @FieldResolver(() => PatternVote, { nullable: true, description: "The caller's vote (null: none or signed out)" })
  myVote(@Root() p: FingeringPattern, @Ctx() ctx: Context) {
    return ctx.services.patterns.myVote(p);
  }

  @FieldResolver(() => ChartType, {
    nullable: true,
    description: 'The chart (`chartId`), through the request’s loader',
  })
  chart(@Root() p: Pick<FingeringPattern, 'chartId'>, @Ctx() ctx: Context) {
    return ctx.services.catalogue.chart(p.chartId);
  }
}
