import type { FixedDocument } from '../../graphql/documents';
import { RestBpiCalc } from './bpi-calc';
import { RestRecentNotes } from './recent-notes';
import { RestRecommended } from './recommended';
import { RestProfile } from './profile';
import { RestExchangeApiKey } from './token';
import { RestOAuthConsentUser } from './oauth';
import { RestChartSvg } from './chart-svg';
import { RestBatchCard, RestProfileCard } from './cards';
import { RestAccountExport, RestScoresExport } from './export';
import { RestProfileImage, RestProfileImageOwner } from './profile-image';
import { McpMyDashboard } from './mcp-dashboard';
import { McpMyScores, McpUserScoresById, McpUserScoresByName } from './mcp-scores';
import { McpMyFollows } from './mcp-follows';
import { McpChartRivals } from './mcp-chart-rivals';
import { McpSearchSongs, McpSearchUsers } from './mcp-search';
import { McpImportScore, McpMyBest } from './mcp-update-score';

/**
 * Every fixed GraphQL document of the REST routes and MCP tools: compiled and validated against the
 * schema when the server starts (src/http.ts) and by test/unit/rest-documents.test.ts.
 */
export const FIXED_DOCUMENTS: readonly FixedDocument[] = [
  RestBpiCalc,
  RestRecentNotes,
  RestRecommended,
  RestProfile,
  RestExchangeApiKey,
  RestOAuthConsentUser,
  RestChartSvg,
  RestProfileCard,
  RestBatchCard,
  RestScoresExport,
  RestAccountExport,
  RestProfileImageOwner,
  RestProfileImage,
  McpMyDashboard,
  McpMyScores,
  McpUserScoresById,
  McpUserScoresByName,
  McpMyFollows,
  McpChartRivals,
  McpSearchSongs,
  McpSearchUsers,
  McpMyBest,
  McpImportScore,
];
