import {
  followState,
  hasAccess,
  transition,
  type FollowAction,
  type FollowSnapshot,
} from '../../src/domain/follow-state';
import { AppError } from '../../src/errors';

const snap = (over: Partial<FollowSnapshot> = {}): FollowSnapshot => ({
  isSelf: false,
  targetIsPublic: true,
  follow: null,
  hasPendingRequest: false,
  ...over,
});
const approved = { approvedAt: new Date('2026-01-01T00:00:00Z') };
const plain = { approvedAt: null };

const S = {
  none: snap(),
  following: snap({ follow: plain }),
  requested: snap({ targetIsPublic: false, hasPendingRequest: true }),
  approvedPrivate: snap({ targetIsPublic: false, follow: approved }),
  legacy: snap({ targetIsPublic: false, follow: plain }),
  legacyRequested: snap({ targetIsPublic: false, follow: plain, hasPendingRequest: true }),
  nonePrivate: snap({ targetIsPublic: false }),
};

function code(s: FollowSnapshot, a: FollowAction): string {
  try {
    transition(s, a);
    return 'OK';
  } catch (e) {
    return (e as AppError).code;
  }
}

describe('follow state machine', () => {
  it('derives the five states', () => {
    expect(followState(S.none)).toBe('none');
    expect(followState(S.following)).toBe('following');
    expect(followState(S.requested)).toBe('requested');
    expect(followState(S.approvedPrivate)).toBe('approved-follower');
    expect(followState(snap({ follow: approved }))).toBe('approved-follower');
    expect(followState(S.legacy)).toBe('legacy-follower');
  });

  it('grants access to public targets and approved followers only', () => {
    expect(hasAccess(S.none)).toBe(true);
    expect(hasAccess(S.approvedPrivate)).toBe(true);
    expect(hasAccess(S.legacy)).toBe(false);
    expect(hasAccess(S.requested)).toBe(false);
    expect(hasAccess(S.nonePrivate)).toBe(false);
    expect(hasAccess(snap({ isSelf: true, targetIsPublic: false }))).toBe(true);
  });

  it('legal transitions and their effects', () => {
    expect(transition(S.none, 'FOLLOW')).toMatchObject({
      to: 'following',
      effects: ['CREATE_FOLLOW', 'NOTIFY_NEW_FOLLOWER', 'EMIT_FOLLOWED'],
    });
    expect(transition(S.following, 'UNFOLLOW')).toMatchObject({
      to: 'none',
      effects: ['DELETE_FOLLOW', 'REMOVE_FROM_LISTS'],
    });
    expect(transition(S.legacy, 'UNFOLLOW')).toMatchObject({ to: 'none' });
    expect(transition(S.nonePrivate, 'REQUEST')).toMatchObject({
      to: 'requested',
      effects: ['CREATE_REQUEST', 'NOTIFY_FOLLOW_REQUEST'],
      pendingRequest: true,
    });
    expect(transition(S.requested, 'REQUEST')).toMatchObject({ to: 'requested', noop: true });
    expect(transition(S.legacy, 'REQUEST')).toMatchObject({
      to: 'legacy-follower',
      effects: ['CREATE_REQUEST', 'NOTIFY_FOLLOW_REQUEST'],
    });
    expect(transition(S.approvedPrivate, 'REQUEST')).toMatchObject({ to: 'approved-follower', noop: true });
    expect(transition(S.none, 'REQUEST')).toMatchObject({
      to: 'following',
      effects: ['CREATE_FOLLOW', 'NOTIFY_NEW_FOLLOWER', 'EMIT_FOLLOWED'],
    });
    expect(transition(S.following, 'REQUEST')).toMatchObject({ to: 'following', noop: true });
    expect(transition(S.requested, 'WITHDRAW')).toMatchObject({ to: 'none', effects: ['DELETE_REQUEST'] });
    expect(transition(S.legacyRequested, 'WITHDRAW')).toMatchObject({ to: 'legacy-follower' });
    expect(transition(S.requested, 'APPROVE_REQUEST')).toMatchObject({
      to: 'approved-follower',
      effects: ['DELETE_REQUEST', 'CREATE_APPROVED_FOLLOW', 'NOTIFY_FOLLOW_APPROVED', 'EMIT_FOLLOWED'],
    });
    expect(transition(S.legacyRequested, 'APPROVE_REQUEST').effects).not.toContain('EMIT_FOLLOWED');
    expect(transition(S.requested, 'REJECT_REQUEST')).toMatchObject({ to: 'none', effects: ['DELETE_REQUEST'] });
    expect(transition(S.legacyRequested, 'REJECT_REQUEST')).toMatchObject({ to: 'legacy-follower' });
    expect(transition(S.legacy, 'APPROVE_FOLLOWER')).toMatchObject({
      to: 'approved-follower',
      effects: ['SET_APPROVED', 'NOTIFY_FOLLOW_APPROVED'],
    });
    expect(transition(S.legacyRequested, 'APPROVE_FOLLOWER').effects[0]).toBe('DELETE_REQUEST');
    expect(transition(S.following, 'APPROVE_FOLLOWER')).toMatchObject({ to: 'approved-follower' });
    expect(transition(S.approvedPrivate, 'REMOVE_FOLLOWER')).toMatchObject({
      to: 'none',
      effects: ['DELETE_FOLLOW', 'REMOVE_FROM_LISTS'],
    });
    expect(transition(S.legacyRequested, 'REMOVE_FOLLOWER')).toMatchObject({ to: 'requested', pendingRequest: true });
  });

  it('following again and unfollowing nobody succeed and change nothing (reference: "Already followed" / "Already unfollowed")', () => {
    expect(transition(S.following, 'FOLLOW')).toMatchObject({
      from: 'following',
      to: 'following',
      effects: [],
      noop: true,
    });
    expect(transition(S.legacy, 'FOLLOW')).toMatchObject({ to: 'legacy-follower', noop: true });
    expect(transition(S.approvedPrivate, 'FOLLOW')).toMatchObject({ to: 'approved-follower', noop: true });
    expect(transition(S.legacyRequested, 'FOLLOW')).toMatchObject({
      to: 'legacy-follower',
      noop: true,
      pendingRequest: true,
    });
    expect(transition(S.none, 'UNFOLLOW')).toMatchObject({ from: 'none', to: 'none', effects: [], noop: true });
    expect(transition(S.nonePrivate, 'UNFOLLOW')).toMatchObject({ to: 'none', noop: true });
    // a pending request is not a follow: unfollow leaves it alone (withdrawFollowRequest removes it)
    expect(transition(S.requested, 'UNFOLLOW')).toMatchObject({ to: 'requested', noop: true, pendingRequest: true });
  });

  it('every illegal transition is a clear error', () => {
    expect(code(snap({ isSelf: true }), 'FOLLOW')).toBe('BAD_USER_INPUT');
    expect(code(snap({ isSelf: true }), 'REQUEST')).toBe('BAD_USER_INPUT');
    expect(code(S.nonePrivate, 'FOLLOW')).toBe('FORBIDDEN');
    expect(code(S.requested, 'FOLLOW')).toBe('FORBIDDEN');
    expect(code(S.none, 'WITHDRAW')).toBe('CONFLICT');
    expect(code(S.none, 'APPROVE_REQUEST')).toBe('NOT_FOUND');
    expect(code(S.legacy, 'REJECT_REQUEST')).toBe('NOT_FOUND');
    expect(code(S.none, 'APPROVE_FOLLOWER')).toBe('NOT_FOUND');
    expect(code(S.approvedPrivate, 'APPROVE_FOLLOWER')).toBe('CONFLICT');
    expect(code(S.requested, 'REMOVE_FOLLOWER')).toBe('NOT_FOUND');
  });
});
