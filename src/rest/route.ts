import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app';
import { contextForRequest, type Context } from '../graphql/context';
import { documentsOf, type DirectDocument, type FixedDocument } from '../graphql/documents';
import { sendAtTurnEnd } from '../answer-batch';
import { sendRestError } from './errors';
import { ErrorBody, errorDocs, refuseOtherMethods, routeSchema, type RouteDoc } from './openapi';

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
  const responses = { 200: { description: 'OK', body: response }, ...errorDocs({ ...ROUTE_ERRORS, ...errors }) };
  refuseOtherMethods(fastify, route.url);
  // The route's compiled document, found on its first request (the server compiles the documents
  // after the routes are declared) and then called directly: no lookup per request.
  let run: DirectDocument<D, V> | undefined;
  // (written with the turn's other answers: src/answer-batch.ts)
  const answer = (reply: FastifyReply, data: D, params: P): FastifyReply => {
    sendAtTurnEnd(reply, 200, 'application/json; charset=utf-8', JSON.stringify(route.map(data, params)));
    return reply;
  };
  const respond = (ctx: Context, req: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> => {
    const params = route.parse(req);
    run ??= documentsOf(app).prepareDirect(route.document);
    const data = run(ctx, route.variables(params));
    return data instanceof Promise ? data.then((d) => answer(reply, d, params)) : answer(reply, data, params);
  };
  fastify.route({
    method: 'GET',
    url: route.url,
    ...routeSchema({ ...doc, tags: ['compatibility'], bearer: 'optional', responses, errors: ErrorBody }),
    // Not async: an anonymous caller's context is built synchronously and a document whose
    // resolvers answer synchronously (the calculator) needs no promise — the answer is handed to
    // sendAtTurnEnd before the handler returns (undefined); otherwise a promise of the reply (a
    // thenable: Fastify waits for it to be sent).
    handler: (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined => {
      let sent: FastifyReply | Promise<FastifyReply>;
      try {
        const pending = contextForRequest(app, req);
        sent =
          pending instanceof Promise ? pending.then((ctx) => respond(ctx, req, reply)) : respond(pending, req, reply);
      } catch (err) {
        sendRestError(reply, err, app.log);
        return undefined;
      }
      return sent instanceof Promise ? sent.catch((err: unknown) => sendRestError(reply, err, app.log)) : undefined;
    },
  });
}

/**
 * Registers a GET route that answers with something other than JSON (a picture, a download):
 * other methods → 405 with Allow; the context built as for GraphQL; an error thrown before
 * anything is sent → the JSON error body, as text (sendRestError `asText`).
 */
export function fileRoute(
  fastify: FastifyInstance,
  app: App,
  url: string,
  doc: RouteDoc,
  run: (ctx: Context, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  refuseOtherMethods(fastify, url);
  fastify.route({
    method: 'GET',
    url,
    ...routeSchema(doc),
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      try {
        return await run(await contextForRequest(app, req), req, reply);
      } catch (err) {
        return sendRestError(reply, err, app.log, true);
      }
    },
  });
}

/**
 * Answers a cacheable GET (a picture): ETag, Cache-Control, `Vary: Authorization` (the answer
 * depends on the viewer), nosniff and `headers`; then 304 without a body when If-None-Match names
 * the ETag (strong or weak), else `answer()` — the 200 with its content type and body, made only then.
 */
export function sendCacheable(
  req: FastifyRequest,
  reply: FastifyReply,
  cache: { etag: string; cacheControl: string; headers?: Record<string, string> },
  answer: () => FastifyReply | Promise<FastifyReply>,
): FastifyReply | Promise<FastifyReply> {
  const { etag } = cache;
  reply
    .header('etag', etag)
    .header('cache-control', cache.cacheControl)
    .header('vary', 'Authorization')
    .header('x-content-type-options', 'nosniff')
    .headers(cache.headers ?? {});
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string' && inm.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`))
    return reply.code(304).send();
  return answer();
}
