import type { FingeringPattern, Prisma } from '../../generated/prisma/client';
import { patternPage, patternStanding, type PatternRow } from './patterns.list';
import { badInput, notFound } from '../../errors';
import { keyset } from '../../graphql/args';
import { keyCursor, keysetConnection, type Page } from '../../graphql/connection';
import { viewerId } from '../../graphql/context';
import type { AreaScope } from '../area';
import { patternProblem } from '../../domain/fingering';
import { FingeringPatternSort, PatternVote } from './patterns.types';

/** Patterns are listed 100 per page (the reference's page size), at most 100. */
export const PATTERN_PAGE_SIZE = 100;

/** Cursor kinds of fingering patterns: [upvotes, score, pattern]; by arrangement score: [has one, arrangement score, score, pattern]. */
const PATTERN_KEY = ['int', 'num', 'str'] as const;
const ARRANGEMENT_KEY = ['int', 'num', 'num', 'str'] as const;

export function validatePattern(pattern: string): string {
  const problem = patternProblem(pattern);
  if (problem)
    throw badInput(`Invalid pattern: ${problem}`, [{ code: 'invalid_pattern', path: ['pattern'], message: problem }]);
  return pattern;
}

/** Fingering patterns: lists, votes (one per user and pattern, exact counts) and search. */
type Scope = Pick<AreaScope, 'db' | 'loaders' | 'viewer'>;

export class PatternsService {
  constructor(private readonly s: Scope) {}

  private get db() {
    return this.s.db;
  }

  /** The caller's vote on a pattern (null: none or signed out; batched). */
  myVote(p: Pick<FingeringPattern, 'chartId' | 'pattern'>) {
    const v = this.s.viewer;
    return v ? this.s.loaders.patterns.myVote.load({ userId: v.id, chartId: p.chartId, pattern: p.pattern }) : null;
  }

  private async requireChart(chartId: number): Promise<void> {
    const chart = await this.db.chart.findUnique({ where: { id: chartId }, select: { id: true } });
    if (!chart) throw notFound('Chart not found');
  }

  /** The chart's patterns: every imported arrangement and every voted pattern, votes beside (patterns.list.ts). */
  async list(
    chartId: number,
    sort: FingeringPatternSort,
    first: number | null | undefined,
    after: string | null | undefined,
  ): Promise<Page<PatternRow>> {
    const tag = `fingeringPatterns:${sort}`;
    await this.requireChart(chartId);
    if (sort === FingeringPatternSort.ARRANGEMENT_SCORE) {
      const ks = keyset({ first, after }, tag, ARRANGEMENT_KEY, { max: PATTERN_PAGE_SIZE, def: PATTERN_PAGE_SIZE });
      const { rows, total } = await patternPage(this.db, chartId, sort, ks.key, ks.size + 1);
      return keysetConnection(
        rows,
        ks,
        (r) =>
          keyCursor(tag, ARRANGEMENT_KEY, [
            r.arrangementScore === null ? 0 : 1,
            r.arrangementScore ?? 0,
            r.score,
            r.pattern,
          ]),
        total,
      );
    }
    // cursor [upvotes, score, pattern] (upvotes 0 when not a key), as before the arrangements were listed
    const ks = keyset({ first, after }, tag, PATTERN_KEY, { max: PATTERN_PAGE_SIZE, def: PATTERN_PAGE_SIZE });
    const byVotes = sort === FingeringPatternSort.UPVOTES;
    const key = ks.key ? (byVotes ? [...ks.key] : ks.key.slice(1)) : null;
    const { rows, total } = await patternPage(this.db, chartId, byVotes ? 'UPVOTES' : 'SCORE', key, ks.size + 1);
    return keysetConnection(
      rows,
      ks,
      (r) => keyCursor(tag, PATTERN_KEY, [byVotes ? r.upvotes : 0, r.score, r.pattern]),
      total,
    );
  }

  /**
   * One vote per (chart, pattern, user); a new type replaces the old one. The pattern row is
   * created on its first vote and locked (FOR UPDATE) for the rest of the transaction, so the
   * counters recomputed from the vote rows are exact under concurrent votes.
   */
  async vote(chartId: number, pattern: string, type: PatternVote): Promise<FingeringPattern> {
    const userId = viewerId(this.s);
    validatePattern(pattern);
    await this.requireChart(chartId);
    const row = await this.db.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO "FingeringPattern" ("chartId", "pattern", "score", "upvotes", "downvotes", "updatedAt")
        VALUES (${chartId}, ${pattern}, 0, 0, 0, now()) ON CONFLICT DO NOTHING`;
      await tx.$queryRaw`SELECT 1 FROM "FingeringPattern" WHERE "chartId" = ${chartId} AND "pattern" = ${pattern} FOR UPDATE`;
      await tx.fingeringPatternVote.upsert({
        where: { chartId_pattern_userId: { chartId, pattern, userId } },
        create: { chartId, pattern, userId, type },
        update: { type },
      });
      return this.recount(tx, chartId, pattern);
    });
    const key = { userId, chartId: row.chartId, pattern: row.pattern };
    this.s.loaders.patterns.myVote.clear(key).prime(key, type);
    return row;
  }

  /** Removes the caller's vote (idempotent). Null when the pattern has never been voted on. */
  async cancelVote(chartId: number, pattern: string): Promise<FingeringPattern | null> {
    const userId = viewerId(this.s);
    validatePattern(pattern);
    await this.requireChart(chartId);
    const row = await this.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<
        unknown[]
      >`SELECT 1 FROM "FingeringPattern" WHERE "chartId" = ${chartId} AND "pattern" = ${pattern} FOR UPDATE`;
      await tx.fingeringPatternVote.deleteMany({ where: { chartId, pattern, userId } });
      if (locked.length === 0) return null;
      return this.recount(tx, chartId, pattern);
    });
    const key = { userId, chartId, pattern };
    this.s.loaders.patterns.myVote.clear(key).prime(key, null);
    return row;
  }

  private async recount(tx: Prisma.TransactionClient, chartId: number, pattern: string): Promise<FingeringPattern> {
    const groups = await tx.fingeringPatternVote.groupBy({
      by: ['type'],
      where: { chartId, pattern },
      _count: { _all: true },
    });
    const upvotes = groups.find((g) => g.type === PatternVote.UPVOTE)?._count._all ?? 0;
    const downvotes = groups.find((g) => g.type === PatternVote.DOWNVOTE)?._count._all ?? 0;
    return tx.fingeringPattern.update({
      where: { chartId_pattern: { chartId, pattern } },
      data: { upvotes, downvotes, score: upvotes - downvotes },
    });
  }

  /**
   * Exact-match lookup: the pattern (an imported arrangement or a voted pattern), its rank by votes
   * and by arrangement score, and the totals (patterns.list.ts); null when it is neither.
   */
  async search(chartId: number, pattern: string) {
    validatePattern(pattern);
    await this.requireChart(chartId);
    return patternStanding(this.db, chartId, pattern);
  }
}
