import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app';
import { publicBaseUrl } from '../config';
import { z } from 'zod';
import { HIDDEN, OAuthErrorBody, routeSchema, type RouteDoc } from './openapi';
import { AppError, HTTP_STATUS, toAppError } from '../errors';
import { contextForRequest, type Context } from '../graphql/context';
import { documentsOf } from '../graphql/documents';
import { RestOAuthConsentUser } from './documents/oauth';
import { RATE_LIMITS } from '../ratelimit';
import {
  CONSENT_TICKET_TTL_SECONDS,
  OAuthError,
  OAuthService,
  withQuery,
  type AuthorizationRequest,
} from '../modules/auth/oauth.service';

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
 * Errors are RFC 6749 bodies `{ error, error_description }`. JSON and form-urlencoded bodies.
 */

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem}code{background:#eee;padding:0 .2rem}</style>
</head><body>${body}</body></html>`;
}

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

const AuthorizeQuery = z
  .object({
    response_type: z.literal('code').optional(),
    client_id: z.string(),
    redirect_uri: z.string(),
    code_challenge: z.string(),
    code_challenge_method: z.literal('S256'),
    scope: z.string().optional(),
    state: z.string().optional(),
  })
  .loose();
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
  /** The JSON or form body as an object ({} when absent or not an object). */
  const bodyOf = (req: FastifyRequest): Record<string, unknown> =>
    req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};

  fastify.register(async (scope) => {
    // RFC 6749 requires application/x-www-form-urlencoded at the token endpoint.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    /** One route: allowed methods, else 405 `{error}` with Allow; failures as RFC 6749 bodies. */
    const route = (
      methods: ('GET' | 'POST')[],
      urls: string[],
      doc: Omit<RouteDoc, 'errors' | 'tags'>,
      handler: Handler,
    ) => {
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

    route(
      ['GET'],
      ['/api/oauth/authorize'],
      {
        summary:
          'The consent page for the signed-in user (Bearer token): HTML; invalid requests redirect to a verified redirect_uri with an error',
        query: AuthorizeQuery,
        bearer: 'required',
        responses: {
          200: { description: 'Consent page', html: true },
          302: { description: 'Redirect to the client with error (verified redirect_uri only)' },
          400: { description: 'Invalid request (page)', html: true },
          401: { description: 'Sign in required (page)', html: true },
          403: { description: 'Not allowed (page)', html: true },
        },
      },
      async (req, reply) => {
        let request: AuthorizationRequest;
        try {
          request = await oauth.validateAuthorization((req.query as Record<string, unknown>) ?? {});
        } catch (err) {
          const e = err as OAuthError;
          if (e instanceof OAuthError && e.redirect) {
            return reply.redirect(
              withQuery(e.redirect.uri, { error: e.error, error_description: e.description, state: e.redirect.state }),
              302,
            );
          }
          if (e instanceof OAuthError) {
            // Never redirect to an unverified URI: tell the user instead.
            return reply
              .code(400)
              .headers(PAGE_HEADERS)
              .send(
                page('Invalid request', `<h1>Invalid authorization request</h1><p>${escapeHtml(e.description)}</p>`),
              );
          }
          throw err;
        }
        let ctx: Context;
        let user: { name: string } | null;
        try {
          ctx = await contextForRequest(app, req);
          ({ oauthConsentUser: user } = await documentsOf(app).run(RestOAuthConsentUser, ctx, {}));
        } catch (err) {
          const e = toAppError(err);
          return reply
            .code(HTTP_STATUS[e.code])
            .headers({ ...PAGE_HEADERS, ...(e.code === 'UNAUTHENTICATED' ? { 'www-authenticate': 'Bearer' } : {}) })
            .send(
              page(
                'Sign in required',
                `<h1>Sign in required</h1><p>${escapeHtml(e.message)}.</p><p>Open this page with your access token (<code>Authorization: Bearer …</code>).</p>`,
              ),
            );
        }
        // One ticket per decision, each single-use (its id is stored with the code it approves).
        const ticketFor = (approve: boolean) =>
          app.auth.signTicket(
            'consent',
            {
              sub: ctx.viewer!.id,
              cid: request.clientId,
              ruri: request.redirectUri,
              cc: request.codeChallenge,
              scp: request.scopes.join(' '),
              st: request.state ?? null,
              dec: approve,
              jti: randomUUID(),
            },
            CONSENT_TICKET_TTL_SECONDS,
          );
        const tickets = { allow: await ticketFor(true), deny: await ticketFor(false) };
        const hidden = (approve: boolean) =>
          [
            ['client_id', request.clientId],
            ['redirect_uri', request.redirectUri],
            ['code_challenge', request.codeChallenge],
            ['code_challenge_method', 'S256'],
            ['scope', request.scopes.join(' ')],
            ['state', request.state ?? ''],
            ['consent_ticket', approve ? tickets.allow : tickets.deny],
            ['approve', String(approve)],
          ]
            .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
            .join('');
        const what = request.scopes.includes('write')
          ? 'read and change your data (scores, profile, social)'
          : 'read your data';
        const host = new URL(request.redirectUri).host;
        return reply
          .code(200)
          .headers(PAGE_HEADERS)
          .send(
            page(
              'Authorize application',
              `<h1>Authorize ${escapeHtml(request.clientName ?? 'an unnamed application')}</h1>
<p>Signed in as <strong>${escapeHtml(user?.name ?? ctx.viewer!.id)}</strong>.</p>
<p>The application at <code>${escapeHtml(host)}</code> asks to <strong>${escapeHtml(what)}</strong> (scope: <code>${escapeHtml(request.scopes.join(' '))}</code>).</p>
<form method="post" action="/api/oauth/authorize/consent" style="display:inline">${hidden(true)}<button type="submit">Allow</button></form>
<form method="post" action="/api/oauth/authorize/consent" style="display:inline">${hidden(false)}<button type="submit">Deny</button></form>`,
            ),
          );
      },
    );

    route(
      ['POST'],
      ['/api/oauth/authorize/consent'],
      {
        summary: 'The decision on a consent page: JSON {redirectUrl}, or a 303 redirect for the page’s form',
        body: AuthorizeQuery.extend({
          approve: z.union([z.boolean(), z.enum(['true', 'false'])]),
          consent_ticket: z.string().optional(),
        }).loose(),
        bearer: 'optional',
        responses: {
          200: { description: 'Where to send the user', body: z.object({ redirectUrl: z.string() }) },
          303: { description: 'Redirect (form post)' },
        },
      },
      async (req, reply) => {
        const body = bodyOf(req);
        // Errors here are answered as JSON (400), never by redirect: the caller is the consent UI.
        const request = await oauth.validateAuthorization({ ...body, response_type: 'code' });
        const approveRaw = body.approve;
        if (approveRaw === undefined) throw new OAuthError('invalid_request', 'approve (true or false) is required');
        const approve = approveRaw === true || approveRaw === 'true';
        let userId: string;
        let ticketId: string | undefined;
        if (typeof body.consent_ticket === 'string' && !req.headers.authorization) {
          // The consent page's own form: the ticket binds user, client, redirect, challenge, scope,
          // state and the decision; it approves once (its id is unique among the codes).
          const t = await app.auth.verifyTicket('consent', body.consent_ticket);
          const same =
            t.cid === request.clientId &&
            t.ruri === request.redirectUri &&
            t.cc === request.codeChallenge &&
            t.scp === request.scopes.join(' ') &&
            (t.st ?? undefined) === request.state &&
            t.dec === approve;
          if (!same || typeof t.sub !== 'string' || typeof t.jti !== 'string')
            throw new OAuthError('invalid_request', 'The consent ticket does not match this request');
          userId = t.sub;
          ticketId = t.jti;
        } else {
          const ctx = await contextForRequest(app, req);
          await documentsOf(app).run(RestOAuthConsentUser, ctx, {});
          userId = ctx.viewer!.id;
        }
        const redirectUrl = await oauth.decide(userId, request, approve, ticketId);
        const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
        if (isForm) return reply.redirect(redirectUrl, 303);
        return reply.code(200).header('cache-control', 'no-store').send({ redirectUrl });
      },
    );

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
        const result = await oauth.token(body, req.headers.authorization);
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
        await oauth.revoke(body, req.headers.authorization);
        return reply.code(200).header('cache-control', 'no-store').send({});
      },
    );

    scope.addHook('onClose', async () => {
      await app.rateLimiter.close();
    });
  });
}
