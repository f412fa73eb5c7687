import { fixedDocument } from '../../graphql/documents';

interface McpScoreList {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: {
    node: {
      chartId: number;
      title: string;
      chart: { playStyle: string } | null;
      difficulty: string;
      level: number;
      notes: number | null;
      exScore: number;
      bpi: number | null;
      clearLamp: string | null;
      missCount: number | null;
      playedAt: string;
    };
  }[];
}
export interface McpPlayerScores {
  databaseId: string;
  name: string;
  scores: McpScoreList | null;
}

/** The filters, sort and paging of User.scores the tools pass on. */
export interface McpScoresVariables extends Record<string, unknown> {
  version?: string;
  levels?: number[];
  difficulties?: string[];
  clearLamps?: string[];
  bpiMin?: number;
  bpiMax?: number;
  search?: string;
  radarCategories?: string[];
  sort?: string;
  order?: string;
  first?: number;
  after?: string;
}

const VARIABLES = `$version: GameVersion, $levels: [Int!], $difficulties: [Difficulty!], $clearLamps: [ClearLamp!],
  $bpiMin: Float, $bpiMax: Float, $search: String, $radarCategories: [RadarCategory!], $sort: ScoreSortKey,
  $order: SortOrder, $first: Int, $after: String`;

const PLAYER_SCORES = `
  databaseId
  name
  scores(version: $version, levels: $levels, difficulties: $difficulties, clearLamps: $clearLamps, bpiMin: $bpiMin,
    bpiMax: $bpiMax, search: $search, radarCategories: $radarCategories, sort: $sort, order: $order, first: $first,
    after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges {
      node { chartId title chart { playStyle } difficulty level notes exScore bpi clearLamp missCount playedAt }
    }
  }`;

/** MCP tool my_scores. */
export const McpMyScores = fixedDocument<{ me: McpPlayerScores | null }, McpScoresVariables>(
  'McpMyScores',
  `query McpMyScores(${VARIABLES}) { me { ${PLAYER_SCORES} } }`,
);

/** MCP tool user_scores, the player by id (rule Query.user: VISIBLE). */
export const McpUserScoresById = fixedDocument<
  { user: McpPlayerScores | null },
  McpScoresVariables & { userId: string }
>(
  'McpUserScoresById',
  `query McpUserScoresById($userId: ID!, ${VARIABLES}) { user(id: $userId) { ${PLAYER_SCORES} } }`,
);

/** MCP tool user_scores, the player by name (rule Query.userByName: VISIBLE). */
export const McpUserScoresByName = fixedDocument<
  { userByName: McpPlayerScores | null },
  McpScoresVariables & { name: string }
>(
  'McpUserScoresByName',
  `query McpUserScoresByName($name: String!, ${VARIABLES}) { userByName(name: $name) { ${PLAYER_SCORES} } }`,
);
