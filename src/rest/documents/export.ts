import { fixedDocument } from '../../graphql/documents';

/**
 * GET /api/v1/users/{userId}/scores/export (src/rest/export.ts): the download's gate — the owner, or
 * an administrator with their own token (rule Query.scoresExportUser, OWNER). The file itself is
 * streamed from the export service: an answer of thousands of rows is no GraphQL response.
 */
export const RestScoresExport = fixedDocument<{ scoresExportUser: { databaseId: string } | null }, { userId: string }>(
  'RestScoresExport',
  /* GraphQL */ `
    query RestScoresExport($userId: ID!) {
      scoresExportUser(userId: $userId) {
        databaseId
      }
    }
  `,
);

/**
 * GET /api/v1/me/export (src/rest/export.ts): the caller, first party only (rule
 * Query.accountExportUser); null when the account no longer exists (404 before the first byte).
 */
export const RestAccountExport = fixedDocument<{ accountExportUser: { databaseId: string } | null }>(
  'RestAccountExport',
  /* GraphQL */ `
    query RestAccountExport {
      accountExportUser {
        databaseId
      }
    }
  `,
);
