import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app';
import { contextForRequest, type Context } from '../graphql/context';
import { enforce } from '../graphql/rules';
import { restError } from './errors';

/**
 * One compatibility route, in the shape of an operation: parse the request (bad input → 400),
 * the route's rule from the one table (src/graphql/rules.ts), one service call, mapped to the
 * reference's JSON.
 */
export interface RestRoute<P> {
  url: string;
  /** The entry of the rule table (`REST.recommended`, or the GraphQL operation it mirrors: `Query.user`). */
  rule: string;
  /** The request's parameters; throws BAD_USER_INPUT (400) before the rule is asked, as the reference. */
  parse: (req: FastifyRequest) => P;
  /** The rule's arguments (OWNER / VISIBLE: the target user) from the parsed parameters. */
  ruleArgs?: (params: P) => Record<string, unknown>;
  /** The service call and the mapping to the response body. */
  handle: (ctx: Context, params: P) => Promise<unknown>;
}

/**
 * Registers a GET route: other methods → 405 with Allow; the context built as for GraphQL (the
 * viewer from the bearer token); errors through the one REST error mapping.
 */
export function getRoute<P>(fastify: FastifyInstance, app: App, route: RestRoute<P>): void {
  fastify.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: route.url,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return reply.code(405).header('allow', 'GET').send({ message: 'Method not allowed' });
      }
      try {
        const ctx = await contextForRequest(app, req);
        const params = route.parse(req);
        const gate = enforce(ctx, route.rule, route.ruleArgs?.(params) ?? {}, 'read');
        if (gate) await gate;
        const result = await route.handle(ctx, params);
        return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(result));
      } catch (err) {
        const { status, body, headers } = restError(err, app.log);
        return reply.code(status).headers(headers ?? {}).send(body);
      }
    },
  });
}
