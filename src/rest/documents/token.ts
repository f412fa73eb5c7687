import { fixedDocument } from '../../graphql/documents';

/** POST /api/v1/token (src/rest/token.ts): the API key comes from the request's X-API-Key header. */
export const RestExchangeApiKey = fixedDocument<{ exchangeApiKey: { token: string; expiresIn: number } }>(
  'RestExchangeApiKey',
  /* GraphQL */ `
    mutation RestExchangeApiKey {
      exchangeApiKey {
        token
        expiresIn
      }
    }
  `,
);
