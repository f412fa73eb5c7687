import crypto from 'node:crypto';
import {
  SignJWT,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  errors as joseErrors,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWSHeaderParameters,
} from 'jose';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError, unauthenticated } from '../../errors';
import type { ExternalIdentityRef, Viewer } from '../../graphql/context';
import { hashSecret } from './secrets';
import { openKeyRing, type KeyRing } from './keys';

/** Algorithms of our own tokens: HS256 (a shared secret: JWT_SECRET, PGlite's file) and ES256 (keys in PostgreSQL). */
const OWN_ALGS = ['HS256', 'ES256'];

export const TOKEN_ISSUER = 'bpigraph';
export const TOKEN_AUDIENCE = 'bpigraph-api';

/** Prefixes of our opaque credentials (recognisable in logs and secret scanners). */
export const CREDENTIAL_PREFIX = {
  apiKey: 'bpk',
  clientSecret: 'bpcs',
  code: 'bpac',
  accessToken: 'bpat',
  refreshToken: 'bprt',
} as const;

export type Scope = 'read' | 'write';
export const ALL_SCOPES: readonly Scope[] = ['read', 'write'];

/** 'read write' → ['read','write'] (unknown scope names dropped). */
export function parseScopes(scope: string | undefined | null): Scope[] {
  const set = new Set((scope ?? '').split(/\s+/).filter((s): s is Scope => s === 'read' || s === 'write'));
  return ALL_SCOPES.filter((s) => set.has(s));
}

/** Asymmetric algorithms accepted from an external OpenID Connect provider. */
const EXTERNAL_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Why a JWT failed, in words a client developer can act on. */
function jwtProblem(err: unknown, what: string): AppError {
  if (err instanceof joseErrors.JWTExpired) return unauthenticated(`${what} expired`);
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return unauthenticated(`${what} has the wrong audience`);
    if (err.claim === 'iss') return unauthenticated(`${what} has the wrong issuer`);
    if (err.claim === 'nbf') return unauthenticated(`${what} is not valid yet`);
    return unauthenticated(`Invalid ${what.toLowerCase()}: ${err.message}`);
  }
  if (err instanceof joseErrors.JWKSTimeout || !(err instanceof joseErrors.JOSEError)) {
    // The identity provider's key set could not be fetched: our problem, not the caller's.
    return new AppError('SERVICE_UNAVAILABLE', 'The identity provider could not be reached; try again later');
  }
  if (err instanceof joseErrors.JWKSNoMatchingKey) return unauthenticated(`${what} is signed with an unknown key`);
  return unauthenticated(`Invalid ${what.toLowerCase()}`);
}

export interface Authentication {
  viewer: Viewer | null;
  /** An external identity with no local account yet (see Context.identity). */
  identity?: ExternalIdentityRef;
}

/**
 * Identity: issues and verifies access tokens and turns a request's credentials into a Viewer.
 * Accepted bearer tokens:
 *  - our JWT access tokens, HS256 or ES256 by their kid (iss bpigraph, aud bpigraph-api; full access unless a scope claim);
 *  - opaque OAuth access tokens (bpat_…) issued by our authorization server, scoped read/write;
 *  - with AUTH_ISSUER/AUTH_JWKS_URL/AUTH_AUDIENCE: the provider's OIDC ID tokens, verified
 *    against its JWKS and mapped to a local user through ExternalIdentity (issuer, subject).
 */
export class AuthService {
  private readonly jwks?: JWTVerifyGetKey;

  /** The verification key of one of our tokens, by its header's kid (an unknown kid: "signed with an unknown key"). */
  private readonly ownKey = async (header: JWSHeaderParameters) => {
    const k = await this.keys.verifier(header.kid, header.alg);
    if (!k) throw new joseErrors.JWKSNoMatchingKey();
    return k.verifyKey;
  };

  private constructor(
    private readonly config: Config,
    private readonly db: Db,
    /** Our signing keys (src/modules/auth/keys.ts). */
    readonly keys: KeyRing,
  ) {
    if (config.externalAuth) {
      this.jwks = createRemoteJWKSet(new URL(config.externalAuth.jwksUrl), {
        timeoutDuration: 5000,
        cooldownDuration: 30_000,
      });
    }
  }

  /**
   * `shared`: the database is PostgreSQL (keys live there, shared by every process); otherwise
   * JWT_SECRET or the data directory's secret (docs/cluster-keys.md).
   */
  static async create(
    config: Config,
    db: Db,
    opts: { persistSecret?: boolean; shared?: boolean } = {},
  ): Promise<AuthService> {
    const keys = await openKeyRing({
      jwtSecret: config.jwtSecret,
      db,
      shared: opts.shared ?? false,
      dataDir: config.dataDir,
      persist: opts.persistSecret ?? true,
    });
    return new AuthService(config, db, keys);
  }

  async issueAccessToken(userId: string, opts: { ttlSeconds?: number; scopes?: string[] } = {}) {
    const expiresIn = opts.ttlSeconds ?? this.config.accessTokenTtl;
    const key = this.keys.signing();
    const jwt = new SignJWT(opts.scopes ? { scope: opts.scopes.join(' ') } : {})
      .setProtectedHeader({ alg: key.alg, typ: 'JWT', kid: key.kid })
      .setSubject(userId)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn);
    return { token: await jwt.sign(key.key), expiresIn };
  }

  /**
   * A 32-byte key for another purpose, derived from the access-token key (HKDF-SHA256, the
   * purpose as info): e.g. the key that seals invitation tokens when INVITE_TOKEN_KEY is unset.
   */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(crypto.hkdfSync('sha256', this.keys.root(), Buffer.alloc(0), `bpigraph:${purpose}`, 32));
  }

  /** Short-lived signed value bound to a purpose (audience), e.g. the consent form's ticket. */
  async signTicket(purpose: string, claims: Record<string, unknown>, ttlSeconds: number): Promise<string> {
    const key = this.keys.signing();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid: key.kid })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(`${TOKEN_AUDIENCE}:${purpose}`)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(key.key);
  }

  async verifyTicket(purpose: string, ticket: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(ticket, this.ownKey, {
        issuer: TOKEN_ISSUER,
        audience: `${TOKEN_AUDIENCE}:${purpose}`,
        algorithms: OWN_ALGS,
        requiredClaims: ['exp'],
      });
      return payload;
    } catch (err) {
      throw jwtProblem(err, 'Consent ticket');
    }
  }

  /** The viewer for an Authorization header value; null when absent. Bad tokens → UNAUTHENTICATED. */
  async resolveViewer(authorization: string | undefined): Promise<Viewer | null> {
    return (await this.authenticate(authorization)).viewer;
  }

  /** Viewer (and, for an external identity without a local user, that identity) of a request. */
  async authenticate(authorization: string | undefined): Promise<Authentication> {
    if (!authorization) return { viewer: null };
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
    const token = m[1];
    if (token.startsWith(`${CREDENTIAL_PREFIX.accessToken}_`)) return { viewer: await this.oauthViewer(token) };
    if (token.split('.').length !== 3) throw unauthenticated('Invalid access token');
    let alg: string | undefined;
    let iss: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
      iss = decodeJwt(token).iss;
    } catch {
      throw unauthenticated('Invalid access token');
    }
    const ext = this.config.externalAuth;
    if (ext && this.jwks && !OWN_ALGS.includes(alg ?? '') && iss !== TOKEN_ISSUER) return this.externalViewer(token);
    return { viewer: await this.ownViewer(token) };
  }

  private async ownViewer(token: string): Promise<Viewer> {
    let payload: JWTPayload;
    try {
      // A token without an expiry or a subject is never valid, whoever signed it.
      ({ payload } = await jwtVerify(token, this.ownKey, {
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        algorithms: OWN_ALGS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      throw jwtProblem(err, 'Access token');
    }
    if (typeof payload.sub !== 'string' || !payload.sub) throw unauthenticated('Invalid access token');
    // A scope claim that is not a string must not read as "no scope claim" (= full access).
    if (payload.scope !== undefined && typeof payload.scope !== 'string')
      throw unauthenticated('Invalid access token: scope must be a string');
    const user = await this.db.user.findUnique({ where: { id: payload.sub }, select: { id: true, isAdmin: true } });
    if (!user) throw unauthenticated('The user of this token no longer exists');
    const scopes = typeof payload.scope === 'string' ? parseScopes(payload.scope) : undefined;
    return { id: user.id, isAdmin: user.isAdmin, scopes };
  }

  private async oauthViewer(token: string): Promise<Viewer> {
    const row = await this.db.oAuthToken.findUnique({
      where: { tokenHash: hashSecret(token) },
      select: {
        kind: true,
        scope: true,
        expiresAt: true,
        revokedAt: true,
        user: { select: { id: true, isAdmin: true } },
      },
    });
    if (!row || row.kind !== 'ACCESS') throw unauthenticated('Invalid access token');
    if (row.revokedAt) throw unauthenticated('Access token revoked');
    if (row.expiresAt.getTime() <= Date.now()) throw unauthenticated('Access token expired');
    // Third-party apps act only within their granted scopes, and never as administrators.
    return { id: row.user.id, isAdmin: false, scopes: parseScopes(row.scope) };
  }

  private async externalViewer(token: string): Promise<Authentication> {
    const ext = this.config.externalAuth!;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks!, {
        issuer: ext.issuer,
        audience: ext.audience,
        algorithms: EXTERNAL_ALGS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      throw jwtProblem(err, 'ID token');
    }
    if (!payload.sub || !payload.iss) throw unauthenticated('Invalid ID token: no subject');
    const link = await this.db.externalIdentity.findUnique({
      where: { issuer_subject: { issuer: payload.iss, subject: payload.sub } },
      select: { user: { select: { id: true, isAdmin: true } } },
    });
    if (!link) return { viewer: null, identity: { issuer: payload.iss, subject: payload.sub } };
    return { viewer: { id: link.user.id, isAdmin: link.user.isAdmin } };
  }
}
