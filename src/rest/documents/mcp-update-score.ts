import { fixedDocument } from '../../graphql/documents';
import { MCP_CHART, type McpChartData } from './mcp-chart';

interface McpMyBestData {
  chart: McpChartData | null;
  me: {
    bestOn: { exScore: number; bpi: number | null; clearLamp: string | null; missCount: number | null } | null;
  } | null;
}

/** MCP tool update_my_score, before and after the import: the chart and the caller's best on it. */
export const McpMyBest = fixedDocument<McpMyBestData, { chartId: string; version: string }>(
  'McpMyBest',
  /* GraphQL */ `
    query McpMyBest($chartId: ID!, $version: GameVersion) {
      chart(id: $chartId) {
        ...McpChart
      }
      me {
        bestOn(chartId: $chartId, version: $version) {
          exScore
          bpi
          clearLamp
          missCount
        }
      }
    }
    ${MCP_CHART}
  `,
);

interface McpImportData {
  importScores: {
    batchId: string | null;
    message: string;
    previousTotalBpi: number;
    newTotalBpi: number;
    problems: { severity: string; column: string | null; reason: string }[];
    notFound: { title: string }[];
  };
}

/** MCP tool update_my_score: one row imported as a score file's row (Mutation.importScores, rule OWNER, write scope). */
export const McpImportScore = fixedDocument<McpImportData, { version: string; rows: Record<string, unknown>[] }>(
  'McpImportScore',
  /* GraphQL */ `
    mutation McpImportScore($version: GameVersion!, $rows: [ScoreRowInput!]!) {
      importScores(version: $version, rows: $rows) {
        batchId
        message
        previousTotalBpi
        newTotalBpi
        problems {
          severity
          column
          reason
        }
        notFound {
          title
        }
      }
    }
  `,
);
