import { z } from 'zod';
import { notFound } from '../errors';
import { documentsOf } from '../graphql/documents';
import { parseVersion } from '../graphql/args';
import { Difficulty, PlayStyle } from '../domain/constants';
import { McpChartRivals } from './documents/mcp-chart-rivals';
import { McpSearchSongs, McpSearchUsers } from './documents/mcp-search';
import { after, first, mine, PageOut, tool, version, type McpTool } from './mcp-shared';

/**
 * MCP tools that find things (src/rest/mcp.ts lists them through mcp-tools.ts): the followed rivals'
 * scores on a chart, song search and user search. Each runs fixed documents (src/rest/documents/Mcp*.ts).
 */

export const DISCOVER_TOOLS: readonly McpTool[] = [
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
];
