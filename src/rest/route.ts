import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app';
import { contextForRequest, type Context } from '../graphql/context';
import { enforce } from '../graphql/rules';
import { restError } from './errors';
import { ErrorBody, HIDDEN, routeSchema, type RouteDoc } from './openapi';

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
  /** The route in the OpenAPI document (src/rest/openapi.ts): parameters and the 200 body as zod schemas. */
  doc: Omit<RouteDoc, 'errors' | 'tags' | 'responses'> & { response: RouteDoc['responses'][number]['body']; errors?: Record<number, string> };
}

/** The errors every compatibility route may answer (`{message, errors?}`). */
const ROUTE_ERRORS: Record<number, string> = {
  400: 'Invalid parameters',
  401: 'Invalid or expired bearer token',
  429: 'Rate limited (Retry-After)',
};

/**
 * Registers a GET route: other methods → 405 with Allow; the context built as for GraphQL (the
 * viewer from the bearer token); errors through the one REST error mapping.
 */
export function getRoute<P>(fastify: FastifyInstance, app: App, route: RestRoute<P>): void {
  const { response, errors, ...doc } = route.doc;
  const responses: RouteDoc['responses'] = { 200: { description: 'OK', body: response } };
  for (const [status, description] of Object.entries({ ...ROUTE_ERRORS, ...errors })) responses[Number(status)] = { description, body: ErrorBody };
  fastify.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: route.url,
    ...HIDDEN,
    handler: async (_req: FastifyRequest, reply: FastifyReply) => reply.code(405).header('allow', 'GET').send({ message: 'Method not allowed' }),
  });
  fastify.route({
    method: 'GET',
    url: route.url,
    ...routeSchema({ ...doc, tags: ['compatibility'], bearer: 'optional', responses, errors: ErrorBody }),
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
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
