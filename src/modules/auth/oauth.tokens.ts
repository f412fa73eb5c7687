/**
 * The OAuth 2.0 token side (reached as OAuthService.tokens; HTTP in src/rest/oauth.ts): client
 * authentication, the token endpoint (authorization_code with PKCE, refresh_token with rotation and
 * reuse detection) and RFC 7009 revocation. A replayed code or refresh token revokes its whole grant.
 */
import type { Db } from '../../db/client';
import { CREDENTIAL_PREFIX, parseScopes, type Scope } from './auth.service';
import { ACCESS_TOKEN_TTL_SECONDS, OAuthError, REFRESH_TOKEN_TTL_SECONDS, str, type Params } from './oauth.protocol';
import { hashSecret, newSecret, safeEqual, verifyPkce } from './secrets';

export class OAuthTokens {
  constructor(private readonly db: Db) {}

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
