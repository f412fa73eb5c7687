import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { FingeringPattern } from '../../generated/prisma/client';
import type { Context } from '../../graphql/context';
import { unauthenticated } from '../../errors';
import { parseIntId } from './notes.service';
import { FingeringPatternsArgs } from './patterns.inputs';
import { patternVoteKey } from './patterns.loaders';
import { PatternsService } from './patterns.service';
import {
  FingeringPatternConnection,
  FingeringPatternSearchResult,
  FingeringPatternSort,
  FingeringPatternType,
  FingeringPatternVotePayload,
  PatternVote,
} from './patterns.types';

function viewerId(ctx: Context): string {
  if (!ctx.viewer) throw unauthenticated();
  return ctx.viewer.id;
}

@Resolver(() => FingeringPatternType)
export class PatternsResolver {
  @Query(() => FingeringPatternConnection, { description: 'Lane patterns of a chart, 100 per page by default (at most 100)' })
  fingeringPatterns(@Args(() => FingeringPatternsArgs) args: FingeringPatternsArgs, @Ctx() ctx: Context) {
    return new PatternsService(ctx.db).list(parseIntId(args.chartId, 'chartId'), args.sort ?? FingeringPatternSort.SCORE, args.first, args.after);
  }

  @Query(() => FingeringPatternSearchResult, { nullable: true, description: 'Exact-match pattern lookup on one chart (null: not found)' })
  searchFingeringPattern(@Arg('chartId', () => ID) chartId: string, @Arg('pattern', () => String) pattern: string, @Ctx() ctx: Context) {
    return new PatternsService(ctx.db).search(parseIntId(chartId, 'chartId'), pattern);
  }

  @Mutation(() => FingeringPatternVotePayload, { description: 'Votes for a pattern (one vote per user; a new type replaces the old)' })
  async voteFingeringPattern(
    @Arg('chartId', () => ID) chartId: string,
    @Arg('pattern', () => String) pattern: string,
    @Arg('vote', () => PatternVote) vote: PatternVote,
    @Ctx() ctx: Context,
  ): Promise<FingeringPatternVotePayload> {
    const userId = viewerId(ctx);
    const row = await new PatternsService(ctx.db).vote(userId, parseIntId(chartId, 'chartId'), pattern, vote);
    ctx.loaders.fingeringPatternVote.clear(patternVoteKey(userId, row.chartId, row.pattern)).prime(patternVoteKey(userId, row.chartId, row.pattern), vote);
    return { pattern: row, myVote: vote };
  }

  @Mutation(() => FingeringPatternVotePayload, { description: "Cancels the caller's vote on a pattern (idempotent)" })
  async cancelFingeringPatternVote(@Arg('chartId', () => ID) chartId: string, @Arg('pattern', () => String) pattern: string, @Ctx() ctx: Context): Promise<FingeringPatternVotePayload> {
    const userId = viewerId(ctx);
    const id = parseIntId(chartId, 'chartId');
    const row = await new PatternsService(ctx.db).cancelVote(userId, id, pattern);
    ctx.loaders.fingeringPatternVote.clear(patternVoteKey(userId, id, pattern)).prime(patternVoteKey(userId, id, pattern), null);
    return { pattern: row, myVote: null };
  }

  @FieldResolver(() => PatternVote, { nullable: true, description: "The caller's vote (null: none or signed out)" })
  myVote(@Root() p: FingeringPattern, @Ctx() ctx: Context) {
    return ctx.viewer ? ctx.loaders.fingeringPatternVote.load(patternVoteKey(ctx.viewer.id, p.chartId, p.pattern)) : null;
  }
}
