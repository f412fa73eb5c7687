import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackOrigin, type Config } from './config';
import type { Logger } from './logger';

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

/** Refused origins logged per process: each once, up to this many (then one line saying so). */
const MAX_LOGGED_ORIGINS = 100;

/** What to set so that `origin` is allowed, keeping what is allowed now. */
function settingFor(origin: string, cors: Config['cors']): string {
  if (cors.setting === undefined || cors.setting.trim().toLowerCase() === 'none') return `CORS_ORIGINS=${origin}`;
  return `CORS_ORIGINS=${cors.setting
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .join(',')},${origin}`;
}

/**
 * CORS for browser pages on other origins (CORS_ORIGINS), on every path: /graphql, the REST
 * compatibility paths, OAuth, health. A preflight (OPTIONS with Origin and
 * Access-Control-Request-Method) is answered here: 204 with the allowed methods and headers when
 * the origin is allowed, 403 `{message}` when it is not. Other requests from an allowed origin
 * get Access-Control-Allow-Origin; from any other origin no CORS header, so the browser keeps the
 * response from the page. Outside production every loopback origin is allowed by default (a dev
 * server on any port). When no origin is allowed (production default) requests behave as without
 * CORS. A refused cross-origin page is logged once per origin with the setting that would allow it
 * (the browser shows the page only a CORS error, never our body).
 *
 * Apollo's CSRF prevention is unchanged: a simple request (GET or form POST without a
 * non-simple header) is still refused by /graphql, whatever its origin.
 */
export function registerCors(fastify: FastifyInstance, config: Pick<Config, 'cors'>, log?: Logger): void {
  const cors = corsCheck(config, log);
  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!cors(req, reply)) done();
  });
}

/** Whether any cross-origin page is allowed (CORS_ORIGINS, or loopback origins outside production). */
function corsEnabled(cors: Config['cors']): boolean {
  return cors.origins === '*' || cors.origins.length > 0 || cors.loopback;
}

/**
 * Whether every answer carries `Vary: Origin` (the allowed origin is echoed back: CORS on, and not
 * `*`) — with or without an Origin header on the request.
 */
export function variesByOrigin(cors: Config['cors']): boolean {
  return corsEnabled(cors) && cors.origins !== '*';
}

/**
 * The CORS step of a request, for src/http.ts's one onRequest hook (registerCors registers it as
 * a hook of its own): true when it answered the request (a preflight), false when the request
 * goes on. Everything that depends only on the configuration is worked out here, once.
 */
export function corsCheck(
  config: Pick<Config, 'cors'>,
  log?: Logger,
): (req: FastifyRequest, reply: FastifyReply) => boolean {
  const { origins, allowCredentials, loopback } = config.cors;
  const any = origins === '*';
  const allowed = new Set(any ? [] : origins);
  const enabled = corsEnabled(config.cors);
  const logged = new Set<string>();
  const noteRefused = (origin: string, host: string | undefined) => {
    if (!log || logged.has(origin) || logged.size > MAX_LOGGED_ORIGINS) return;
    if (URL.canParse(origin) && new URL(origin).host === host) return; // same origin: CORS does not apply
    logged.add(origin);
    if (logged.size > MAX_LOGGED_ORIGINS) {
      log.warn(`CORS: more than ${MAX_LOGGED_ORIGINS} refused origins; no longer logging them`);
      return;
    }
    log.warn(
      { origin, allowWith: settingFor(origin, config.cors) },
      `CORS: refused a page on ${origin}; to allow it set ${settingFor(origin, config.cors)}`,
    );
  };

  const vary = variesByOrigin(config.cors);
  return (req, reply) => {
    // The answer depends on the Origin header whenever the allowed origin is echoed back.
    if (vary) reply.header('vary', 'Origin');
    const origin = req.headers.origin;
    if (origin === undefined) return false; // same-origin navigation, server-to-server
    const ok = enabled && (any || allowed.has(origin) || (loopback && isLoopbackOrigin(origin)));
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!ok) {
      noteRefused(origin, req.headers.host);
      if (!enabled || !preflight) return false;
      reply.code(403).send({ message: `Origin ${origin} is not allowed (CORS_ORIGINS)` });
      return true;
    }
    reply.header('access-control-allow-origin', any ? '*' : origin);
    if (allowCredentials) reply.header('access-control-allow-credentials', 'true');
    if (!preflight) {
      reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
      return false;
    }
    reply
      .code(204)
      .header('access-control-allow-methods', CORS_METHODS)
      .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
      .header('access-control-max-age', String(CORS_MAX_AGE))
      .send();
    return true;
  };
}
