import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config';

/** Methods a cross-origin page may use (GraphQL GET/POST, the REST paths, OAuth). */
export const CORS_METHODS = 'GET, POST';

/**
 * Request headers a cross-origin page may send: the bearer token, JSON bodies, Apollo's CSRF
 * headers (apollo-require-preflight / x-apollo-operation-name) and client-awareness headers, and
 * the API key of POST /api/v1/token, and the protocol version header of MCP clients (/mcp).
 */
export const CORS_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'apollographql-client-name',
  'apollographql-client-version',
  'x-api-key',
  'mcp-protocol-version',
].join(', ');

/** Response headers a cross-origin page may read besides the safelisted ones (429 → Retry-After; 401 of /mcp → WWW-Authenticate). */
export const CORS_EXPOSED_HEADERS = 'retry-after, www-authenticate';

/** How long a browser may reuse a preflight answer (seconds; Chromium caps it at 7200). */
export const CORS_MAX_AGE = 600;

/** Adds `value` to the response's Vary header (keeping what is there). */
export function appendVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') {
    reply.header('vary', value);
    return;
  }
  const list = String(current);
  if (list === '*' || list.split(',').some((v) => v.trim().toLowerCase() === value.toLowerCase())) return;
  reply.header('vary', `${list}, ${value}`);
}

/**
 * CORS for browser pages on other origins (CORS_ORIGINS), on every path: /graphql, the REST
 * compatibility paths, OAuth, health. A preflight (OPTIONS with Origin and
 * Access-Control-Request-Method) is answered here: 204 with the allowed methods and headers when
 * the origin is allowed, 403 `{message}` when it is not. Other requests from an allowed origin
 * get Access-Control-Allow-Origin; from any other origin no CORS header, so the browser keeps the
 * response from the page. Nothing is registered when no origin is allowed (production default):
 * every request then behaves as without CORS.
 *
 * Apollo's CSRF prevention is unchanged: a simple request (GET or form POST without a
 * non-simple header) is still refused by /graphql, whatever its origin.
 */
export function registerCors(fastify: FastifyInstance, config: Pick<Config, 'cors'>): void {
  const { origins, allowCredentials } = config.cors;
  if (origins !== '*' && origins.length === 0) return;
  const any = origins === '*';
  const allowed = new Set(any ? [] : origins);

  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    // The answer depends on the Origin header whenever the allowed origin is echoed back.
    if (!any) reply.header('vary', 'Origin');
    const origin = req.headers.origin;
    if (origin === undefined) return done(); // same-origin navigation, server-to-server
    const ok = any || allowed.has(origin);
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!ok) {
      if (!preflight) return done();
      reply.code(403).send({ message: `Origin ${origin} is not allowed (CORS_ORIGINS)` });
      return;
    }
    reply.header('access-control-allow-origin', any ? '*' : origin);
    if (allowCredentials) reply.header('access-control-allow-credentials', 'true');
    if (!preflight) {
      reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
      return done();
    }
    reply
      .code(204)
      .header('access-control-allow-methods', CORS_METHODS)
      .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
      .header('access-control-max-age', String(CORS_MAX_AGE))
      .send();
  });
}
