/**
 * Lane-arrangement ticket recommendations (docs/domain/optimizer.md#lane-tickets), the pure part: validation of
 * ticket ids and of a request for several tickets, the ranking of the charts a ticket's
 * arrangement suits, paging, and the player's score, BPI and gap per chart.
 *
 * A ticket is a 7-digit lane permutation (`2641753`); every chart has an "arrangement score" per
 * pattern (songPatterns). Ranking for one ticket, over every chart with a score for that pattern:
 * - raw: by the pattern's score, descending;
 * - relative: by score / (the chart's best score over all patterns), descending; charts whose best
 *   score is ≤ 0 come last (the reference's −9999);
 * ties by chart id (the reference has no tie-breaker, so its pages could overlap).
 * relativeScore = score / best · 100 (0 when best ≤ 0). bpiGap = the player's total BPI − the
 * chart's BPI (null when either is missing).
 */
import { patternProblem } from '../fingering';
import type { ClearLamp } from '../constants';
import type { InputIssue, Validated } from './input';

export const TICKET_SCORE_MODES = ['relative', 'raw'] as const;
export type TicketScoreMode = (typeof TICKET_SCORE_MODES)[number];
export const MAX_TICKETS_PER_REQUEST = 50;
export const TICKET_PAGE_SIZE = 10;
export const MAX_TICKET_PAGE_SIZE = 50;

/** Why a ticket id is invalid, as an issue for `argument`; null when valid. */
export function ticketIdIssue(ticketId: unknown, argument = 'ticketId'): InputIssue | null {
  if (typeof ticketId !== 'string') return { argument, message: `${argument} must be a string of 7 lane digits` };
  const problem = patternProblem(ticketId);
  return problem ? { argument, message: `${argument}: ${problem.replace(/^pattern/, 'a ticket id')}` } : null;
}

export interface TicketRequest {
  ticketId: string;
  /** Echoed back (the bookmarklet's expiry text); "" when absent. */
  expiresAt?: string | null;
}

/** 1 to 50 tickets, each a valid id; issues name the entry (`ticketIds[3]`). */
export function validateTicketRequests(
  tickets: readonly TicketRequest[] | null | undefined,
): Validated<{ ticketId: string; expiresAt: string }[]> {
  if (!tickets || tickets.length === 0)
    return { ok: false, issues: [{ argument: 'ticketIds', message: 'ticketIds is required (at least one ticket)' }] };
  if (tickets.length > MAX_TICKETS_PER_REQUEST) {
    return {
      ok: false,
      issues: [{ argument: 'ticketIds', message: `Too many ticketIds (max ${MAX_TICKETS_PER_REQUEST})` }],
    };
  }
  const issues: InputIssue[] = [];
  tickets.forEach((t, i) => {
    const issue = ticketIdIssue(t?.ticketId, `ticketIds[${i}]`);
    if (issue) issues.push(issue);
  });
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: tickets.map((t) => ({ ticketId: t.ticketId, expiresAt: t.expiresAt ?? '' })) };
}

export interface TicketPage {
  offset: number;
  first: number;
}

/** offset ≥ 0 (an integer; the reference answered a non-number with a 500), first 1..50 (default 10). */
export function validateTicketPage(
  offset: number | null | undefined,
  first: number | null | undefined,
): Validated<TicketPage> {
  const issues: InputIssue[] = [];
  const o = offset ?? 0;
  const f = first ?? TICKET_PAGE_SIZE;
  if (!Number.isInteger(o) || o < 0)
    issues.push({ argument: 'offset', message: 'offset must be a non-negative integer' });
  if (!Number.isInteger(f) || f < 1 || f > MAX_TICKET_PAGE_SIZE)
    issues.push({ argument: 'first', message: `first must be an integer between 1 and ${MAX_TICKET_PAGE_SIZE}` });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { offset: o, first: f } };
}

/** One chart's arrangement score for the ticket's pattern, and its best score over all patterns. */
export interface TicketPatternRow {
  chartId: number;
  patternScore: number;
  maxPatternScore: number;
}

export interface RankedTicketChart extends TicketPatternRow {
  /** patternScore / maxPatternScore · 100; 0 when maxPatternScore ≤ 0. */
  relativeScore: number;
}

/** The relative key of a chart whose best score is ≤ 0 (the reference's −9999); src/modules/optimizer/tickets.sql.ts uses it too. */
export const RELATIVE_LAST = -9999;

/** A chart's rank key on a ticket (higher first; ties by chart id): the raw pattern score, or its share of the chart's best pattern score. */
export function ticketChartKey(r: TicketPatternRow, mode: TicketScoreMode): number {
  return mode === 'raw' ? r.patternScore : r.maxPatternScore > 0 ? r.patternScore / r.maxPatternScore : RELATIVE_LAST;
}

export function rankTicketCharts(rows: readonly TicketPatternRow[], mode: TicketScoreMode): RankedTicketChart[] {
  const key = (r: TicketPatternRow) => ticketChartKey(r, mode);
  return rows
    .map((r) => ({ row: r, key: key(r) }))
    .sort((a, b) => b.key - a.key || a.row.chartId - b.row.chartId)
    .map(({ row }) => withRelativeScore(row));
}

/** The row with its relativeScore (rows ranked elsewhere — by SQL in src/modules/optimizer/tickets.sql.ts — get it here too). */
export function withRelativeScore(row: TicketPatternRow): RankedTicketChart {
  return { ...row, relativeScore: row.maxPatternScore > 0 ? (row.patternScore / row.maxPatternScore) * 100 : 0 };
}

/** The page at `offset` of size `first`, and whether more follow. */
export function pageOf<T>(list: readonly T[], page: TicketPage): { items: T[]; hasMore: boolean } {
  return { items: list.slice(page.offset, page.offset + page.first), hasMore: list.length > page.offset + page.first };
}

export interface PlayerChartScore {
  exScore: number;
  /** null when the chart has no BPI definition. */
  bpi: number | null;
  clearLamp: ClearLamp | null;
}

export interface TicketChartItem extends RankedTicketChart {
  exScore: number | null;
  bpi: number | null;
  clearLamp: ClearLamp | null;
  /** The player's total BPI − the chart's BPI; null when either is missing. */
  bpiGap: number | null;
}

/** Adds the player's best on each chart (null when unplayed) and the gap to their total BPI. */
export function withPlayerScores(
  ranked: readonly RankedTicketChart[],
  scores: ReadonlyMap<number, PlayerChartScore>,
  totalBpi: number | null,
): TicketChartItem[] {
  return ranked.map((r) => {
    const s = scores.get(r.chartId);
    const bpi = s?.bpi ?? null;
    return {
      ...r,
      exScore: s?.exScore ?? null,
      bpi,
      clearLamp: s?.clearLamp ?? null,
      bpiGap: totalBpi !== null && bpi !== null ? Math.round((totalBpi - bpi) * 100) / 100 : null,
    };
  });
}
