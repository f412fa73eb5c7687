/** The chart an MCP tool names in its answer (chart_rivals, update_my_score): fragment McpChart on Chart. */
export interface McpChartData {
  databaseId: number;
  playStyle: string;
  difficulty: string;
  level: number;
  song: { title: string };
}

/** Appended to a document that spreads `...McpChart`. */
export const MCP_CHART = /* GraphQL */ `
  fragment McpChart on Chart {
    databaseId
    playStyle
    difficulty
    level
    song {
      title
    }
  }
`;
