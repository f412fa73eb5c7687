import { randomBytes } from 'node:crypto';
import { inviteKeyFromSecret, openInviteToken, sealInviteToken } from '../../src/modules/social/invite-seal';

describe('invitation token sealing (AES-256-GCM, bound to the owner)', () => {
  const key = inviteKeyFromSecret('a'.repeat(32));
  const token = '0123456789abcdef0123456789abcdef';

  it('opens what it sealed, for the same owner and key only', () => {
    const sealed = sealInviteToken(key, 'owner-1', token);
    expect(openInviteToken(key, 'owner-1', sealed)).toBe(token);
    expect(openInviteToken(key, 'owner-2', sealed)).toBeNull();
    expect(openInviteToken(inviteKeyFromSecret('b'.repeat(32)), 'owner-1', sealed)).toBeNull();
    expect(openInviteToken(randomBytes(32), 'owner-1', sealed)).toBeNull();
  });

  it('a fresh IV every time; tampering and unknown formats open to null', () => {
    const a = sealInviteToken(key, 'o', token);
    const b = sealInviteToken(key, 'o', token);
    expect(a).not.toBe(b);
    const [v, iv, ct, tag] = a.split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] ^= 1;
    expect(openInviteToken(key, 'o', [v, iv, flipped.toString('base64url'), tag].join('.'))).toBeNull();
    expect(openInviteToken(key, 'o', ['v2', iv, ct, tag].join('.'))).toBeNull();
    expect(openInviteToken(key, 'o', 'garbage')).toBeNull();
    expect(openInviteToken(key, 'o', null)).toBeNull();
  });

  it('derives different 32-byte keys from different secrets', () => {
    expect(key).toHaveLength(32);
    expect(inviteKeyFromSecret('x'.repeat(32)).equals(inviteKeyFromSecret('y'.repeat(32)))).toBe(false);
  });
});
