import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app';
import { contextForRequest, type Context } from '../graphql/context';
import { restError } from './errors';
import { registerOAuth } from './oauth';
import { registerTokenRoute } from './token';
import { registerBpiCalc } from './bpicalc';
import { registerProfile } from './profile';
import { registerRecentNotes } from './notes';
import { registerRecommended } from './recommended';

export type RestHandler = (ctx: Context, req: FastifyRequest) => Promise<unknown>;

/**
 * Registers one compatibility route: GET only (other methods → 405 with Allow), context built
 * as for GraphQL, errors through the one REST error mapping. Handlers call resolver methods.
 */
export function getRoute(fastify: FastifyInstance, app: App, url: string, handler: RestHandler): void {
  fastify.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return reply.code(405).header('allow', 'GET').send({ message: 'Method not allowed' });
      }
      try {
        const ctx = await contextForRequest(app, req); // the viewer from the bearer token, as for GraphQL
        const result = await handler(ctx, req);
        return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(result));
      } catch (err) {
        const { status, body, headers } = restError(err, app.log);
        return reply.code(status).headers(headers ?? {}).send(body);
      }
    },
  });
}

/** The four compatibility routes live under /api/v1 (added by their areas). */
export function registerRest(fastify: FastifyInstance, app: App): void {
  registerBpiCalc(fastify, app);
  registerTokenRoute(fastify, app);
  registerOAuth(fastify, app);
  registerRecommended(fastify, app);
  registerProfile(fastify, app);
  registerRecentNotes(fastify, app);
}
