import { fixedDocument } from '../../graphql/documents';

type Histogram = { total: number; buckets: { label: string; count: number }[] };
interface McpDashboardData {
  me: {
    databaseId: string;
    name: string;
    dashboard: {
      version: string;
      totalBpi: { totalBpi: number; estimatedRank: number; playedCount: number; chartCount: number };
      bpiDistribution: Histogram;
      djRankDistribution: Histogram;
    } | null;
  } | null;
}

/** MCP tool my_dashboard (src/rest/mcp-tools-player.ts). */
export const McpMyDashboard = fixedDocument<
  McpDashboardData,
  { version?: string; levels?: number[]; difficulties?: string[] }
>(
  'McpMyDashboard',
  /* GraphQL */ `
    query McpMyDashboard($version: GameVersion, $levels: [Int!], $difficulties: [Difficulty!]) {
      me {
        databaseId
        name
        dashboard(version: $version, levels: $levels, difficulties: $difficulties) {
          version
          totalBpi {
            totalBpi
            estimatedRank
            playedCount
            chartCount
          }
          bpiDistribution(step: 10) {
            total
            buckets {
              label
              count
            }
          }
          djRankDistribution {
            total
            buckets {
              label
              count
            }
          }
        }
      }
    }
  `,
);
