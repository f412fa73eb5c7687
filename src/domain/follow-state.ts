/**
 * The follow relationship of one ordered pair (F = would-be follower, T = target), as an explicit
 * state machine. Pure: the social service loads a snapshot, asks `transition()` what to do and
 * applies the returned effects in one transaction.
 *
 * Observable parts of a pair (prisma: Follow, Follow.approvedAt, FollowRequest):
 *   follow      a Follow row F→T exists
 *   approved    that row has approvedAt (the access grant to a private T)
 *   requested   a pending FollowRequest F→T exists
 *
 * States:
 *   none               no follow, no pending request
 *   requested          no follow, a pending request (private T; or left over after T went public)
 *   following          follow without approval while T is public (access because T is public)
 *   approved-follower  follow with approval (access even while T is private)
 *   legacy-follower    follow without approval while T is private (followed while T was public,
 *                      or T went private): NO access; may also hold a pending request
 *
 * Differences from the reference system (deliberate, see docs/domain/social.md#follows):
 *   - the approval lives on the Follow row, so unfollow / force-removal revoke it (no residual
 *     approval that silently re-grants access later);
 *   - a legacy follower can unfollow;
 *   - approving twice and withdrawing nothing are errors, not silent no-ops; following someone
 *     already followed and unfollowing someone not followed succeed and change nothing (`noop`),
 *     as the reference's "Already followed" / "Already unfollowed".
 */
import { badInput, conflict, forbidden, notFound, type AppError } from '../errors';

export type FollowState = 'none' | 'requested' | 'following' | 'approved-follower' | 'legacy-follower';

export interface FollowSnapshot {
  /** F = T */
  isSelf: boolean;
  targetIsPublic: boolean;
  follow: { approvedAt: Date | null } | null;
  hasPendingRequest: boolean;
}

export function followState(s: FollowSnapshot): FollowState {
  if (!s.follow) return s.hasPendingRequest ? 'requested' : 'none';
  if (s.follow.approvedAt) return 'approved-follower';
  return s.targetIsPublic ? 'following' : 'legacy-follower';
}

/**
 * The access rule as data: F may read T's data when any of these grants holds. `hasAccess` and
 * the SQL / Prisma filters of src/db/visibility.ts are both built from this list (each grant has
 * a translation there, checked by the compiler; a property test compares them with `hasAccess`).
 * An administrator's bypass is not a grant: the rule table applies it (src/graphql/rules.ts).
 */
export const ACCESS_GRANTS = ['self', 'public-target', 'approved-follow'] as const;
export type AccessGrant = (typeof ACCESS_GRANTS)[number];

/** Does one grant hold for the pair? */
export function grantHolds(grant: AccessGrant, s: FollowSnapshot): boolean {
  switch (grant) {
    case 'self':
      return s.isSelf;
    case 'public-target':
      return s.targetIsPublic;
    case 'approved-follow':
      return followState(s) === 'approved-follower';
  }
}

/** Can F read T's data? (self, public target, or approved follower) */
export function hasAccess(s: FollowSnapshot): boolean {
  return ACCESS_GRANTS.some((g) => grantHolds(g, s));
}

export type FollowAction =
  /** F follows T directly (public targets only). */
  | 'FOLLOW'
  /** F unfollows T. */
  | 'UNFOLLOW'
  /** F uses T's invitation token. */
  | 'REQUEST'
  /** F withdraws the pending request. */
  | 'WITHDRAW'
  /** T approves F's pending request. */
  | 'APPROVE_REQUEST'
  /** T rejects F's pending request (silent). */
  | 'REJECT_REQUEST'
  /** T retroactively approves an existing follower without approval (legacy). */
  | 'APPROVE_FOLLOWER'
  /** T removes follower F. */
  | 'REMOVE_FOLLOWER';

export type FollowEffect =
  | 'CREATE_FOLLOW' // Follow row, approvedAt null
  | 'CREATE_APPROVED_FOLLOW' // Follow row with approvedAt (upsert: approves an existing row)
  | 'SET_APPROVED' // set approvedAt on the existing row
  | 'DELETE_FOLLOW' // delete the Follow row (and with it the approval)
  | 'REMOVE_FROM_LISTS' // remove T from F's follow lists
  | 'CREATE_REQUEST'
  | 'DELETE_REQUEST'
  | 'NOTIFY_NEW_FOLLOWER' // T gets NEW_FOLLOWER (actor F)
  | 'NOTIFY_FOLLOW_REQUEST' // T gets FOLLOW_REQUEST (actor F)
  | 'NOTIFY_FOLLOW_APPROVED' // F gets FOLLOW_APPROVED (actor T)
  | 'EMIT_FOLLOWED'; // domain event social.followed after commit

export interface Transition {
  from: FollowState;
  to: FollowState;
  /** Whether the target still has a pending request after the transition. */
  pendingRequest: boolean;
  effects: FollowEffect[];
  /** True when nothing changes (idempotent repeat of REQUEST, FOLLOW, UNFOLLOW). */
  noop: boolean;
}

const PRIVATE_MESSAGE = 'This profile is private: open their invitation link and send a follow request';

/**
 * The one table of legal transitions. Throws a domain error (BAD_USER_INPUT / CONFLICT /
 * FORBIDDEN / NOT_FOUND) for an illegal one.
 */
export function transition(s: FollowSnapshot, action: FollowAction): Transition {
  const from = followState(s);
  const done = (to: FollowState, effects: FollowEffect[], pendingRequest = false): Transition => ({
    from,
    to,
    effects,
    pendingRequest,
    noop: effects.length === 0,
  });
  const fail = (e: AppError): never => {
    throw e;
  };
  if (s.isSelf) fail(badInput('You cannot follow yourself'));

  switch (action) {
    case 'FOLLOW':
      // already following (with or without approval): succeeds and changes nothing, as the
      // reference's "Already followed" (docs/domain/social.md#follows)
      if (s.follow) return done(from, [], s.hasPendingRequest);
      if (!s.targetIsPublic) return fail(forbidden(PRIVATE_MESSAGE));
      // none | requested (a request left from a private period): the follow supersedes it
      return done('following', [
        ...(s.hasPendingRequest ? (['DELETE_REQUEST'] as const) : []),
        'CREATE_FOLLOW',
        'NOTIFY_NEW_FOLLOWER',
        'EMIT_FOLLOWED',
      ]);

    case 'UNFOLLOW':
      // not following: succeeds and changes nothing ("Already unfollowed"); a pending request stays
      if (!s.follow) return done(from, [], s.hasPendingRequest);
      return done(
        s.hasPendingRequest ? 'requested' : 'none',
        ['DELETE_FOLLOW', 'REMOVE_FROM_LISTS'],
        s.hasPendingRequest,
      );

    case 'REQUEST':
      if (s.targetIsPublic) {
        // An invitation to a public player is a follow; repeated use is safe.
        if (s.follow) return done(from, [], s.hasPendingRequest);
        return done('following', [
          ...(s.hasPendingRequest ? (['DELETE_REQUEST'] as const) : []),
          'CREATE_FOLLOW',
          'NOTIFY_NEW_FOLLOWER',
          'EMIT_FOLLOWED',
        ]);
      }
      if (from === 'approved-follower') return done(from, []);
      // none → requested; legacy-follower keeps its follow and gains a request; repeats keep the first request
      if (s.hasPendingRequest) return done(from, [], true);
      return done(
        from === 'legacy-follower' ? 'legacy-follower' : 'requested',
        ['CREATE_REQUEST', 'NOTIFY_FOLLOW_REQUEST'],
        true,
      );

    case 'WITHDRAW':
      if (!s.hasPendingRequest) return fail(conflict('No pending follow request to withdraw'));
      return done(s.follow ? from : 'none', ['DELETE_REQUEST']);

    case 'APPROVE_REQUEST':
      if (!s.hasPendingRequest) return fail(notFound('Request not found'));
      return done('approved-follower', [
        'DELETE_REQUEST',
        'CREATE_APPROVED_FOLLOW',
        'NOTIFY_FOLLOW_APPROVED',
        ...(s.follow ? [] : (['EMIT_FOLLOWED'] as const)),
      ]);

    case 'REJECT_REQUEST':
      if (!s.hasPendingRequest) return fail(notFound('Request not found'));
      // silent; an existing (legacy) follow is untouched
      return done(s.follow ? from : 'none', ['DELETE_REQUEST']);

    case 'APPROVE_FOLLOWER':
      if (!s.follow) return fail(notFound('Follower not found'));
      if (s.follow.approvedAt) return fail(conflict('This follower is already approved'));
      return done('approved-follower', [
        ...(s.hasPendingRequest ? (['DELETE_REQUEST'] as const) : []),
        'SET_APPROVED',
        'NOTIFY_FOLLOW_APPROVED',
      ]);

    case 'REMOVE_FOLLOWER':
      if (!s.follow) return fail(notFound('Follower not found'));
      // not a block: a pending request stays, F may ask again through the invitation
      return done(
        s.hasPendingRequest ? 'requested' : 'none',
        ['DELETE_FOLLOW', 'REMOVE_FROM_LISTS'],
        s.hasPendingRequest,
      );
  }
}
