import type { Db } from '../../db/client';
import { CREDENTIAL_PREFIX, parseScopes, type Scope } from './auth.service';
import { CODE_TTL_SECONDS, OAuthError, str, withQuery, type AuthorizationRequest, type Params } from './oauth.protocol';
import { OAuthTokens } from './oauth.tokens';
import { hashSecret, newId, newSecret, PKCE_CHALLENGE, redirectUrisProblem } from './secrets';

export * from './oauth.protocol';

/**
 * OAuth 2.0 authorization server for third-party apps acting for a user: authorization code +
 * PKCE S256 (RFC 6749, RFC 7636), refresh tokens with rotation and reuse detection (OAuth 2.1
 * §4.3.1), dynamic registration of public clients (RFC 7591), metadata (RFC 8414). Codes and
 * tokens are opaque random strings stored only as SHA-256 hashes. The HTTP side is src/rest/oauth.ts.
 * By topic: the protocol's vocabulary (errors, TTLs, the authorization request) is oauth.protocol.ts,
 * the token and revocation endpoints oauth.tokens.ts (`tokens`); registration, the authorization
 * request and the consent decision stay here.
 */

/** Expired codes and tokens are kept a day (late replays are still recognised), then deleted. */
const PURGE_GRACE_MS = 24 * 3600 * 1000;
const PURGE_EVERY_MS = 3600 * 1000;

export class OAuthService {
  private lastPurge = 0;

  /** The token and revocation endpoints (oauth.tokens.ts). */
  readonly tokens: OAuthTokens;

  constructor(private readonly db: Db) {
    this.tokens = new OAuthTokens(db);
  }

  /** Deletes codes and tokens expired for more than a day; runs at most hourly per process. */
  async purgeExpired(now = Date.now()): Promise<{ codes: number; tokens: number } | null> {
    if (now - this.lastPurge < PURGE_EVERY_MS) return null;
    this.lastPurge = now;
    const before = new Date(now - PURGE_GRACE_MS);
    const codes = await this.db.oAuthAuthorizationCode.deleteMany({ where: { expiresAt: { lt: before } } });
    const tokens = await this.db.oAuthToken.deleteMany({ where: { expiresAt: { lt: before } } });
    return { codes: codes.count, tokens: tokens.count };
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
}
