import type { FixedDocument } from '../../graphql/documents';
import { RestBpiCalc } from './bpi-calc';
import { RestRecentNotes } from './recent-notes';
import { RestRecommended } from './recommended';
import { RestProfile } from './profile';
import { RestExchangeApiKey } from './token';
import { RestChartSvg } from './chart-svg';

/**
 * Every fixed GraphQL document of the REST routes and MCP tools: compiled and validated against the
 * schema when the server starts (src/http.ts) and by test/unit/rest-documents.test.ts.
 */
export const FIXED_DOCUMENTS: readonly FixedDocument[] = [RestBpiCalc, RestRecentNotes, RestRecommended, RestProfile, RestExchangeApiKey, RestChartSvg];
