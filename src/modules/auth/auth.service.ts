import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { unauthenticated } from '../../errors';
import type { Viewer } from '../../graphql/context';

export const TOKEN_ISSUER = 'bpigraph';
export const TOKEN_AUDIENCE = 'bpigraph-api';

/** Our own signing key: JWT_SECRET, else a key generated once into DATA_DIR (in memory without one). */
function loadSecret(config: Config, persist: boolean): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  if (!persist) return crypto.randomBytes(32);
  const file = path.join(config.dataDir, 'jwt-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}

/** Identity: issues and verifies access tokens and turns a request's credentials into a Viewer. */
export class AuthService {
  private constructor(
    private readonly config: Config,
    private readonly db: Db,
    private readonly secret: Uint8Array,
  ) {}

  static async create(config: Config, db: Db, opts: { persistSecret?: boolean } = {}): Promise<AuthService> {
    return new AuthService(config, db, loadSecret(config, opts.persistSecret ?? true));
  }

  async issueAccessToken(userId: string, opts: { ttlSeconds?: number; scopes?: string[] } = {}) {
    const expiresIn = opts.ttlSeconds ?? this.config.accessTokenTtl;
    const jwt = new SignJWT(opts.scopes ? { scope: opts.scopes.join(' ') } : {})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn);
    return { token: await jwt.sign(this.secret), expiresIn };
  }

  /** The viewer for an Authorization header value; null when absent. Bad tokens → UNAUTHENTICATED. */
  async resolveViewer(authorization: string | undefined): Promise<Viewer | null> {
    if (!authorization) return null;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
    const token = m[1];
    let sub: string | undefined;
    let scope: string | undefined;
    try {
      const { payload } = await jwtVerify(token, this.secret, { issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, algorithms: ['HS256'] });
      sub = payload.sub;
      scope = typeof payload.scope === 'string' ? payload.scope : undefined;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthenticated('Access token expired');
      throw unauthenticated('Invalid access token');
    }
    if (!sub) throw unauthenticated('Invalid access token');
    const user = await this.db.user.findUnique({ where: { id: sub }, select: { id: true, isAdmin: true } });
    if (!user) throw unauthenticated('The user of this token no longer exists');
    const scopes = scope ? (scope.split(' ').filter((s) => s === 'read' || s === 'write') as ('read' | 'write')[]) : undefined;
    return { id: user.id, isAdmin: user.isAdmin, scopes };
  }
}
