import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { App } from '../app';
import { publicBaseUrl } from '../config';
import { z } from 'zod';
import { HIDDEN, OAuthErrorBody, routeSchema } from './openapi';
import { AppError, HTTP_STATUS, toAppError } from '../errors';
import { RATE_LIMITS } from '../ratelimit';
import { OAuthError, OAuthService } from '../modules/auth/oauth.service';
import { bodyOf, registerConsent, type OAuthRoute } from './oauth-consent';

/**
 * OAuth 2.0 authorization server endpoints (logic in src/modules/auth/oauth.service.ts):
 *  GET  /.well-known/oauth-authorization-server   RFC 8414 metadata (also /api/oauth/authorization-server-metadata)
 *  GET  /.well-known/oauth-protected-resource     RFC 9728 metadata of /graphql
 *  GET  /.well-known/oauth-protected-resource/mcp RFC 9728 metadata of /mcp (the MCP endpoint)
 *  GET  /.well-known/jwks.json                    RFC 7517 public keys of our access tokens (docs/cluster-keys.md)
 *  POST /api/oauth/register                       RFC 7591 dynamic registration (public clients; 20/min/IP)
 *  GET  /api/oauth/client?client_id=              client name + redirect hosts for a consent screen (60/min/IP)
 *  GET  /api/oauth/authorize                      consent page for the signed-in user (Bearer token)
 *  POST /api/oauth/authorize/consent              the decision → redirect URL with code (or access_denied)
 *  POST /api/oauth/token                          authorization_code + PKCE, refresh_token (30/min/IP)
 *  POST /api/oauth/revoke                         RFC 7009 token revocation (shares the token endpoint's limit)
 * Errors are RFC 6749 bodies `{ error, error_description }`. JSON and form-urlencoded bodies. The two
 * consent endpoints (the page and the decision) are in src/rest/oauth-consent.ts.
 */

/** Maps any failure of an OAuth endpoint to an RFC 6749 error body. */
function oauthFailure(
  err: unknown,
  app: App,
): { status: number; body: Record<string, string>; headers: Record<string, string> } {
  if (err instanceof OAuthError) {
    const headers: Record<string, string> = {};
    if (err.status === 401) headers['www-authenticate'] = 'Basic realm="bpigraph oauth"';
    return { status: err.status, body: err.body(), headers };
  }
  const e = toAppError(err);
  if (!(err instanceof AppError) && e.code === 'INTERNAL_SERVER_ERROR')
    app.log.error({ err }, 'unhandled error in OAuth endpoint');
  const headers: Record<string, string> = {};
  if (e.details?.retryAfter !== undefined) headers['retry-after'] = String(e.details.retryAfter);
  const error =
    {
      UNAUTHENTICATED: 'login_required',
      FORBIDDEN: 'access_denied',
      BAD_USER_INPUT: 'invalid_request',
      NOT_FOUND: 'invalid_request',
      RATE_LIMITED: 'too_many_requests',
      SERVICE_UNAVAILABLE: 'temporarily_unavailable',
    }[e.code as string] ?? 'server_error';
  const description = e.code === 'INTERNAL_SERVER_ERROR' ? 'Internal server error' : e.message;
  if (e.code === 'UNAUTHENTICATED') headers['www-authenticate'] = 'Bearer';
  return { status: HTTP_STATUS[e.code], body: { error, error_description: description }, headers };
}

const AuthServerMetadata = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    revocation_endpoint: z.string(),
  })
  .loose();
const ResourceMetadata = z.object({ resource: z.string(), authorization_servers: z.array(z.string()) }).loose();

export function registerOAuth(fastify: FastifyInstance, app: App): void {
  const oauth = new OAuthService(app.db);
  // Security metadata (issuer, endpoints) comes from PUBLIC_URL (required in production); without it
  // from the request's Host only when that is a loopback name, else http://localhost:<listening port>
  // (publicBaseUrl). X-Forwarded-* and other hosts are never used.
  const base = (req: FastifyRequest) =>
    publicBaseUrl(
      app.config,
      (fastify.server.address() as { port: number } | null)?.port ?? app.config.port,
      req.headers.host,
    );
  const ip = (req: FastifyRequest) => req.ip || 'unknown';

  fastify.register(async (scope) => {
    // RFC 6749 requires application/x-www-form-urlencoded at the token endpoint.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    /** One route: allowed methods, else 405 `{error}` with Allow; failures as RFC 6749 bodies. */
    const route: OAuthRoute = (methods, urls, doc, handler) => {
      const others = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter(
        (m) => !methods.includes(m as 'GET') && !(m === 'HEAD' && methods.includes('GET')),
      );
      for (const url of urls) {
        scope.route({
          method: others,
          url,
          ...HIDDEN,
          handler: async (_req, reply) =>
            reply
              .code(405)
              .header('allow', methods.join(', '))
              .send({ error: 'invalid_request', error_description: 'Method not allowed' }),
        });
        scope.route({
          method: methods,
          url,
          ...routeSchema({ ...doc, tags: ['oauth'], errors: OAuthErrorBody }),
          handler: async (req, reply) => {
            try {
              return await handler(req, reply);
            } catch (err) {
              const { status, body, headers } = oauthFailure(err, app);
              return reply
                .code(status)
                .headers({ ...headers, 'cache-control': 'no-store' })
                .send(body);
            }
          },
        });
      }
    };

    route(
      ['GET'],
      ['/.well-known/oauth-authorization-server', '/api/oauth/authorization-server-metadata'],
      {
        summary: 'RFC 8414 authorization server metadata',
        responses: { 200: { description: 'Metadata', body: AuthServerMetadata } },
      },
      async (req) => oauth.metadata(base(req)),
    );
    route(
      ['GET'],
      ['/.well-known/oauth-protected-resource', '/api/oauth/protected-resource-metadata'],
      {
        summary: 'RFC 9728 protected resource metadata (of /graphql)',
        responses: { 200: { description: 'Metadata', body: ResourceMetadata } },
      },
      async (req) => oauth.protectedResourceMetadata(base(req)),
    );
    // RFC 9728 §3.1: the document of the MCP endpoint (src/rest/mcp.ts), named by its 401 challenge.
    route(
      ['GET'],
      ['/.well-known/oauth-protected-resource/mcp'],
      {
        summary: 'RFC 9728 protected resource metadata of /mcp (the MCP endpoint)',
        responses: { 200: { description: 'Metadata', body: ResourceMetadata } },
      },
      async (req) => oauth.protectedResourceMetadata(base(req), '/mcp'),
    );

    // RFC 7517: the public keys of our ES256 access tokens (PostgreSQL: keys in the database,
    // the previous ones listed until their tokens expire); empty with a shared secret (HS256).
    const Jwks = z.object({
      keys: z.array(z.object({ kty: z.string(), kid: z.string(), alg: z.string(), use: z.string() }).loose()),
    });
    route(
      ['GET'],
      ['/.well-known/jwks.json'],
      {
        summary: 'RFC 7517 JSON Web Key Set: the public keys of the live access-token keys',
        responses: { 200: { description: 'Key set', body: Jwks } },
      },
      async (_req, reply) =>
        reply.header('cache-control', 'public, max-age=60').send({ keys: app.auth.keys.publicKeys() }),
    );

    route(
      ['POST'],
      ['/api/oauth/register'],
      {
        summary: 'RFC 7591 dynamic client registration (public clients, 20/min per address)',
        body: z
          .object({
            redirect_uris: z.array(z.string()),
            client_name: z.string().optional(),
            token_endpoint_auth_method: z.literal('none').optional(),
          })
          .loose(),
        responses: {
          201: {
            description: 'The registered client',
            body: z.object({ client_id: z.string(), redirect_uris: z.array(z.string()) }).loose(),
          },
        },
      },
      async (req, reply) => {
        await app.rateLimiter.consume(RATE_LIMITS.oauthRegister, ip(req));
        return reply
          .code(201)
          .header('cache-control', 'no-store')
          .send(await oauth.register(bodyOf(req)));
      },
    );

    route(
      ['GET'],
      ['/api/oauth/client'],
      {
        summary: 'A client’s name and redirect hosts, for a consent screen (60/min per address)',
        query: z.object({ client_id: z.string() }),
        responses: {
          200: {
            description: 'The client',
            body: z.object({ clientName: z.string().nullable(), redirectHosts: z.array(z.string()) }),
          },
        },
      },
      async (req) => {
        await app.rateLimiter.consume(RATE_LIMITS.oauthClient, ip(req));
        return oauth.clientInfo((req.query as Record<string, string | undefined>).client_id);
      },
    );

    registerConsent(route, app, oauth);

    route(
      ['POST'],
      ['/api/oauth/token'],
      {
        summary: 'Token endpoint: authorization_code with PKCE, refresh_token (30/min per address)',
        body: z
          .object({
            grant_type: z.enum(['authorization_code', 'refresh_token']),
            code: z.string().optional(),
            redirect_uri: z.string().optional(),
            client_id: z.string().optional(),
            code_verifier: z.string().optional(),
            refresh_token: z.string().optional(),
            scope: z.string().optional(),
          })
          .loose(),
        responses: {
          200: {
            description: 'Tokens',
            body: z
              .object({
                access_token: z.string(),
                token_type: z.string(),
                expires_in: z.number().int(),
                refresh_token: z.string().optional(),
                scope: z.string().optional(),
              })
              .loose(),
          },
        },
      },
      async (req, reply) => {
        await app.rateLimiter.consume(RATE_LIMITS.oauthToken, ip(req));
        const body = bodyOf(req);
        const result = await oauth.tokens.token(body, req.headers.authorization);
        oauth.purgeExpired().catch((err) => app.log.warn({ err }, 'purging expired OAuth codes and tokens failed'));
        return reply.code(200).headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(result);
      },
    );

    route(
      ['POST'],
      ['/api/oauth/revoke'],
      {
        summary: 'RFC 7009 token revocation (always 200 for a known client)',
        body: z
          .object({ token: z.string(), token_type_hint: z.string().optional(), client_id: z.string().optional() })
          .loose(),
        responses: { 200: { description: 'Revoked (or unknown token)', body: z.object({}) } },
      },
      async (req, reply) => {
        await app.rateLimiter.consume(RATE_LIMITS.oauthToken, ip(req));
        const body = bodyOf(req);
        await oauth.tokens.revoke(body, req.headers.authorization);
        return reply.code(200).header('cache-control', 'no-store').send({});
      },
    );

    scope.addHook('onClose', async () => {
      await app.rateLimiter.close();
    });
  });
}
