import { viewerId } from '../../graphql/context';
import { intIdOrNull } from '../../graphql/args';
import type { AreaNodeSource } from '../area';
import { toRow, visibleWhere } from './notifications.service';

const intKeys = (keys: readonly string[]) => keys.map((k) => intIdOrNull(k));
const present = (ids: (number | null)[]) => ids.filter((i): i is number => i !== null);

/**
 * Node sources of the social area (`node(id:)`): the caller's own notifications (what
 * `notifications` would show them) and follow lists, with their owner for NODE_RULES.
 */
export const socialNodes: Record<string, AreaNodeSource> = {
  // a play seen from the caller's timeline: key = the play id (its databaseId)
  TimelineEntry: {
    load: async (ctx, keys) => {
      const ids = intKeys(keys);
      const rows = await ctx.services.social.timeline.entriesById(ctx.viewer ? viewerId(ctx) : null, present(ids));
      const byId = new Map(rows.filter((r) => r !== null).map((r) => [r.id, r]));
      return ids.map((i) => (i === null ? null : (byId.get(i) ?? null)));
    },
  },
  Notification: {
    load: async (ctx, keys) => {
      if (!ctx.viewer) return keys.map(() => null);
      const me = viewerId(ctx);
      const ids = intKeys(keys);
      const [rows, state] = await Promise.all([
        ctx.db.notification.findMany({ where: { AND: [{ id: { in: present(ids) } }, visibleWhere(me)] } }),
        ctx.db.notificationReadState.findUnique({ where: { userId: me }, select: { lastReadAt: true } }),
      ]);
      const byId = new Map(
        rows.map((n) => [n.id, { ...toRow(n, state?.lastReadAt ?? null), recipientId: n.recipientId }]),
      );
      return ids.map((i) => (i === null ? null : (byId.get(i) ?? null)));
    },
  },
  FollowList: {
    load: async (ctx, keys) => {
      const ids = intKeys(keys);
      const rows = await ctx.db.followList.findMany({
        where: { id: { in: present(ids) } },
        include: { _count: { select: { members: true } } },
      });
      const byId = new Map(
        rows.map((r) => [
          r.id,
          {
            id: r.id,
            name: r.name,
            isPublic: r.isPublic,
            createdAt: r.createdAt,
            memberCount: r._count.members,
            ownerId: r.ownerId,
          },
        ]),
      );
      return ids.map((i) => (i === null ? null : (byId.get(i) ?? null)));
    },
  },
};
