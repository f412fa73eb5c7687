import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../app';
import { HTTP_STATUS, toAppError } from '../errors';
import { contextForRequest, type Context } from '../graphql/context';
import { documentsOf } from '../graphql/documents';
import {
  CONSENT_TICKET_TTL_SECONDS,
  OAuthError,
  withQuery,
  type AuthorizationRequest,
  type OAuthService,
} from '../modules/auth/oauth.service';
import { RestOAuthConsentUser } from './documents/oauth';
import type { RouteDoc } from './openapi';

/**
 * The OAuth consent endpoints (registered by src/rest/oauth.ts): the HTML consent page for the
 * signed-in user (GET /api/oauth/authorize) and the decision (POST /api/oauth/authorize/consent,
 * from the page's form with its single-use ticket, or with a bearer token). Who the user is comes
 * from the fixed document RestOAuthConsentUser (rule Query.oauthConsentUser: first party only).
 */

/** An OAuth endpoint's handler; failures are RFC 6749 bodies (the route helper of src/rest/oauth.ts). */
export type OAuthHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Registers one OAuth endpoint: allowed methods, else 405 with Allow; failures as RFC 6749 bodies. */
export type OAuthRoute = (
  methods: ('GET' | 'POST')[],
  urls: string[],
  doc: Omit<RouteDoc, 'errors' | 'tags'>,
  handler: OAuthHandler,
) => void;

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

/** The JSON or form body as an object ({} when absent or not an object); every OAuth endpoint's. */
export const bodyOf = (req: FastifyRequest): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};

/** GET /api/oauth/authorize and POST /api/oauth/authorize/consent. */
export function registerConsent(route: OAuthRoute, app: App, oauth: OAuthService): void {
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
            .send(page('Invalid request', `<h1>Invalid authorization request</h1><p>${escapeHtml(e.description)}</p>`));
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
}
