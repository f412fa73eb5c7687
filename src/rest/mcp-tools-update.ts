import { z } from 'zod';
import { badInput, notFound } from '../errors';
import { documentsOf } from '../graphql/documents';
import { parseVersion } from '../graphql/args';
import { ClearLamp } from '../domain/constants';
import { McpImportScore, McpMyBest } from './documents/mcp-update-score';
import { mine, tool, version, type McpTool } from './mcp-shared';

/**
 * The MCP tool that writes (src/rest/mcp.ts lists it through mcp-tools.ts): update_my_score, one score
 * imported as a batch of one row, with the best before and after (fixed documents McpMyBest, McpImportScore).
 */

export const UPDATE_TOOLS: readonly McpTool[] = [
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
