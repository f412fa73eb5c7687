import { fixedDocument } from '../../graphql/documents';

interface McpChartRivalsData {
  chart: {
    databaseId: number;
    playStyle: string;
    difficulty: string;
    level: number;
    notes: number | null;
    song: { title: string };
  } | null;
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
        databaseId
        playStyle
        difficulty
        level
        notes
        song {
          title
        }
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
  `,
);
