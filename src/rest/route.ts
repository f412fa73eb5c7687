import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app';
import { contextForRequest } from '../graphql/context';
import { documentsOf, type FixedDocument, type PreparedDocument } from '../graphql/documents';
import { restError } from './errors';
import { ErrorBody, HIDDEN, routeSchema, type RouteDoc } from './openapi';

/**
 * One compatibility route: parse the request (bad input → 400), run the route's fixed GraphQL
 * document (src/rest/documents/) through the one pipeline — cost and limits, the resolvers, the
 * rule table, the loaders, the errors — and map its answer to the reference's JSON.
 */
export interface RestRoute<P, D, V extends Record<string, unknown>> {
  url: string;
  /** The request's parameters; throws BAD_USER_INPUT (400) before the document runs, as the reference. */
  parse: (req: FastifyRequest) => P;
  /** The GraphQL operation the route is (compiled at start-up). */
  document: FixedDocument<D, V>;
  /** The document's variables from the parsed parameters. */
  variables: (params: P) => V;
  /** The GraphQL answer mapped to the response body. */
  map: (data: D, params: P) => unknown;
  /** The route in the OpenAPI document (src/rest/openapi.ts): parameters and the 200 body as zod schemas. */
  doc: Omit<RouteDoc, 'errors' | 'tags' | 'responses'> & {
    response: RouteDoc['responses'][number]['body'];
    errors?: Record<number, string>;
  };
}

/** The errors every compatibility route may answer (`{message, errors?}`). */
const ROUTE_ERRORS: Record<number, string> = {
  400: 'Invalid parameters',
  401: 'Invalid or expired bearer token',
  405: 'Method not allowed (Allow: GET)',
  429: 'Rate limited (Retry-After)',
};

/**
 * Registers a GET route: other methods → 405 with Allow; the context built as for GraphQL (the
 * viewer from the bearer token); errors through the one REST error mapping.
 */
export function getRoute<P, D, V extends Record<string, unknown>>(
  fastify: FastifyInstance,
  app: App,
  route: RestRoute<P, D, V>,
): void {
  const { response, errors, ...doc } = route.doc;
  const responses: RouteDoc['responses'] = { 200: { description: 'OK', body: response } };
  for (const [status, description] of Object.entries({ ...ROUTE_ERRORS, ...errors }))
    responses[Number(status)] = { description, body: ErrorBody };
  fastify.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: route.url,
    ...HIDDEN,
    handler: async (_req: FastifyRequest, reply: FastifyReply) =>
      reply.code(405).header('allow', 'GET').send({ message: 'Method not allowed' }),
  });
  // The route's compiled document, found on its first request (the server compiles the documents
  // after the routes are declared) and then called directly: no lookup per request.
  let run: PreparedDocument<D, V> | undefined;
  fastify.route({
    method: 'GET',
    url: route.url,
    ...routeSchema({ ...doc, tags: ['compatibility'], bearer: 'optional', responses, errors: ErrorBody }),
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      try {
        // An anonymous caller's context is built synchronously: no await (no promise tick) for it.
        const pending = contextForRequest(app, req);
        const ctx = pending instanceof Promise ? await pending : pending;
        const params = route.parse(req);
        run ??= documentsOf(app).prepare(route.document);
        const data = await run(ctx, route.variables(params));
        const result = route.map(data, params);
        return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(result));
      } catch (err) {
        const { status, body, headers } = restError(err, app.log);
        return reply
          .code(status)
          .headers(headers ?? {})
          .send(body);
      }
    },
  });
}
