import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Invitation tokens at rest: the SHA-256 hash is the lookup key (a leaked table does not give
 * working links); the token is also sealed with AES-256-GCM under the server's invite key, bound
 * to its owner (the user id is the associated data), so that the owner can be shown the same
 * working link again (`followInvite.token`). Format: `v1.<iv>.<ciphertext>.<tag>` (base64url).
 */
const VERSION = 'v1';

export function sealInviteToken(key: Buffer, ownerId: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(ownerId, 'utf8'));
  const ct = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(
    '.',
  );
}

/** The token, or null when it cannot be opened (another key, another owner, tampered, unknown format). */
export function openInviteToken(key: Buffer, ownerId: string, sealed: string | null | undefined): string | null {
  if (!sealed) return null;
  const [version, iv, ct, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !ct || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(ownerId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** 32 key bytes from INVITE_TOKEN_KEY (any string of ≥ 32 characters). */
export function inviteKeyFromSecret(secret: string): Buffer {
  return createHash('sha256').update(`bpigraph follow-invite key\0${secret}`, 'utf8').digest();
}
