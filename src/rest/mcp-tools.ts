import { z } from 'zod';
import { badInput, notFound } from '../errors';
import { documentsOf } from '../graphql/documents';
import { parseVersion } from '../graphql/args';
import { ClearLamp, Difficulty, PlayStyle } from '../domain/constants';
import { McpMyDashboard } from './documents/mcp-dashboard';
import { McpMyScores, McpUserScoresById, McpUserScoresByName } from './documents/mcp-scores';
import { McpMyFollows } from './documents/mcp-follows';
import { McpChartRivals } from './documents/mcp-chart-rivals';
import { McpSearchSongs, McpSearchUsers } from './documents/mcp-search';
import { McpImportScore, McpMyBest } from './documents/mcp-update-score';
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
  type ScoresArgs,
} from './mcp-shared';

export type { McpTool } from './mcp-shared';

// ───────────── the tools ─────────────

const Histogram = z.object({
  total: z.number().int().describe('Charts counted'),
  buckets: z.array(z.object({ label: z.string(), count: z.number().int() })).describe('Buckets in ascending order'),
});

export const MCP_TOOLS: readonly McpTool[] = [
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
      const { me } = await documentsOf(app).run(McpMyScores, ctx, scoresVariables(args as ScoresArgs));
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
      const vars = scoresVariables(args as ScoresArgs);
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

  tool({
    name: 'chart_rivals',
    title: "Rivals' scores on a chart",
    description:
      'Your best on one chart next to the bests of the players you follow (those whose data you may see), highest EX first, with each one’s EX difference to you (GraphQL User.followingScoresOn).',
    kind: 'read',
    input: z.strictObject({
      chartId: z.number().int().min(1).describe('The chart (search_songs gives chart ids)'),
      version,
    }),
    output: z.object({
      chart: z.object({
        chartId: z.number().int(),
        title: z.string(),
        playStyle: z.string(),
        difficulty: z.string(),
        level: z.number().int(),
        notes: z.number().int().nullable(),
      }),
      version: z.string(),
      me: z
        .object({ exScore: z.number().int(), bpi: z.number().nullable(), clearLamp: z.string().nullable() })
        .nullable()
        .describe('Your best (null: not played)'),
      rivals: z.array(
        z.object({
          userId: z.string(),
          name: z.string(),
          exScore: z.number().int(),
          bpi: z.number().nullable(),
          clearLamp: z.string(),
          missCount: z.number().int().nullable(),
          playedAt: z.string(),
          exDiff: z.number().int().nullable().describe('Their EX minus yours (null: you have not played the chart)'),
        }),
      ),
    }),
    async run(ctx, app, args) {
      const ver = parseVersion(args.version);
      const { chart, me } = await documentsOf(app).run(McpChartRivals, ctx, {
        chartId: String(args.chartId),
        version: ver,
      });
      const rows = mine(me).followingScoresOn;
      if (!chart || !rows) throw notFound('Chart not found');
      const best = me!.bestOn;
      return {
        chart: {
          chartId: chart.databaseId,
          title: chart.song.title,
          playStyle: chart.playStyle,
          difficulty: chart.difficulty,
          level: chart.level,
          notes: chart.notes && chart.notes > 0 ? chart.notes : null,
        },
        version: ver,
        me: best ? { exScore: best.exScore, bpi: best.bpi, clearLamp: best.clearLamp } : null,
        rivals: rows.map((r) => ({
          userId: r.userId,
          name: r.user.name,
          exScore: r.exScore,
          bpi: r.bpi,
          clearLamp: r.clearLamp,
          missCount: r.missCount,
          playedAt: r.playedAt,
          exDiff: best ? r.exScore - best.exScore : null,
        })),
      };
    },
  }),

  tool({
    name: 'search_songs',
    title: 'Search songs',
    description:
      'The song catalogue by title (case-insensitive part), level, difficulty, play style or game version, ordered by title, paged; each song with its charts, their ids and BPI definitions (GraphQL Query.songs).',
    kind: 'read',
    input: z.strictObject({
      title: z.string().max(256).optional().describe('Case-insensitive part of the title'),
      level: z.number().int().optional().describe('A chart of this level (1–12)'),
      difficulty: z.enum(Difficulty).optional(),
      playStyle: z.enum(PlayStyle).optional(),
      availableIn: z.string().max(8).optional().describe('Available in this game version, e.g. "33"'),
      first,
      after,
    }),
    output: z.object({
      ...PageOut,
      songs: z.array(
        z.object({
          songId: z.number().int(),
          title: z.string(),
          charts: z.array(
            z.object({
              chartId: z.number().int(),
              playStyle: z.string(),
              difficulty: z.string(),
              level: z.number().int(),
              notes: z.number().int().nullable(),
              worldRecord: z
                .number()
                .int()
                .nullable()
                .describe('EX of the world record (BPI 100); null: no BPI definition'),
              kaidenAverage: z
                .number()
                .int()
                .nullable()
                .describe('EX of the kaiden average (BPI 0); null: no BPI definition'),
            }),
          ),
        }),
      ),
    }),
    async run(ctx, app, args) {
      const { first: n, after: cursor, ...filter } = args;
      const { songs: page } = await documentsOf(app).run(McpSearchSongs, ctx, { filter, first: n, after: cursor });
      return {
        totalCount: page.totalCount,
        hasNextPage: page.pageInfo.hasNextPage,
        endCursor: page.pageInfo.endCursor,
        songs: page.edges.map(({ node }) => ({
          songId: node.databaseId,
          title: node.title,
          charts: node.charts.map((c) => ({
            chartId: c.databaseId,
            playStyle: c.playStyle,
            difficulty: c.difficulty,
            level: c.level,
            notes: c.notes,
            worldRecord: c.definition?.wr ?? null,
            kaidenAverage: c.definition?.kaidenAvg ?? null,
          })),
        })),
      };
    },
  }),

  tool({
    name: 'search_users',
    title: 'Search players',
    description:
      'Players whose name starts with a prefix, or whose name or game id holds a search (case-insensitive; give one of the two), by name: public players, yourself and private players who approved your follow (GraphQL Query.searchUsers).',
    kind: 'read',
    input: z.strictObject({
      prefix: z.string().min(1).max(20).optional().describe('Start of the name (1–20 characters)'),
      search: z
        .string()
        .min(1)
        .max(50)
        .optional()
        .describe('Part of the name or of the game id, dashes ignored (1–50 characters)'),
      first: z.number().int().min(1).max(50).optional().describe('How many, 1–50 (default 20)'),
    }),
    output: z.object({ users: z.array(z.object({ userId: z.string(), name: z.string(), isPublic: z.boolean() })) }),
    async run(ctx, app, args) {
      const { searchUsers } = await documentsOf(app).run(McpSearchUsers, ctx, args);
      return { users: searchUsers.map((x) => ({ userId: x.databaseId, name: x.name, isPublic: x.isPublic })) };
    },
  }),

  tool({
    name: 'update_my_score',
    title: 'Update my score',
    description:
      'Records a play on one chart: a new EX score and/or clear lamp (and optionally the miss count). It is imported exactly as a score file is (GraphQL Mutation.importScores): one batch, ' +
      'the bests, the total BPI and the timeline updated; a value that does not improve your best changes nothing. With only a lamp, your current best EX is kept. Needs the write scope.',
    kind: 'write',
    input: z.strictObject({
      chartId: z.number().int().min(1).describe('The chart (search_songs gives chart ids)'),
      exScore: z.number().int().min(1).optional().describe('EX score (at most 2 × notes)'),
      clearLamp: z.enum(ClearLamp).exclude([ClearLamp.NO_PLAY]).optional().describe('Clear lamp'),
      missCount: z.number().int().min(0).optional().describe('Miss count'),
      version,
    }),
    output: z.object({
      chartId: z.number().int(),
      title: z.string(),
      difficulty: z.string(),
      version: z.string(),
      updated: z.boolean().describe('false: nothing improved, nothing written'),
      batchId: z.string().nullable().describe('The import batch (null: nothing written)'),
      message: z.string(),
      previousTotalBpi: z.number(),
      newTotalBpi: z.number(),
      best: z
        .object({
          exScore: z.number().int(),
          bpi: z.number().nullable(),
          clearLamp: z.string().nullable(),
          missCount: z.number().int().nullable(),
        })
        .nullable()
        .describe('Your best on the chart afterwards'),
    }),
    async run(ctx, app, args) {
      const docs = documentsOf(app);
      const ver = parseVersion(args.version);
      const target = { chartId: String(args.chartId), version: ver };
      const before = await docs.run(McpMyBest, ctx, target);
      const chart = before.chart;
      if (!chart) throw notFound('Chart not found');
      if (args.exScore === undefined && args.clearLamp === undefined) {
        throw badInput('Give exScore and/or clearLamp', [
          { code: 'invalid_type', path: ['exScore'], message: 'exScore or clearLamp is required' },
        ]);
      }
      // A lamp alone: the play carries the current best EX (as a score file's row would).
      const exScore = args.exScore ?? mine(before.me).bestOn?.exScore;
      if (exScore === undefined || exScore <= 0) {
        throw badInput('exScore is required: you have no score on this chart yet', [
          { code: 'invalid_type', path: ['exScore'], message: 'exScore is required' },
        ]);
      }
      const title = chart.song.title;
      const row = {
        title,
        playStyle: chart.playStyle,
        difficulty: chart.difficulty,
        level: chart.level,
        exScore,
        clearState: args.clearLamp ?? ClearLamp.NO_PLAY,
        missCount: args.missCount ?? null,
      };
      const { importScores: report } = await docs.run(McpImportScore, ctx, { version: ver, rows: [row] });
      const problem = report.problems.find((p) => p.severity === 'error');
      if (problem) {
        const path =
          problem.column === 'missCount' ? 'missCount' : problem.column === 'clearState' ? 'clearLamp' : 'exScore';
        throw badInput(`${path}: ${problem.reason}`, [
          { code: 'invalid_value', path: [path], message: problem.reason },
        ]);
      }
      if (report.notFound.length) throw notFound('Chart not found');
      ctx.renew(); // the request's loaders read the best before the import
      const after = mine((await docs.run(McpMyBest, ctx, target)).me).bestOn;
      return {
        chartId: chart.databaseId,
        title,
        difficulty: chart.difficulty,
        version: ver,
        updated: report.batchId !== null,
        batchId: report.batchId,
        message: report.message,
        previousTotalBpi: report.previousTotalBpi,
        newTotalBpi: report.newTotalBpi,
        best: after
          ? { exScore: after.exScore, bpi: after.bpi, clearLamp: after.clearLamp, missCount: after.missCount }
          : null,
      };
    },
  }),
];

/** A tool by name. */
export function mcpTool(name: string): McpTool | undefined {
  return MCP_TOOLS.find((t) => t.name === name);
}
