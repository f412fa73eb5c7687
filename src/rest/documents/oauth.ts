import { fixedDocument } from '../../graphql/documents';

/**
 * GET /api/oauth/authorize (the consent page) and POST /api/oauth/authorize/consent with a bearer
 * token (src/rest/oauth.ts): the signed-in user, first party only (the rule of Query.oauthConsentUser);
 * the page shows the name.
 */
export const RestOAuthConsentUser = fixedDocument<{ oauthConsentUser: { name: string } | null }>(
  'RestOAuthConsentUser',
  /* GraphQL */ `
    query RestOAuthConsentUser {
      oauthConsentUser {
        name
      }
    }
  `,
);
