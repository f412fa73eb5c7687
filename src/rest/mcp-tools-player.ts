import { z } from 'zod';
import { badInput, notFound } from '../errors';
import { documentsOf } from '../graphql/documents';
import { parseVersion } from '../graphql/args';
import { Difficulty } from '../domain/constants';
import { McpMyDashboard } from './documents/mcp-dashboard';
import { McpMyScores, McpUserScoresById, McpUserScoresByName } from './documents/mcp-scores';
import { McpMyFollows } from './documents/mcp-follows';
import {
  after,
  first,
  mine,
  PageOut,
  ScoresIn,
  ScoresOut,
  scoresOut,
  scoresVariables,
  tool,
  version,
  type McpTool,
} from './mcp-shared';

/**
 * MCP tools about a player (src/rest/mcp.ts lists them through mcp-tools.ts): the caller's dashboard,
 * scores and follows, and another player's scores. Each runs fixed documents (src/rest/documents/Mcp*.ts).
 */

const Histogram = z.object({
  total: z.number().int().describe('Charts counted'),
  buckets: z.array(z.object({ label: z.string(), count: z.number().int() })).describe('Buckets in ascending order'),
});

export const PLAYER_TOOLS: readonly McpTool[] = [
  tool({
    name: 'my_dashboard',
    title: 'My dashboard',
    description:
      'A compact summary of your stats in a version (the dashboard of GraphQL User.dashboard): total BPI with the estimated kaiden rank and the charts played of the ☆12 set, ' +
      'the single-chart BPI distribution (10-point buckets) and the DJ rank distribution of your bests.',
    kind: 'read',
    input: z.strictObject({
      version,
      levels: z
        .array(z.number().int())
        .max(12)
        .optional()
        .describe('Levels counted by the distributions (default: all)'),
      difficulties: z
        .array(z.enum(Difficulty))
        .max(10)
        .optional()
        .describe('Difficulties counted by the distributions (default: all)'),
    }),
    output: z.object({
      userId: z.string(),
      name: z.string(),
      version: z.string(),
      totalBpi: z.number().describe('Total BPI over the SP ☆12 set (unplayed charts count −15)'),
      estimatedRank: z.number().int().describe('Estimated rank among kaiden players'),
      playedCount: z.number().int().describe('Charts of the ☆12 set played'),
      chartCount: z.number().int().describe('Charts in the ☆12 set'),
      bpiDistribution: Histogram,
      djRankDistribution: Histogram,
    }),
    async run(ctx, app, args) {
      const { me } = await documentsOf(app).run(McpMyDashboard, ctx, args);
      const user = mine(me);
      const dash = user.dashboard;
      if (!dash) throw notFound('User not found');
      return {
        userId: user.databaseId,
        name: user.name,
        version: dash.version,
        totalBpi: dash.totalBpi.totalBpi,
        estimatedRank: dash.totalBpi.estimatedRank,
        playedCount: dash.totalBpi.playedCount,
        chartCount: dash.totalBpi.chartCount,
        bpiDistribution: dash.bpiDistribution,
        djRankDistribution: dash.djRankDistribution,
      };
    },
  }),
  tool({
    name: 'my_scores',
    title: 'My scores',
    description:
      'Your best scores in a version on the charts with a BPI, filtered, sorted and paged exactly as GraphQL User.scores (levels, difficulties, lamps, BPI range, title search, radar categories; sort and order; first/after).',
    kind: 'read',
    input: z.strictObject(ScoresIn),
    output: ScoresOut,
    async run(ctx, app, args) {
      const ver = parseVersion(args.version);
      const { me } = await documentsOf(app).run(McpMyScores, ctx, scoresVariables(args));
      return scoresOut(mine(me), ver);
    },
  }),
  tool({
    name: 'user_scores',
    title: "A player's scores",
    description:
      "Another player's best scores (by userId or name), with the same filters as my_scores. Only for players whose data you may see: public players, yourself, and private players who approved your follow; " +
      'anyone else is refused (FORBIDDEN).',
    kind: 'read',
    input: z.strictObject({
      userId: z.string().max(64).optional().describe('The player id (give this or name)'),
      name: z.string().max(40).optional().describe('The player name (give this or userId)'),
      ...ScoresIn,
    }),
    output: ScoresOut,
    async run(ctx, app, args) {
      if ((args.userId === undefined) === (args.name === undefined)) {
        throw badInput('Give exactly one of userId and name', [
          { code: 'invalid_union', path: ['userId'], message: 'Give exactly one of userId and name' },
        ]);
      }
      const ver = parseVersion(args.version);
      const vars = scoresVariables(args);
      const docs = documentsOf(app);
      const player =
        args.userId !== undefined
          ? (await docs.run(McpUserScoresById, ctx, { ...vars, userId: args.userId })).user
          : (await docs.run(McpUserScoresByName, ctx, { ...vars, name: args.name! })).userByName;
      return scoresOut(player, ver);
    },
  }),
  tool({
    name: 'my_follows',
    title: 'My follows',
    description:
      'The players you follow (or who follow you), newest first, paged: name, whether the profile is public, and when the follow began. ' +
      'A private player who has not approved your follow is masked (no id, the masked name), as in GraphQL User.following.',
    kind: 'read',
    input: z.strictObject({
      direction: z
        .enum(['following', 'followers'])
        .optional()
        .describe('following (default): players you follow; followers: players following you'),
      first,
      after,
    }),
    output: z.object({
      direction: z.enum(['following', 'followers']),
      ...PageOut,
      users: z.array(
        z.object({
          userId: z.string().nullable().describe('null when masked'),
          name: z.string(),
          isPublic: z.boolean(),
          masked: z.boolean().describe('true: you may not see this player'),
          followedAt: z.string(),
        }),
      ),
    }),
    async run(ctx, app, args) {
      const direction = args.direction ?? 'following';
      const { me } = await documentsOf(app).run(McpMyFollows, ctx, {
        following: direction === 'following',
        first: args.first,
        after: args.after,
      });
      const page = mine(me)[direction];
      if (!page) throw notFound('User not found');
      return {
        direction,
        totalCount: page.totalCount,
        hasNextPage: page.pageInfo.hasNextPage,
        endCursor: page.pageInfo.endCursor,
        users: page.edges.map(({ node, followedAt }) => ({
          userId: node.isMasked ? null : node.databaseId,
          name: node.name,
          isPublic: node.isPublic,
          masked: node.isMasked,
          followedAt,
        })),
      };
    },
  }),
];
