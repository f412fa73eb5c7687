import type { Db } from '../../db/client';
import { badInput, unauthenticated } from '../../errors';
import type { AreaDeps } from '../area';
import { RATE_LIMITS } from '../../ratelimit';
import { CREDENTIAL_PREFIX } from './auth.service';
import { hashSecret, hintOf, newId, newSecret, redirectUrisProblem } from './secrets';

/** Validated, de-duplicated redirect URIs (see redirectUrisProblem), else BAD_USER_INPUT. */
export function validateRedirectUris(uris: readonly string[], field = 'redirectUris'): string[] {
  const problem = redirectUrisProblem(uris);
  if (problem) {
    const path = problem.index === undefined ? [field] : [field, problem.index];
    throw badInput(problem.message, [{ code: 'invalid_redirect_uri', path, message: problem.message }]);
  }
  return [...new Set(uris)];
}

/**
 * The caller's own credentials: the API key (exchanged for access tokens) and the manually issued
 * confidential OAuth client. Secrets are returned once at issue time and stored as SHA-256 hashes.
 */
export class CredentialsService {
  constructor(private readonly db: Db) {}

  async apiKeyStatus(userId: string) {
    const row = await this.db.apiKey.findUnique({
      where: { userId },
      select: { createdAt: true, hint: true, lastUsedAt: true },
    });
    return row
      ? { exists: true, createdAt: row.createdAt, hint: `****${row.hint}`, lastUsedAt: row.lastUsedAt }
      : { exists: false, createdAt: null, hint: null, lastUsedAt: null };
  }

  /** Issues or reissues the key: the previous key stops working at once (same row, new hash). */
  async issueApiKey(userId: string) {
    const key = newSecret(CREDENTIAL_PREFIX.apiKey);
    const data = { keyHash: hashSecret(key), hint: hintOf(key), createdAt: new Date(), lastUsedAt: null };
    const row = await this.db.apiKey.upsert({ where: { userId }, create: { userId, ...data }, update: data });
    return { apiKey: key, createdAt: row.createdAt, hint: `****${row.hint}` };
  }

  /** X-API-Key → access token (rate-limited per client IP). */
  async exchangeApiKey(app: Pick<AreaDeps, 'rateLimiter' | 'auth'>, apiKey: string | undefined, ip: string) {
    await app.rateLimiter.consume(RATE_LIMITS.token, ip || 'unknown');
    if (!apiKey) throw unauthenticated('API key is required (send it in the X-API-Key header)');
    const [row] = await this.db.apiKey.updateManyAndReturn({
      where: { keyHash: hashSecret(apiKey) },
      data: { lastUsedAt: new Date() },
      select: { userId: true },
    });
    if (!row) throw unauthenticated('Invalid API key');
    return app.auth.issueAccessToken(row.userId);
  }

  async oauthClient(userId: string) {
    const row = await this.db.oAuthClient.findUnique({
      where: { userId },
      select: { id: true, redirectUris: true, createdAt: true },
    });
    return row
      ? { exists: true, clientId: row.id, redirectUris: row.redirectUris, createdAt: row.createdAt }
      : { exists: false, clientId: null, redirectUris: null, createdAt: null };
  }

  /**
   * Issues or reissues the caller's confidential client. A reissue replaces the client id too:
   * the old client and every code and token issued to it are deleted in the same transaction.
   */
  async issueOAuthClient(userId: string, redirectUris: readonly string[]) {
    const uris = validateRedirectUris(redirectUris);
    const clientId = newId();
    const clientSecret = newSecret(CREDENTIAL_PREFIX.clientSecret);
    const row = await this.db.$transaction(async (tx) => {
      await tx.oAuthClient.deleteMany({ where: { userId } });
      return tx.oAuthClient.create({
        data: { id: clientId, userId, redirectUris: uris, secretHash: hashSecret(clientSecret) },
      });
    });
    return { clientId: row.id, clientSecret, redirectUris: row.redirectUris, createdAt: row.createdAt };
  }

  /** Deletes the caller's client (idempotent); its codes and tokens go with it. */
  async deleteOAuthClient(userId: string) {
    const { count } = await this.db.oAuthClient.deleteMany({ where: { userId } });
    return { deleted: count > 0 };
  }
}
