import type { Notification, Prisma } from '../../generated/prisma/client';
import type { NotificationType as NotificationTypeValue } from '../../generated/prisma/enums';
import { visibleUser, visibleUserWhere } from '../../db/visibility';
import { keyset } from '../../graphql/args';
import { keyCursor, keysetConnection, prismaKeyset, type Page } from '../../graphql/connection';

/** Cursor kinds of notifications: [createdAt, id]. */
const NOTIFICATION_KEY = ['time', 'int'] as const;
import type { AreaDeps, AreaScope } from '../area';

/** The unread badge and its parts (unreadNotificationSummary). */
export interface UnreadSummary {
  total: number;
  notifications: number;
  newFollowers: number;
  overtaken: number;
  followApproved: number;
  pendingRequests: number;
  legacyFollowers: number;
}

export interface NotificationRow {
  id: number;
  type: NotificationTypeValue;
  createdAt: Date;
  read: boolean;
  actorId: string | null;
  chartId: number | null;
  version: string | null;
  actorExScore: number | null;
  myExScore: number | null;
}

/** Publishes committed notifications to their recipients' subscriptions. */
export function publishNotifications(app: Pick<AreaDeps, 'pubsub'>, rows: { id: number; recipientId: string }[]): void {
  for (const r of rows) app.pubsub.publish('NOTIFICATION_ADDED', r.recipientId, { id: r.id });
}

/**
 * What a recipient may see: every notification addressed to them, except OVERTAKEN ones whose
 * actor is private and has not approved the recipient (a notification row stores the actor's
 * score: it must not outlive the access to it, e.g. after the actor went private).
 */
export function visibleWhere(viewerId: string, type?: NotificationTypeValue | null): Prisma.NotificationWhereInput {
  return {
    recipientId: viewerId,
    ...(type ? { type } : {}),
    OR: [{ type: { not: 'OVERTAKEN' } }, { actor: visibleUserWhere(viewerId) }],
  };
}

export function toRow(n: Notification, lastReadAt: Date | null): NotificationRow {
  const data = (n.data ?? {}) as { actorExScore?: number; myExScore?: number };
  return {
    id: n.id,
    type: n.type,
    createdAt: n.createdAt,
    read: !!lastReadAt && n.createdAt <= lastReadAt,
    actorId: n.actorId,
    chartId: n.chartId,
    version: n.version,
    actorExScore: typeof data.actorExScore === 'number' ? data.actorExScore : null,
    myExScore: typeof data.myExScore === 'number' ? data.myExScore : null,
  };
}

export class NotificationsService {
  constructor(private readonly s: Pick<AreaScope, 'db'>) {}

  private get db() {
    return this.s.db;
  }

  private async lastReadAt(viewerId: string): Promise<Date | null> {
    const s = await this.db.notificationReadState.findUnique({
      where: { userId: viewerId },
      select: { lastReadAt: true },
    });
    return s?.lastReadAt ?? null;
  }

  /** Newest first, cursor over (createdAt, id). */
  async list(
    viewerId: string,
    type: NotificationTypeValue | null | undefined,
    first?: number | null,
    after?: string | null,
  ): Promise<Page<NotificationRow>> {
    const ks = keyset({ first, after }, 'notifications', NOTIFICATION_KEY);
    const base = visibleWhere(viewerId, type);
    const q = prismaKeyset(ks, [
      ['createdAt', 'desc'],
      ['id', 'desc'],
    ]);
    const [rows, totalCount, lastReadAt] = await Promise.all([
      this.db.notification.findMany({ where: { AND: [base, q.where] }, orderBy: q.orderBy, take: q.take }),
      this.db.notification.count({ where: base }),
      this.lastReadAt(viewerId),
    ]);
    return keysetConnection(
      rows.map((n) => toRow(n, lastReadAt)),
      ks,
      (n) => keyCursor('notifications', NOTIFICATION_KEY, [n.createdAt, n.id]),
      totalCount,
    );
  }

  /** One notification of the viewer (null when not theirs or not visible to them any more). */
  async byId(viewerId: string, id: number): Promise<NotificationRow | null> {
    const [n, lastReadAt] = await Promise.all([
      this.db.notification.findFirst({ where: { AND: [{ id }, visibleWhere(viewerId)] } }),
      this.lastReadAt(viewerId),
    ]);
    return n ? toRow(n, lastReadAt) : null;
  }

  /**
   * The badge, as the reference counts it (docs/domain/social.md#notifications), in one SQL statement:
   * notifications after the read watermark (new followers, rivals passing you, approvals; the
   * FOLLOW_REQUEST items are not counted here — the requests are), plus every pending request
   * addressed to you (until acted on, whatever the watermark), plus, while you are private, every
   * follower without approval ("legacy"; one with a pending request counts once, as a request —
   * as in incomingFollowRequests). Marking read leaves the last two.
   */
  async unreadSummary(viewerId: string): Promise<UnreadSummary> {
    const rows = await this.db.$queryRaw<Omit<UnreadSummary, 'total' | 'notifications'>[]>`
      SELECT
        count(*) FILTER (WHERE n."type" = 'NEW_FOLLOWER')::int AS "newFollowers",
        count(*) FILTER (WHERE n."type" = 'OVERTAKEN')::int AS "overtaken",
        count(*) FILTER (WHERE n."type" = 'FOLLOW_APPROVED')::int AS "followApproved",
        (SELECT count(*)::int FROM "FollowRequest" q WHERE q."targetId" = ${viewerId}) AS "pendingRequests",
        (SELECT count(*)::int
           FROM "Follow" f JOIN "User" o ON o."id" = f."followingId"
          WHERE f."followingId" = ${viewerId} AND NOT o."isPublic" AND f."approvedAt" IS NULL
            AND NOT EXISTS (SELECT 1 FROM "FollowRequest" q WHERE q."requesterId" = f."followerId" AND q."targetId" = ${viewerId})) AS "legacyFollowers"
      FROM "Notification" n
      WHERE n."recipientId" = ${viewerId}
        AND n."type" <> 'FOLLOW_REQUEST'
        AND n."createdAt" > COALESCE((SELECT r."lastReadAt" FROM "NotificationReadState" r WHERE r."userId" = ${viewerId}), '-infinity'::timestamp)
        AND (n."type" <> 'OVERTAKEN'
          OR EXISTS (SELECT 1 FROM "User" a WHERE a."id" = n."actorId" AND ${visibleUser(viewerId, 'a')}))`;
    const r = rows[0] ?? { newFollowers: 0, overtaken: 0, followApproved: 0, pendingRequests: 0, legacyFollowers: 0 };
    const parts = {
      newFollowers: Number(r.newFollowers),
      overtaken: Number(r.overtaken),
      followApproved: Number(r.followApproved),
      pendingRequests: Number(r.pendingRequests),
      legacyFollowers: Number(r.legacyFollowers),
    };
    const notifications = parts.newFollowers + parts.overtaken + parts.followApproved;
    return { ...parts, notifications, total: notifications + parts.pendingRequests + parts.legacyFollowers };
  }

  /** The badge's total (unreadSummary().total): one SQL statement, cheap enough to poll. */
  async unreadCount(viewerId: string): Promise<number> {
    return (await this.unreadSummary(viewerId)).total;
  }

  /** Moves the read watermark to now (or to the newest notification, whichever is later). */
  async markRead(viewerId: string): Promise<{ lastReadAt: Date; unreadCount: number }> {
    const newest = await this.db.notification.findFirst({
      where: { recipientId: viewerId },
      orderBy: { createdAt: 'desc' },
      select: { createdAt: true },
    });
    const now = new Date();
    const lastReadAt = newest && newest.createdAt > now ? newest.createdAt : now;
    await this.db.notificationReadState.upsert({
      where: { userId: viewerId },
      create: { userId: viewerId, lastReadAt },
      update: { lastReadAt },
    });
    return { lastReadAt, unreadCount: await this.unreadCount(viewerId) };
  }
}
