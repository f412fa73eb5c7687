import { inOrder } from '../../db/in-order';
import {
  followState,
  transition,
  type FollowAction,
  type FollowSnapshot,
  type FollowState,
  type Transition,
} from '../../domain/follow-state';
import { badInput, notFound } from '../../errors';
import type { Prisma } from '../../generated/prisma/client';
import { keyset } from '../../graphql/args';
import { keyCursor, keysetConnection, prismaKeyset, type Page } from '../../graphql/connection';
import { viewerId } from '../../graphql/context';
import type { AreaScope } from '../area';
import { INVITE_RESOLVE_LIMIT, inviterOf } from './invites.service';
import { publishNotifications } from './notifications.service';

type Tx = Prisma.TransactionClient;

/** Cursor kinds of outgoing requests: [createdAt, request id]; of pending followers: [part (0 request, 1 legacy follow), createdAt, request id or follower id]. */
const OUTGOING_KEY = ['time', 'int'] as const;
const PENDING_KEY = ['int', 'time', 'str'] as const;

export interface FollowResult {
  followerId: string;
  followingId: string;
  state: FollowState;
  pendingRequest: boolean;
  /** False when the operation changed nothing (following again, unfollowing nobody, repeated request). */
  changed: boolean;
}

export interface PendingFollowerRow {
  kind: 'REQUEST' | 'LEGACY';
  requestId: number | null;
  requesterId: string;
  createdAt: Date;
}

/**
 * Follows, follow requests, invitations used (the tokens: invites.service.ts): loads the pair's snapshot, asks the state machine
 * (src/domain/follow-state.ts) and applies its effects in one transaction; notifications are
 * published and 'social.followed' emitted after the commit.
 */
export class FollowsService {
  constructor(private readonly s: Pick<AreaScope, 'ctx' | 'db' | 'events' | 'pubsub' | 'rateLimiter' | 'viewer'>) {}

  private get db() {
    return this.s.db;
  }

  /** The pair's snapshot inside a transaction; NOT_FOUND when either user does not exist. */
  private async snapshot(tx: Tx, followerId: string, targetId: string): Promise<FollowSnapshot> {
    const [target, follower, follow, request] = await inOrder([
      tx.user.findUnique({ where: { id: targetId }, select: { isPublic: true } }),
      tx.user.findUnique({ where: { id: followerId }, select: { id: true } }),
      tx.follow.findUnique({
        where: { followerId_followingId: { followerId, followingId: targetId } },
        select: { approvedAt: true },
      }),
      tx.followRequest.findUnique({
        where: { requesterId_targetId: { requesterId: followerId, targetId } },
        select: { id: true },
      }),
    ]);
    if (!target || !follower) throw notFound('User not found');
    return { isSelf: followerId === targetId, targetIsPublic: target.isPublic, follow, hasPendingRequest: !!request };
  }

  /** Runs one action for the pair in one transaction, then publishes / emits. */
  private async act(
    followerId: string,
    targetId: string,
    action: FollowAction,
    guard?: (tx: Tx) => Promise<void>,
  ): Promise<FollowResult & { transition: Transition }> {
    const { t, notificationIds } = await this.db.$transaction(async (tx) => {
      // one action at a time per pair (a transaction advisory lock): the snapshot stays true until
      // the commit, so two unfollows at once do not both report `changed` (nor two follows)
      await tx.$queryRaw`SELECT 1 AS ok FROM (SELECT pg_advisory_xact_lock(hashtext(${followerId}), hashtext(${targetId}))) AS l`;
      if (guard) await guard(tx);
      const snap = await this.snapshot(tx, followerId, targetId);
      const t = transition(snap, action);
      const notificationIds = await this.apply(tx, followerId, targetId, t, action);
      return { t, notificationIds };
    });
    publishNotifications(this.s, notificationIds);
    if (t.effects.includes('EMIT_FOLLOWED')) {
      this.s.events.emit('social.followed', {
        followerId,
        followingId: targetId,
        approved: t.to === 'approved-follower',
      });
    }
    return {
      followerId,
      followingId: targetId,
      state: t.to,
      pendingRequest: t.pendingRequest,
      changed: !t.noop,
      transition: t,
    };
  }

  private async apply(tx: Tx, followerId: string, followingId: string, t: Transition, action: FollowAction) {
    const pair = { followerId_followingId: { followerId, followingId } };
    const notifications: {
      recipientId: string;
      actorId: string;
      type: 'NEW_FOLLOWER' | 'FOLLOW_REQUEST' | 'FOLLOW_APPROVED';
    }[] = [];
    const now = new Date();
    for (const e of t.effects) {
      switch (e) {
        case 'DELETE_REQUEST': {
          const { count } = await tx.followRequest.deleteMany({
            where: { requesterId: followerId, targetId: followingId },
          });
          // consumed by a concurrent action: the approve / reject did not happen
          if (count === 0 && (action === 'APPROVE_REQUEST' || action === 'REJECT_REQUEST' || action === 'WITHDRAW')) {
            throw notFound('Request not found');
          }
          if (action === 'WITHDRAW') {
            await tx.notification.deleteMany({
              where: { recipientId: followingId, actorId: followerId, type: 'FOLLOW_REQUEST' },
            });
          }
          break;
        }
        case 'CREATE_REQUEST': {
          // a concurrent duplicate is a no-op (and notifies once)
          const { count } = await tx.followRequest.createMany({
            data: [{ requesterId: followerId, targetId: followingId }],
            skipDuplicates: true,
          });
          if (count === 0) return [];
          break;
        }
        case 'CREATE_FOLLOW': {
          // a concurrent follow of the same pair won: this one changes nothing (and notifies nothing)
          const { count } = await tx.follow.createMany({ data: [{ followerId, followingId }], skipDuplicates: true });
          if (count === 0) return [];
          break;
        }
        case 'CREATE_APPROVED_FOLLOW':
          await tx.follow.upsert({
            where: pair,
            create: { followerId, followingId, approvedAt: now },
            update: { approvedAt: now },
          });
          break;
        case 'SET_APPROVED':
          await tx.follow.update({ where: pair, data: { approvedAt: now } });
          break;
        case 'DELETE_FOLLOW':
          await tx.follow.deleteMany({ where: { followerId, followingId } });
          // as in the reference, the "new follower" item goes with the follow (no follow/unfollow spam)
          await tx.notification.deleteMany({
            where: { recipientId: followingId, actorId: followerId, type: 'NEW_FOLLOWER' },
          });
          break;
        case 'REMOVE_FROM_LISTS':
          await tx.followListMember.deleteMany({ where: { userId: followingId, list: { ownerId: followerId } } });
          break;
        case 'NOTIFY_NEW_FOLLOWER':
          notifications.push({ recipientId: followingId, actorId: followerId, type: 'NEW_FOLLOWER' });
          break;
        case 'NOTIFY_FOLLOW_REQUEST':
          notifications.push({ recipientId: followingId, actorId: followerId, type: 'FOLLOW_REQUEST' });
          break;
        case 'NOTIFY_FOLLOW_APPROVED':
          notifications.push({ recipientId: followerId, actorId: followingId, type: 'FOLLOW_APPROVED' });
          break;
        case 'EMIT_FOLLOWED':
          break;
      }
    }
    if (!notifications.length) return [];
    const rows = await tx.notification.createManyAndReturn({
      data: notifications,
      select: { id: true, recipientId: true },
    });
    return rows;
  }

  // ---- follower side -------------------------------------------------------------------------

  follow(targetId: string) {
    return this.act(viewerId(this.s), targetId, 'FOLLOW');
  }

  unfollow(targetId: string) {
    return this.act(viewerId(this.s), targetId, 'UNFOLLOW');
  }

  /** Uses an invitation token: a follow (public inviter) or a pending request (private inviter). */
  async sendRequest(token: string) {
    const me = viewerId(this.s);
    const inviterId = await inviterOf(this.db, token);
    const r = await this.act(me, inviterId, 'REQUEST');
    const status = r.state === 'following' || r.state === 'approved-follower' ? 'FOLLOWED' : 'REQUESTED';
    return { ...r, status: status, targetId: inviterId };
  }

  withdrawRequest(targetId: string) {
    return this.act(viewerId(this.s), targetId, 'WITHDRAW');
  }

  async outgoingRequests(
    ownerId: string,
    first?: number | null,
    after?: string | null,
  ): Promise<Page<{ id: number; targetId: string; createdAt: Date }>> {
    const tag = 'outgoingFollowRequests';
    const ks = keyset({ first, after }, tag, OUTGOING_KEY);
    const where = { requesterId: ownerId };
    const q = prismaKeyset(ks, [
      ['createdAt', 'desc'],
      ['id', 'desc'],
    ]);
    const [rows, total] = await Promise.all([
      this.db.followRequest.findMany({ where: { ...where, ...q.where }, orderBy: q.orderBy, take: q.take }),
      this.db.followRequest.count({ where }),
    ]);
    return keysetConnection(
      rows.map((r) => ({ id: r.id, targetId: r.targetId, createdAt: r.createdAt })),
      ks,
      (r) => keyCursor(tag, OUTGOING_KEY, [r.createdAt, r.id]),
      total,
    );
  }

  // ---- owner side ----------------------------------------------------------------------------

  private async requestOf(ownerId: string, requestId: number) {
    const req = await this.db.followRequest.findFirst({
      where: { id: requestId, targetId: ownerId },
      select: { requesterId: true },
    });
    if (!req) throw notFound('Request not found');
    return req.requesterId;
  }

  async approveRequest(ownerId: string, requestId: number) {
    return this.act(await this.requestOf(ownerId, requestId), ownerId, 'APPROVE_REQUEST');
  }

  async rejectRequest(ownerId: string, requestId: number) {
    return this.act(await this.requestOf(ownerId, requestId), ownerId, 'REJECT_REQUEST');
  }

  approveFollower(ownerId: string, followerId: string) {
    return this.act(followerId, ownerId, 'APPROVE_FOLLOWER');
  }

  removeFollower(ownerId: string, followerId: string) {
    return this.act(followerId, ownerId, 'REMOVE_FOLLOWER');
  }

  /**
   * Requests addressed to the owner, oldest first, then (only while the owner is private)
   * followers without approval ("legacy"); a legacy follower with a request appears once, as REQUEST.
   */
  async pendingFollowers(
    ownerId: string,
    first?: number | null,
    after?: string | null,
  ): Promise<Page<PendingFollowerRow>> {
    const tag = 'pendingFollowers';
    const ks = keyset({ first, after }, tag, PENDING_KEY);
    const [part, at, tie] = ks.key ?? [0, new Date(0), ''];
    const badPart = part !== 0 && part !== 1;
    if (ks.key && (badPart || (part === 0 && !/^\d{1,10}$/.test(tie))))
      throw badInput('Invalid cursor', [{ code: 'invalid_cursor', path: ['after'], message: 'Invalid cursor' }]);
    const owner = await this.db.user.findUnique({ where: { id: ownerId }, select: { isPublic: true } });
    if (!owner) throw notFound('User not found');
    const legacyWhere = {
      followingId: ownerId,
      approvedAt: null,
      follower: { sentRequests: { none: { targetId: ownerId } } },
    };
    const [requestCount, legacyCount] = await Promise.all([
      this.db.followRequest.count({ where: { targetId: ownerId } }),
      owner.isPublic ? 0 : this.db.follow.count({ where: legacyWhere }),
    ]);
    const size = ks.size;
    const rows: PendingFollowerRow[] = [];
    if (part === 0) {
      const q = prismaKeyset({ ...ks, key: ks.key ? ([at, Number(tie)] as const) : null }, [
        ['createdAt', 'asc'],
        ['id', 'asc'],
      ]);
      const reqs = await this.db.followRequest.findMany({
        where: { targetId: ownerId, ...q.where },
        orderBy: q.orderBy,
        take: q.take,
      });
      rows.push(
        ...reqs.map((r) => ({
          kind: 'REQUEST' as const,
          requestId: r.id,
          requesterId: r.requesterId,
          createdAt: r.createdAt,
        })),
      );
    }
    if (rows.length <= size && legacyCount > 0) {
      const q = prismaKeyset({ ...ks, key: part === 1 ? ([at, tie] as const) : null }, [
        ['createdAt', 'asc'],
        ['followerId', 'asc'],
      ]);
      const legacy = await this.db.follow.findMany({
        where: { ...legacyWhere, ...q.where },
        orderBy: q.orderBy,
        take: size + 1 - rows.length,
      });
      rows.push(
        ...legacy.map((f) => ({
          kind: 'LEGACY' as const,
          requestId: null,
          requesterId: f.followerId,
          createdAt: f.createdAt,
        })),
      );
    }
    return keysetConnection(
      rows,
      ks,
      (r) =>
        keyCursor(
          tag,
          PENDING_KEY,
          r.kind === 'REQUEST' ? [0, r.createdAt, String(r.requestId)] : [1, r.createdAt, r.requesterId],
        ),
      requestCount + legacyCount,
    );
  }

  // ---- invitations (the tokens themselves: invites.service.ts) --------------------------------

  /** Resolves a token to its owner (rate limited per IP; one indexed lookup + the viewer's flags). */
  async resolveInvite(token: string) {
    const viewerId = this.s.viewer?.id ?? null;
    await this.s.rateLimiter.consume(INVITE_RESOLVE_LIMIT, this.s.ctx.ip || 'unknown');
    const inviterId = await inviterOf(this.db, token);
    const base = {
      type: 'follow',
      inviterId,
      isSelf: viewerId === inviterId,
      isFollowing: false,
      hasPendingRequest: false,
    };
    if (!viewerId || viewerId === inviterId) return base;
    const snap = await this.snapshot(this.db, viewerId, inviterId);
    const state = followState(snap);
    return {
      ...base,
      isFollowing: state === 'approved-follower' || state === 'following',
      hasPendingRequest: snap.hasPendingRequest,
    };
  }
}
