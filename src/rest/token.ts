import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app';
import { contextForRequest } from '../graphql/context';
import { documentsOf } from '../graphql/documents';
import { RestExchangeApiKey } from './documents/token';
import { z } from 'zod';
import { sendRestError } from './errors';
import { ErrorBody, refuseOtherMethods, routeSchema } from './openapi';

/**
 * POST /api/v1/token — exchange the API key in the X-API-Key header for an access token:
 * 200 `{ token, expiresIn }`; 401 `{message}` for a missing or unknown key; 429 + Retry-After past
 * 20 requests per minute per IP: the GraphQL exchangeApiKey (document RestExchangeApiKey).
 */
export function registerTokenRoute(fastify: FastifyInstance, app: App): void {
  refuseOtherMethods(fastify, '/api/v1/token', 'POST');
  fastify.route({
    method: 'POST',
    url: '/api/v1/token',
    ...routeSchema({
      summary: 'Exchange an API key (X-API-Key header) for an access token',
      tags: ['auth'],
      apiKey: true,
      responses: {
        200: {
          description: 'An access token (Bearer) and its lifetime in seconds',
          body: z.object({ token: z.string(), expiresIn: z.number().int() }),
        },
        401: { description: 'Missing or unknown API key', body: ErrorBody },
        405: { description: 'Method not allowed (Allow: POST)', body: ErrorBody },
        429: { description: 'More than 20 requests per minute from this address (Retry-After)', body: ErrorBody },
      },
      errors: ErrorBody,
    }),
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      try {
        const ctx = await contextForRequest(app, req);
        const { exchangeApiKey: result } = await documentsOf(app).run(RestExchangeApiKey, ctx, {});
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .send({ token: result.token, expiresIn: result.expiresIn });
      } catch (err) {
        return sendRestError(reply, err, app.log);
      }
    },
  });
}
