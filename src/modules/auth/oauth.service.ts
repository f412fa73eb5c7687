import type { Db } from '../../db/client';
import { CREDENTIAL_PREFIX, parseScopes, type Scope } from './auth.service';
import { hashSecret, newId, newSecret, PKCE_CHALLENGE, redirectUrisProblem, safeEqual, verifyPkce } from './secrets';

/**
 * OAuth 2.0 authorization server for third-party apps acting for a user: authorization code +
 * PKCE S256 (RFC 6749, RFC 7636), refresh tokens with rotation and reuse detection (OAuth 2.1
 * §4.3.1), dynamic registration of public clients (RFC 7591), metadata (RFC 8414). Codes and
 * tokens are opaque random strings stored only as SHA-256 hashes. The HTTP side is src/rest/oauth.ts.
 */

export const CODE_TTL_SECONDS = 60;
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const CONSENT_TICKET_TTL_SECONDS = 600;

/** An RFC 6749 §5.2 error: `{ error, error_description }` with its HTTP status. */
export class OAuthError extends Error {
  /**
   * Set on authorization-request errors found after the client and redirect URI were verified,
   * for a client a user registered (issueOAuthClient): they may be reported to the client by
   * redirect (RFC 6749 §4.1.2.1). Others never are — in particular not for dynamically registered
   * clients, whose redirect URIs anyone may choose (the endpoint would be an open redirector).
   */
  redirect?: { uri: string; state?: string };

  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
  body() {
    return { error: this.error, error_description: this.description };
  }
}

/** A validated authorization request (the parameters of /authorize and of the consent POST). */
export interface AuthorizationRequest {
  clientId: string;
  clientName: string | null;
  confidential: boolean;
  redirectUri: string;
  codeChallenge: string;
  scopes: Scope[];
  state?: string;
}

type Params = Record<string, unknown>;
const str = (p: Params, k: string): string | undefined => {
  const v = p[k];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** redirect_uri + query parameters (keeping any query the registered URI already has). */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

/** Expired codes and tokens are kept a day (late replays are still recognised), then deleted. */
const PURGE_GRACE_MS = 24 * 3600 * 1000;
const PURGE_EVERY_MS = 3600 * 1000;

export class OAuthService {
  private lastPurge = 0;

  constructor(private readonly db: Db) {}

  /** Deletes codes and tokens expired for more than a day; runs at most hourly per process. */
  async purgeExpired(now = Date.now()): Promise<{ codes: number; tokens: number } | null> {
    if (now - this.lastPurge < PURGE_EVERY_MS) return null;
    this.lastPurge = now;
    const before = new Date(now - PURGE_GRACE_MS);
    const codes = await this.db.oAuthAuthorizationCode.deleteMany({ where: { expiresAt: { lt: before } } });
    const tokens = await this.db.oAuthToken.deleteMany({ where: { expiresAt: { lt: before } } });
    return { codes: codes.count, tokens: tokens.count };
  }

  /**
   * RFC 7009 revocation: the client revokes one of its own tokens; a refresh token takes its whole
   * grant (every token of the family) with it. Unknown tokens are not an error (always 200).
   */
  async revoke(p: Params, authorization: string | undefined): Promise<void> {
    const client = await this.authenticateClient(p, authorization);
    const token = str(p, 'token');
    if (!token) throw new OAuthError('invalid_request', 'token is required');
    const row = await this.db.oAuthToken.findUnique({
      where: { tokenHash: hashSecret(token) },
      select: { kind: true, familyId: true, clientId: true },
    });
    if (!row || row.clientId !== client.id) return;
    if (row.kind === 'REFRESH') await this.revokeFamily(row.familyId);
    else
      await this.db.oAuthToken.updateMany({
        where: { tokenHash: hashSecret(token), revokedAt: null },
        data: { revokedAt: new Date() },
      });
  }

  metadata(base: string) {
    return {
      issuer: base,
      authorization_endpoint: `${base}/api/oauth/authorize`,
      token_endpoint: `${base}/api/oauth/token`,
      revocation_endpoint: `${base}/api/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      registration_endpoint: `${base}/api/oauth/register`,
      scopes_supported: ['read', 'write'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      service_documentation: `${base}/graphql`,
    };
  }

  protectedResourceMetadata(base: string, path: '/graphql' | '/mcp' = '/graphql') {
    return {
      resource: `${base}${path}`,
      authorization_servers: [base],
      scopes_supported: ['read', 'write'],
      bearer_methods_supported: ['header'],
    };
  }

  /** RFC 7591 dynamic registration: public clients only (no secret; PKCE protects the code). */
  async register(body: Params) {
    const uris = body.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === 'string')) {
      throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be a non-empty array of strings');
    }
    const problem = redirectUrisProblem(uris);
    if (problem) throw new OAuthError('invalid_redirect_uri', problem.message);
    const name = body.client_name;
    if (name !== undefined && (typeof name !== 'string' || name.trim().length === 0 || name.length > 100)) {
      throw new OAuthError('invalid_client_metadata', 'client_name must be a string of 1–100 characters');
    }
    const method = body.token_endpoint_auth_method;
    if (method !== undefined && method !== 'none') {
      throw new OAuthError(
        'invalid_client_metadata',
        'Only public clients can register: token_endpoint_auth_method must be "none"',
      );
    }
    const grants = body.grant_types;
    if (
      grants !== undefined &&
      (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
    ) {
      throw new OAuthError(
        'invalid_client_metadata',
        'grant_types may contain only "authorization_code" and "refresh_token"',
      );
    }
    const responses = body.response_types;
    if (responses !== undefined && (!Array.isArray(responses) || responses.some((r) => r !== 'code'))) {
      throw new OAuthError('invalid_client_metadata', 'response_types may contain only "code"');
    }
    const client = await this.db.oAuthClient.create({
      data: { id: newId(), name: typeof name === 'string' ? name.trim() : null, redirectUris: [...new Set(uris)] },
    });
    return {
      client_id: client.id,
      client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
      ...(client.name ? { client_name: client.name } : {}),
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }

  /** Public identity of a client for a consent screen. */
  async clientInfo(clientId: string | undefined) {
    if (!clientId) throw new OAuthError('invalid_request', 'client_id is required');
    const c = await this.db.oAuthClient.findUnique({
      where: { id: clientId },
      select: { name: true, redirectUris: true },
    });
    if (!c) throw new OAuthError('invalid_client', 'Unknown client_id', 404);
    const hosts = c.redirectUris.flatMap((u) => {
      try {
        return [new URL(u).host];
      } catch {
        return [];
      }
    });
    return { clientName: c.name, redirectHosts: [...new Set(hosts)] };
  }

  /**
   * Validates an authorization request. Errors about the client or the redirect URI are never
   * redirected; later ones carry `redirect` (the verified redirect URI and state).
   */
  async validateAuthorization(p: Params): Promise<AuthorizationRequest> {
    const clientId = str(p, 'client_id');
    if (!clientId) throw new OAuthError('invalid_request', 'client_id is required');
    const client = await this.db.oAuthClient.findUnique({
      where: { id: clientId },
      select: { id: true, name: true, redirectUris: true, secretHash: true, userId: true },
    });
    if (!client) throw new OAuthError('invalid_client', 'Unknown client_id');
    const redirectUri = str(p, 'redirect_uri');
    if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
    if (!client.redirectUris.includes(redirectUri)) {
      throw new OAuthError('invalid_request', 'redirect_uri is not registered for this client');
    }
    const state = str(p, 'state');
    const fail = (error: string, description: string) => {
      const e = new OAuthError(error, description);
      if (client.userId !== null) e.redirect = { uri: redirectUri, state };
      return e;
    };
    const responseType = str(p, 'response_type');
    if (responseType !== undefined && responseType !== 'code')
      throw fail('unsupported_response_type', 'response_type must be "code"');
    const challenge = str(p, 'code_challenge');
    if (!challenge) throw fail('invalid_request', 'code_challenge is required (PKCE)');
    if (str(p, 'code_challenge_method') !== 'S256')
      throw fail('invalid_request', 'code_challenge_method must be "S256"');
    if (!PKCE_CHALLENGE.test(challenge))
      throw fail('invalid_request', 'code_challenge must be a base64url SHA-256 digest (43 characters)');
    const scope = str(p, 'scope');
    const scopes = scope === undefined ? (['read'] as Scope[]) : parseScopes(scope);
    if (
      scope !== undefined &&
      (scopes.length === 0 ||
        scope
          .split(/\s+/)
          .filter(Boolean)
          .some((s) => s !== 'read' && s !== 'write'))
    ) {
      throw fail('invalid_scope', 'scope must be "read", "write" or "read write"');
    }
    return {
      clientId: client.id,
      clientName: client.name,
      confidential: client.secretHash !== null,
      redirectUri,
      codeChallenge: challenge,
      scopes,
      state,
    };
  }

  /**
   * The user's decision: a redirect URL carrying a fresh code (60 s, single use) or access_denied.
   * `ticketId` (the consent ticket's id) is stored with the code, uniquely: a ticket approves once.
   */
  async decide(userId: string, req: AuthorizationRequest, approve: boolean, ticketId?: string): Promise<string> {
    if (!approve)
      return withQuery(req.redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied the request',
        state: req.state,
      });
    const code = newSecret(CREDENTIAL_PREFIX.code);
    await this.db.oAuthAuthorizationCode
      .create({
        data: {
          consentTicketId: ticketId ?? null,
          codeHash: hashSecret(code),
          clientId: req.clientId,
          userId,
          redirectUri: req.redirectUri,
          codeChallenge: req.codeChallenge,
          codeChallengeMethod: 'S256',
          scope: req.scopes.join(' '),
          expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
        },
      })
      .catch((err: unknown) => {
        if ((err as { code?: string }).code === 'P2002')
          throw new OAuthError(
            'invalid_request',
            'This consent ticket was already used; start the authorization again',
          );
        throw err;
      });
    return withQuery(req.redirectUri, { code, state: req.state });
  }

  /** Token endpoint (RFC 6749 §3.2): client authentication, then the grant. */
  async token(p: Params, authorization: string | undefined) {
    const client = await this.authenticateClient(p, authorization);
    const grant = str(p, 'grant_type');
    if (!grant) throw new OAuthError('invalid_request', 'grant_type is required');
    if (grant === 'authorization_code') return this.codeGrant(client.id, p);
    if (grant === 'refresh_token') return this.refreshGrant(client.id, p);
    throw new OAuthError('unsupported_grant_type', `grant_type "${grant}" is not supported`);
  }

  private async authenticateClient(p: Params, authorization: string | undefined) {
    let id = str(p, 'client_id');
    let secret = str(p, 'client_secret');
    const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (authorization && !basic) throw new OAuthError('invalid_client', 'Unsupported client authentication', 401);
    if (basic) {
      if (secret) throw new OAuthError('invalid_request', 'Use one client authentication method, not both');
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i < 0) throw new OAuthError('invalid_client', 'Malformed Basic credentials', 401);
      let bid: string;
      try {
        bid = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' '));
        secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, ' '));
      } catch {
        throw new OAuthError('invalid_client', 'Malformed Basic credentials', 401);
      }
      if (id && id !== bid)
        throw new OAuthError('invalid_client', 'client_id does not match the Basic credentials', 401);
      id = bid;
    }
    if (!id) throw new OAuthError('invalid_client', 'client_id is required', 401);
    const client = await this.db.oAuthClient.findUnique({ where: { id }, select: { id: true, secretHash: true } });
    if (!client) throw new OAuthError('invalid_client', 'Unknown client', 401);
    if (client.secretHash !== null) {
      if (!secret || !safeEqual(hashSecret(secret), client.secretHash)) {
        throw new OAuthError(
          'invalid_client',
          'Client authentication failed: this confidential client needs its client_secret',
          401,
        );
      }
    }
    return client;
  }

  private async codeGrant(clientId: string, p: Params) {
    const code = str(p, 'code');
    const redirectUri = str(p, 'redirect_uri');
    const verifier = str(p, 'code_verifier');
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    const codeHash = hashSecret(code);
    const now = new Date();
    const row = await this.db.oAuthAuthorizationCode.findUnique({ where: { codeHash } });
    if (!row) throw new OAuthError('invalid_grant', 'Invalid authorization code');
    if (row.consumedAt) {
      // A replayed code (RFC 6749 §4.1.2): revoke every token issued with it.
      await this.revokeFamily(codeHash);
      throw new OAuthError('invalid_grant', 'Authorization code already used; the tokens issued with it are revoked');
    }
    // Every check before the code is consumed: a wrong client, redirect or verifier must not burn
    // the legitimate client's code.
    if (row.clientId !== clientId) throw new OAuthError('invalid_grant', 'The code was issued to another client');
    if (row.expiresAt.getTime() <= now.getTime()) throw new OAuthError('invalid_grant', 'Authorization code expired');
    if (row.redirectUri !== redirectUri)
      throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
    if (!verifyPkce(verifier, row.codeChallenge))
      throw new OAuthError('invalid_grant', 'PKCE verification failed: code_verifier does not match code_challenge');
    // Single use: the conditional update lets exactly one request win, even when concurrent.
    const { count } = await this.db.oAuthAuthorizationCode.updateMany({
      where: { codeHash, consumedAt: null },
      data: { consumedAt: now },
    });
    if (count === 0) {
      await this.revokeFamily(codeHash);
      throw new OAuthError('invalid_grant', 'Authorization code already used; the tokens issued with it are revoked');
    }
    // The family of tokens descending from this code is keyed by the code's hash (for replay revocation).
    return this.db.$transaction((tx) =>
      this.issueTokens(tx, { familyId: codeHash, clientId, userId: row.userId, scope: row.scope }),
    );
  }

  private async refreshGrant(clientId: string, p: Params) {
    const presented = str(p, 'refresh_token');
    if (!presented) throw new OAuthError('invalid_request', 'refresh_token is required');
    const tokenHash = hashSecret(presented);
    const row = await this.db.oAuthToken.findUnique({ where: { tokenHash } });
    if (!row || row.kind !== 'REFRESH') throw new OAuthError('invalid_grant', 'Invalid refresh token');
    if (row.clientId !== clientId)
      throw new OAuthError('invalid_grant', 'The refresh token was issued to another client');
    if (row.revokedAt) {
      await this.revokeFamily(row.familyId);
      throw new OAuthError('invalid_grant', 'Refresh token already used; every token of this grant is now revoked');
    }
    if (row.expiresAt.getTime() <= Date.now()) throw new OAuthError('invalid_grant', 'Refresh token expired');
    let scope = row.scope;
    const requested = str(p, 'scope');
    if (requested !== undefined) {
      const granted = new Set(parseScopes(row.scope));
      const asked = requested.split(/\s+/).filter(Boolean);
      if (!asked.length || asked.some((s) => !granted.has(s as Scope)))
        throw new OAuthError('invalid_scope', 'scope may only narrow the original grant');
      scope = parseScopes(requested).join(' ');
    }
    const issued = await this.db.$transaction(async (tx) => {
      const { count } = await tx.oAuthToken.updateMany({
        where: { tokenHash, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (count === 0) return null; // lost a race with another use of the same token
      return this.issueTokens(tx, { familyId: row.familyId, clientId, userId: row.userId, scope });
    });
    if (!issued) {
      await this.revokeFamily(row.familyId);
      throw new OAuthError('invalid_grant', 'Refresh token already used; every token of this grant is now revoked');
    }
    return issued;
  }

  private async issueTokens(
    tx: Pick<Db, 'oAuthToken'>,
    g: { familyId: string; clientId: string; userId: string; scope: string },
  ) {
    const access = newSecret(CREDENTIAL_PREFIX.accessToken);
    const refresh = newSecret(CREDENTIAL_PREFIX.refreshToken);
    const now = Date.now();
    await tx.oAuthToken.createMany({
      data: [
        {
          tokenHash: hashSecret(access),
          kind: 'ACCESS',
          ...g,
          expiresAt: new Date(now + ACCESS_TOKEN_TTL_SECONDS * 1000),
        },
        {
          tokenHash: hashSecret(refresh),
          kind: 'REFRESH',
          ...g,
          expiresAt: new Date(now + REFRESH_TOKEN_TTL_SECONDS * 1000),
        },
      ],
    });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: refresh,
      scope: g.scope,
    };
  }

  private async revokeFamily(familyId: string) {
    await this.db.oAuthToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: new Date() } });
  }
}
