/**
 * Follow invitations (the invite links of the reference): one token per owner, stored as its SHA-256
 * hash and sealed for its owner (invite-seal.ts) so the owner can see it again; issuing a new one
 * retires the previous. Using a token (a follow or a request) and resolving it to its owner are the
 * follows service's (follows.service.ts), which reads the inviter here.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { badInput, notFound } from '../../errors';
import type { RateLimitPolicy } from '../../ratelimit';
import type { AreaScope } from '../area';
import { inviteKeyFromSecret, openInviteToken, sealInviteToken } from './invite-seal';

/** SHA-256 of an invitation token: the only form stored. */
export const hashInviteToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const TOKEN_RE = /^[0-9a-f]{32}$/;

/** Resolving invitation tokens, per client IP (as the reference's GET /invite/{token}: 30 a minute). */
export const INVITE_RESOLVE_LIMIT: RateLimitPolicy = { name: 'invite-resolve', max: 30, windowSeconds: 60 };

/** The owner of an invitation token: BAD_USER_INPUT when malformed, NOT_FOUND when no token matches. */
export async function inviterOf(db: Pick<Db, 'followInviteToken'>, token: string): Promise<string> {
  const t = token.trim().toLowerCase();
  if (!TOKEN_RE.test(t))
    throw badInput('Invalid invite token', [
      { code: 'invalid_string', path: ['token'], message: 'Invalid invite token' },
    ]);
  const row = await db.followInviteToken.findUnique({
    where: { tokenHash: hashInviteToken(t) },
    select: { userId: true },
  });
  if (!row) throw notFound('Invalid invite link');
  return row.userId;
}

/** The owner's invitation token: its status and issuing a new one (`ctx.services.social.invites`). */
export class InvitesService {
  constructor(private readonly s: Pick<AreaScope, 'auth' | 'config' | 'db'>) {}

  /** The key sealing invitation tokens: INVITE_TOKEN_KEY, else derived from the access-token key. */
  private inviteKey(): Buffer {
    const configured = this.s.config.inviteTokenKey;
    return configured ? inviteKeyFromSecret(configured) : this.s.auth.deriveKey('follow-invite');
  }

  /**
   * The owner's current invitation, with the working token opened from its sealed copy (null when
   * the token was issued before sealing or the key changed since: reissue to get a visible one).
   */
  async inviteStatus(ownerId: string) {
    const row = await this.s.db.followInviteToken.findUnique({
      where: { userId: ownerId },
      select: { createdAt: true, tokenSealed: true, tokenHash: true },
    });
    if (!row) return { exists: false, createdAt: null, token: null };
    const token = openInviteToken(this.inviteKey(), ownerId, row.tokenSealed);
    // a token that does not hash to the stored hash is not the working one (never shown)
    return {
      exists: true,
      createdAt: row.createdAt,
      token: token && hashInviteToken(token) === row.tokenHash ? token : null,
    };
  }

  /** Issues a new token (the previous one stops working at once): stored as its hash and sealed for its owner. */
  async issueInvite(ownerId: string) {
    const token = randomUUID().replace(/-/g, '');
    const tokenHash = hashInviteToken(token);
    const tokenSealed = sealInviteToken(this.inviteKey(), ownerId, token);
    const createdAt = new Date();
    await this.s.db.followInviteToken.upsert({
      where: { userId: ownerId },
      create: { userId: ownerId, tokenHash, tokenSealed, createdAt },
      update: { tokenHash, tokenSealed, createdAt },
    });
    return { token, createdAt };
  }
}
