import crypto from 'node:crypto';

/**
 * Secrets at rest: every credential we hand out (API keys, client secrets, authorization codes,
 * access and refresh tokens) is a high-entropy random string shown once and stored only as its
 * SHA-256 hash. A lookup hashes the presented value and finds the row by the hash.
 */

/** A fresh random credential: `<prefix>_` + 32 random bytes, base64url (43 characters). */
export function newSecret(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(32).toString('base64url')}`;
}

/** A random public identifier (client ids): 16 bytes, hex. */
export function newId(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** SHA-256, hex: the only form in which a credential is stored. */
export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison; false when the lengths differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** Last four characters, for display ("****abcd"). */
export const hintOf = (secret: string) => secret.slice(-4);

/** PKCE S256 (RFC 7636 §4.2): BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
export function pkceChallenge(verifier: string): string {
  return crypto.createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function verifyPkce(verifier: string, challenge: string): boolean {
  return PKCE_VERIFIER.test(verifier) && safeEqual(pkceChallenge(verifier), challenge);
}

/**
 * Redirect URI rules (RFC 6749 §3.1.2, RFC 8252 §7.3): absolute https URLs, or http only for
 * loopback hosts (localhost, 127.0.0.1, [::1]); no fragment; no credentials. Returns the
 * problem, or null when the URI is acceptable.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > 2000) return 'redirect URI too long (at most 2000 characters)';
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URL`;
  }
  if (uri.includes('#')) return `"${uri}" must not contain a fragment`;
  if (u.username || u.password) return `"${uri}" must not contain credentials`;
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && (u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]'))
    return null;
  if (u.protocol === 'http:') return `"${uri}" must use https (http is allowed only for localhost and 127.0.0.1)`;
  return `"${uri}" must be an https URL`;
}

export const MAX_REDIRECT_URIS = 10;

/** Checks a client's list of redirect URIs (1–10, each acceptable): the first problem, or null. */
export function redirectUrisProblem(uris: readonly string[]): { message: string; index?: number } | null {
  if (uris.length === 0) return { message: 'At least one redirect URI is required' };
  if (uris.length > MAX_REDIRECT_URIS) return { message: `At most ${MAX_REDIRECT_URIS} redirect URIs` };
  for (const [index, uri] of uris.entries()) {
    const message = redirectUriProblem(uri);
    if (message) return { message, index };
  }
  return null;
}
