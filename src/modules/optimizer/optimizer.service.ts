/**
 * The optimizer area: the BPI plan of a player (docs/domain/optimizer.md; the computation is
 * src/domain/optimizer), saved plans (docs/domain/optimizer.md#memos) and lane-ticket advice
 * (docs/domain/optimizer.md#lane-tickets) over imported arrangement scores.
 */
import { createHash } from 'node:crypto';
import type { BestScore, OptimizeMemo } from '../../generated/prisma/client';
import {
  ticketChartKey,
  ticketIdIssue,
  validateOptimizeInput,
  validateTicketRequests,
  withPlayerScores,
  withRelativeScore,
  type OptimizationResult,
  type OptimizerChart,
  type PlayerChartScore,
} from '../../domain/optimizer';
import { inTotalSet } from '../../domain/totals';
import { badInput, notFound } from '../../errors';
import { keyset, parseVersion, refuseIssues } from '../../graphql/args';
import { keyCursor, keysetConnection, prismaKeyset, type Page } from '../../graphql/connection';
import type { AreaScope } from '../area';
import type { PatternsService } from '../patterns/patterns.service';
import type { ScoresService } from '../scores/scores.service';
import type { StatsService } from '../stats/stats.service';
import { importArrangementScores } from './arrangement.import';
import { planTask } from './plan.task';
import { ticketPages } from './tickets.sql';
import type { BpiPlanInput, TicketInput } from './optimizer.inputs';
import { OptimizerSearchMode, OptimizerStrategy, TicketScoreMode, type BpiPlanSettingsType } from './optimizer.types';

/** A plan as served and stored: the domain result plus what it was computed on. */
export type PlanView = OptimizationResult & { version: string; definitionsVersion: string | null };

/** A memo row as the GraphQL type reads it. */
export interface MemoView {
  id: string;
  userId: string;
  createdAt: Date;
  version: string;
  targetBpi: number | null;
  settings: BpiPlanSettingsType;
  plan: PlanView;
  definitionsVersion: string | null;
  scoresDigest: string;
}

export interface TicketChartView {
  chartId: number;
  pattern: string;
  patternScore: number;
  maxPatternScore: number;
  relativeScore: number;
  exScore: number | null;
  bpi: number | null;
  clearLamp: PlayerChartScore['clearLamp'];
  bpiGap: number | null;
  upvotes: number;
  downvotes: number;
}

export interface TicketRecommendationView {
  ticketId: string;
  expiresAt: string;
  scoreMode: TicketScoreMode;
  totalBpi: number | null;
  charts: Page<TicketChartView>;
}

/** Memos a player keeps at most (a save beyond it is refused: delete one first). */
export const MAX_MEMOS_PER_PLAYER = 100;
const TICKET_PAGE_DEFAULT = 10;
const TICKET_PAGE_MAX = 50;

/** Cursor kinds of memos: [createdAt, id]; of a ticket's charts: [rank key, chartId]. */
const MEMO_KEY = ['time', 'str'] as const;
const TICKET_KEY = ['num', 'int'] as const;

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'loaders' | 'viewer' | 'pool'> & {
  services: { scores: ScoresService; stats: StatsService; patterns: PatternsService };
};

/** SHA-256 of a player's bests (chart id, EX score) in a version: equal digests = the same scores. */
export function bestsDigest(bests: readonly Pick<BestScore, 'chartId' | 'exScore'>[]): string {
  const parts = bests.map((b) => `${b.chartId}:${b.exScore}`).sort();
  return createHash('sha256').update(parts.join(';')).digest('hex');
}

export class OptimizerService {
  constructor(private readonly s: Scope) {}

  // ───────────── the plan ─────────────

  /** Validated settings (BAD_USER_INPUT naming the argument) with the defaults applied. */
  settingsOf(input: BpiPlanInput): BpiPlanSettingsType {
    const version = parseVersion(input.version, 'input.version');
    const v = validateOptimizeInput({
      targetBpi: input.targetBpi,
      maxSteps: input.maxSteps,
      strategies: input.strategies,
      difficulties: input.difficulties,
      searchMode: input.searchMode,
      radarElements: input.radarElements,
      considerCurrentTotalBpi: input.considerCurrentTotalBpi,
    });
    if (!v.ok) refuseIssues(v.issues.map((i) => ({ ...i, argument: `input.${i.argument}` })));
    if (!v.ok) throw new Error('unreachable');
    const s = v.value;
    return {
      targetBpi: s.targetBpi,
      maxSteps: s.maxSteps,
      strategies: [...s.strategies] as OptimizerStrategy[],
      difficulties: [...s.difficulties],
      searchMode: s.searchMode as OptimizerSearchMode,
      radarElements: [...s.radarElements],
      considerCurrentTotalBpi: s.considerCurrentTotalBpi,
      version,
    };
  }

  /** The plan for the player's current bests (deterministic). */
  async plan(userId: string, input: BpiPlanInput): Promise<PlanView> {
    return this.planFor(userId, this.settingsOf(input));
  }

  private async planFor(userId: string, settings: BpiPlanSettingsType): Promise<PlanView> {
    const { version } = settings;
    const catalogue = this.s.catalogue;
    const [bests, radar] = await Promise.all([
      this.s.services.scores.bests(userId, version),
      this.s.services.stats.radar(userId, version),
    ]);
    const exOf = new Map(bests.map((b) => [b.chartId, b.exScore]));
    const charts: OptimizerChart[] = [];
    for (const c of catalogue.charts()) {
      if (!inTotalSet(c, version) || !c.definition) continue;
      const d = c.definition;
      charts.push({
        id: c.id,
        title: c.title,
        difficulty: c.difficulty,
        level: c.level,
        notes: d.notes,
        kaidenAvg: d.kaidenAvg,
        wr: d.wr,
        coef: d.coef,
        radarCategory: c.radarCategory ?? null,
        exScore: exOf.get(c.id) ?? null,
      });
    }
    const result = await this.s.pool.run(planTask, {
      charts,
      settings: {
        targetBpi: settings.targetBpi,
        maxSteps: settings.maxSteps,
        strategies: new Set(settings.strategies),
        difficulties: new Set(settings.difficulties),
        searchMode: settings.searchMode,
        radarElements: new Set(settings.radarElements),
        considerCurrentTotalBpi: settings.considerCurrentTotalBpi,
      },
      radar,
    });
    return { ...result, version, definitionsVersion: catalogue.definitionsVersion };
  }

  // ───────────── memos ─────────────

  private memoView(row: OptimizeMemo): MemoView {
    return {
      id: row.id,
      userId: row.userId,
      createdAt: row.createdAt,
      version: row.version,
      targetBpi: row.targetBpi,
      settings: row.input as unknown as BpiPlanSettingsType,
      plan: row.report as unknown as PlanView,
      definitionsVersion: row.definitionsVersion,
      scoresDigest: row.scoresDigest,
    };
  }

  /** Computes the plan from the player's scores now and saves it with its arguments, the definitions release and a digest of the scores. */
  async saveMemo(userId: string, input: BpiPlanInput): Promise<{ memo: MemoView }> {
    const settings = this.settingsOf(input);
    const count = await this.s.db.optimizeMemo.count({ where: { userId } });
    if (count >= MAX_MEMOS_PER_PLAYER) {
      throw badInput(`At most ${MAX_MEMOS_PER_PLAYER} memos per player: delete one first`, [
        { code: 'too_many', path: ['userId'], message: 'too many memos' },
      ]);
    }
    const [plan, bests] = await Promise.all([
      this.planFor(userId, settings),
      this.s.services.scores.bests(userId, settings.version),
    ]);
    const row = await this.s.db.optimizeMemo.create({
      data: {
        userId,
        version: settings.version,
        targetBpi: settings.targetBpi,
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it: Prisma's JSON input takes no class type (no index signature); the rule sees the type the call infers from the cast
        input: settings as object,
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- as `input` above
        report: plan as object,
        definitionsVersion: plan.definitionsVersion,
        scoresDigest: bestsDigest(bests),
      },
    });
    return { memo: this.memoView(row) };
  }

  /** The player's memos, newest first. */
  async memos(userId: string, args: { first?: number | null; after?: string | null }): Promise<Page<MemoView>> {
    const tag = 'optimizeMemos';
    const ks = keyset(args, tag, MEMO_KEY);
    const q = prismaKeyset(ks, [
      ['createdAt', 'desc'],
      ['id', 'asc'],
    ]);
    const [rows, total] = await Promise.all([
      this.s.db.optimizeMemo.findMany({ where: { userId, ...q.where }, orderBy: q.orderBy, take: q.take }),
      this.s.db.optimizeMemo.count({ where: { userId } }),
    ]);
    const page = keysetConnection(rows, ks, (r) => keyCursor(tag, MEMO_KEY, [r.createdAt, r.id]), total);
    return { ...page, edges: page.edges.map((e) => ({ cursor: e.cursor, node: this.memoView(e.node) })) };
  }

  /** Memos by id (`node(id:)`), with their owner for NODE_RULES; null for an unknown id. */
  async memosById(ids: readonly string[]): Promise<(MemoView | null)[]> {
    const uuids = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    const rows = uuids.length ? await this.s.db.optimizeMemo.findMany({ where: { id: { in: uuids } } }) : [];
    const byId = new Map(rows.map((r) => [r.id, this.memoView(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async deleteMemo(userId: string, memoId: string): Promise<{ deletedId: string }> {
    const { count } = await this.s.db.optimizeMemo.deleteMany({ where: { userId, id: memoId } });
    if (count === 0) throw notFound('Memo not found');
    return { deletedId: memoId };
  }

  /** The definitions release changed since the memo was computed. */
  definitionsChanged(memo: MemoView): boolean {
    return memo.definitionsVersion !== this.s.catalogue.definitionsVersion;
  }

  /** The player's bests in the memo's version differ from those the memo was computed on. */
  async scoresMovedSince(memo: MemoView): Promise<boolean> {
    return bestsDigest(await this.s.services.scores.bests(memo.userId, memo.version)) !== memo.scoresDigest;
  }

  // ───────────── lane tickets ─────────────

  /** One ticket, paged. */
  async ticket(
    userId: string,
    args: {
      ticketId: string;
      expiresAt?: string | null;
      scoreMode?: TicketScoreMode | null;
      version?: string | null;
      first?: number | null;
      after?: string | null;
    },
  ) {
    const issue = ticketIdIssue(args.ticketId, 'ticketId');
    if (issue) refuseIssues([issue]);
    const [one] = await this.recommend(
      userId,
      [{ ticketId: args.ticketId, expiresAt: args.expiresAt }],
      args.scoreMode,
      args.version,
      args.first,
      args.after,
    );
    return one;
  }

  /** Up to 50 tickets at once: the first page of each. */
  async tickets(
    userId: string,
    args: {
      tickets: TicketInput[];
      scoreMode?: TicketScoreMode | null;
      version?: string | null;
      first?: number | null;
    },
  ) {
    const v = validateTicketRequests(args.tickets);
    if (!v.ok) refuseIssues(v.issues.map((i) => ({ ...i, argument: i.argument.replace(/^ticketIds/, 'tickets') })));
    return this.recommend(userId, args.tickets, args.scoreMode, args.version, args.first, null);
  }

  private async recommend(
    userId: string,
    tickets: { ticketId: string; expiresAt?: string | null }[],
    modeArg: TicketScoreMode | null | undefined,
    versionArg: string | null | undefined,
    first: number | null | undefined,
    after: string | null | undefined,
  ): Promise<TicketRecommendationView[]> {
    const version = parseVersion(versionArg);
    const mode = modeArg ?? TicketScoreMode.RELATIVE;
    // keyset over the ticket's ranked order: (the rank key — relative or raw pattern score — DESC, chartId ASC)
    const tag = `ticket:${mode}`;
    const ks = keyset({ first, after }, tag, TICKET_KEY, { max: TICKET_PAGE_MAX, def: TICKET_PAGE_DEFAULT });
    const patterns = [...new Set(tickets.map((t) => t.ticketId))];
    // the database ranks and pages (tickets.sql.ts): only each ticket's page crosses to JS, not every score row
    const [byPattern, bests, totalBpi] = await Promise.all([
      ticketPages(this.s.db, patterns, mode, ks.size, ks.key),
      this.s.services.scores.bests(userId, version),
      this.s.services.stats.totalBpi(userId, version),
    ]);
    const catalogue = this.s.catalogue;
    const scores = new Map<number, PlayerChartScore>(
      bests.map((b) => [
        b.chartId,
        { exScore: b.exScore, bpi: catalogue.currentBpi(b.chartId, b.exScore), clearLamp: b.clearLamp },
      ]),
    );
    const pages = tickets.map((t) => {
      const page = byPattern.get(t.ticketId);
      // in the SQL's order, which is rankTicketCharts' (tickets.sql.ts); relativeScore computed as rankTicketCharts does
      const picked = (page?.rows ?? []).map((r) =>
        withRelativeScore({ chartId: r.chartId, patternScore: r.score, maxPatternScore: r.chartMax }),
      );
      const keyOf = (r: (typeof picked)[number]) => ticketChartKey(r, mode);
      return { t, total: page?.total ?? 0, items: withPlayerScores(picked, scores, totalBpi), keyOf };
    });
    // Votes of the patterns on the charts shown: one query for every ticket.
    const chartIds = [...new Set(pages.flatMap((p) => p.items.map((i) => i.chartId)))];
    const votes = chartIds.length
      ? await this.s.db.fingeringPattern.findMany({
          where: { pattern: { in: patterns }, chartId: { in: chartIds } },
          select: { chartId: true, pattern: true, upvotes: true, downvotes: true },
        })
      : [];
    const voteOf = new Map(votes.map((v) => [`${v.chartId}\u0000${v.pattern}`, v]));
    return pages.map(({ t, total, items, keyOf }) => ({
      ticketId: t.ticketId,
      expiresAt: t.expiresAt ?? '',
      scoreMode: mode,
      totalBpi,
      charts: keysetConnection(
        items.map((i) => {
          const v = voteOf.get(`${i.chartId}\u0000${t.ticketId}`);
          return { ...i, pattern: t.ticketId, upvotes: v?.upvotes ?? 0, downvotes: v?.downvotes ?? 0 };
        }),
        ks,
        (i) => keyCursor(tag, TICKET_KEY, [keyOf(i), i.chartId]),
        total,
      ),
    }));
  }

  /** The caller's vote on the ticket's pattern for that chart (null: none, or signed out). */
  myVote(item: TicketChartView) {
    return this.s.services.patterns.myVote({ chartId: item.chartId, pattern: item.pattern });
  }

  /** The imported arrangement score of a pattern on a chart (null: none; batched). */
  arrangementScore(p: { chartId: number; pattern: string }): Promise<number | null> {
    return this.s.loaders.optimizer.arrangementScore.load({ chartId: p.chartId, pattern: p.pattern });
  }

  // ───────────── admin ─────────────

  importArrangementScores(doc: unknown) {
    return importArrangementScores(this.s.db, doc);
  }
}
