import { fixedDocument } from '../../graphql/documents';
import { MCP_CHART, type McpChartData } from './mcp-chart';

interface McpChartRivalsData {
  chart: (McpChartData & { notes: number | null }) | null;
  me: {
    followingScoresOn:
      | {
          userId: string;
          user: { name: string };
          exScore: number;
          bpi: number | null;
          clearLamp: string;
          missCount: number | null;
          playedAt: string;
        }[]
      | null;
    bestOn: { exScore: number; bpi: number | null; clearLamp: string | null } | null;
  } | null;
}

/** MCP tool chart_rivals. */
export const McpChartRivals = fixedDocument<McpChartRivalsData, { chartId: string; version: string }>(
  'McpChartRivals',
  /* GraphQL */ `
    query McpChartRivals($chartId: ID!, $version: GameVersion) {
      chart(id: $chartId) {
        ...McpChart
        notes
      }
      me {
        followingScoresOn(chartId: $chartId, version: $version) {
          userId
          user {
            name
          }
          exScore
          bpi
          clearLamp
          missCount
          playedAt
        }
        bestOn(chartId: $chartId, version: $version) {
          exScore
          bpi
          clearLamp
        }
      }
    }
    ${MCP_CHART}
  `,
);
