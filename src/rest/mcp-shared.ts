import { z } from 'zod';
import type { App } from '../app';
import { notFound } from '../errors';
import type { Context } from '../graphql/context';
import { ClearLamp, Difficulty, RadarCategory } from '../domain/constants';
import { ScoreSortKey, SortOrder } from '../domain/score-list';
import type { McpPlayerScores, McpScoresVariables } from './documents/mcp-scores';

/**
 * The assistant tools of POST /mcp (src/rest/mcp.ts): each one a translator, as the REST routes
 * are — its arguments (a strict zod schema: the tool's JSON-schema input; an unknown argument is
 * refused naming it), the fixed GraphQL document(s) it runs (src/rest/documents/mcp-*.ts) through
 * the one pipeline (cost, resolvers, rule table with the token's scopes, loaders, errors), and the
 * answer mapped to a plain JSON object (the tool's JSON-schema output, sent as structuredContent).
 */
export interface McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** 'write' tools count against the write rate limit and need the token's write scope (through their rule). */
  kind: 'read' | 'write';
  input: I;
  output: O;
  run(ctx: Context, app: App, args: z.infer<I>): Promise<z.infer<O>>;
}

export const tool = <I extends z.ZodObject, O extends z.ZodObject>(t: McpTool<I, O>): McpTool => t;

// ───────────── shared pieces of the schemas ─────────────

export const version = z.string().max(8).optional().describe('Game version, e.g. "33" (default: the latest)');
export const first = z.number().int().min(1).max(100).optional().describe('Page size, 1–100 (default 20)');
export const after = z.string().max(512).optional().describe('Cursor from the previous page (endCursor)');
export const PageOut = { totalCount: z.number().int(), hasNextPage: z.boolean(), endCursor: z.string().nullable() };

const ScoreOut = z.object({
  chartId: z.number().int(),
  title: z.string(),
  playStyle: z.string().nullable(),
  difficulty: z.string(),
  level: z.number().int(),
  notes: z.number().int().nullable(),
  exScore: z.number().int(),
  bpi: z.number().nullable().describe('BPI under the current definition (null: the chart has none)'),
  clearLamp: z.string().nullable(),
  missCount: z.number().int().nullable(),
  playedAt: z.string().describe('ISO time of the play that set the best EX'),
});

export const ScoresOut = z.object({
  userId: z.string(),
  name: z.string(),
  version: z.string(),
  ...PageOut,
  scores: z.array(ScoreOut),
});

/** The filters, sort and paging of GraphQL `User.scores` (ScoresArgs), parsed by the same args parser (the scores service). */
export const ScoresIn = {
  version,
  levels: z.array(z.number().int()).max(12).optional().describe('Chart levels (1–12)'),
  difficulties: z.array(z.enum(Difficulty)).max(10).optional(),
  clearLamps: z.array(z.enum(ClearLamp)).max(10).optional().describe('Lamps of the best (NO_PLAY: no lamp)'),
  bpiMin: z.number().optional().describe('Lowest BPI (a missing BPI counts as −15)'),
  bpiMax: z.number().optional().describe('Highest BPI'),
  search: z.string().max(100).optional().describe('Case-insensitive part of the title'),
  radarCategories: z.array(z.enum(RadarCategory)).max(10).optional(),
  sort: z.enum(ScoreSortKey).optional().describe('Sort key (default LEVEL)'),
  order: z.enum(SortOrder).optional().describe('Sort order (default DESC)'),
  first,
  after,
};
export type ScoresArgs = z.infer<z.ZodObject<typeof ScoresIn>>;

/** A player's score page (User.scores) in the tools' shape. */
export function scoresOut(player: McpPlayerScores | null, ver: string): z.infer<typeof ScoresOut> {
  const page = player?.scores;
  if (!player || !page) throw notFound('User not found'); // a field the caller may not read: as the rule's refusal
  return {
    userId: player.databaseId,
    name: player.name,
    version: ver,
    totalCount: page.totalCount,
    hasNextPage: page.pageInfo.hasNextPage,
    endCursor: page.pageInfo.endCursor,
    scores: page.edges.map(({ node: e }) => ({
      chartId: e.chartId,
      title: e.title,
      playStyle: e.chart?.playStyle ?? null,
      difficulty: e.difficulty,
      level: e.level,
      notes: e.notes,
      exScore: e.exScore,
      bpi: e.bpi,
      clearLamp: e.clearLamp,
      missCount: e.missCount,
      playedAt: e.playedAt,
    })),
  };
}

/** The arguments of a tool that are variables of User.scores (the rest stay out of the document). */
const SCORES_VARIABLES = [
  'version',
  'levels',
  'difficulties',
  'clearLamps',
  'bpiMin',
  'bpiMax',
  'search',
  'radarCategories',
  'sort',
  'order',
  'first',
  'after',
] as const;

/** The variables of User.scores from a tool's arguments. */
export function scoresVariables(args: ScoresArgs): McpScoresVariables {
  const out = {} as Pick<ScoresArgs, (typeof SCORES_VARIABLES)[number]>;
  for (const key of SCORES_VARIABLES) (out as Record<string, unknown>)[key] = args[key];
  return out;
}

/** The caller (Query.me); the MCP endpoint admits signed-in callers only. */
export function mine<T>(me: T | null): T {
  if (!me) throw notFound('User not found');
  return me;
}
