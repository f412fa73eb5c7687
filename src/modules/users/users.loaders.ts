import type { Db } from '../../db/client';
import { Prisma, type User, type UserBadge } from '../../generated/prisma/client';
import { groupBy, inKeyOrder, keyedLoader, loader } from '../../graphql/loaders';

export type FollowDirection = 'followers' | 'following';
/** A follow page's window (position, direction, size) as a key part. */
const pageWindow = (k: FollowPageKey) =>
  `${k.from ? `${k.from.at.toISOString()}|${k.from.otherId}` : ''}|${k.backward}|${k.take}`;

export interface FollowRow {
  /** the other user of the edge */
  otherId: string;
  createdAt: Date;
}
/** A follow edge asked about (follower → following). */
export interface FollowPair {
  followerId: string;
  followingId: string;
}
/** One page of a user's follow edges. */
export interface FollowPageKey {
  direction: FollowDirection;
  userId: string;
  /** keyset position: the rows after (before, when backward) this (createdAt, other user id); null: from the start (end) */
  from: { at: Date; otherId: string } | null;
  backward: boolean;
  take: number;
}

const pairKey = (p: FollowPair) => `${p.followerId}\u0000${p.followingId}`;

/** The User model's fields, in its order (the columns the Prisma client reads for a user). */
const USER_FIELDS = Object.values(Prisma.UserScalarFieldEnum);
const USER_COLUMNS = Prisma.raw(USER_FIELDS.map((f) => `u."${f}"`).join(', '));
/** A user as the Prisma client reads it, from a raw row that holds the User columns by name. */
function userOf(row: Record<string, unknown>): User {
  const u: Record<string, unknown> = {};
  for (const f of USER_FIELDS) u[f] = row[f];
  return u as User;
}

/** Loaders of the users area: `ctx.loaders.users.<name>`. */
export function createUserLoaders(db: Db) {
  const byId = loader<string, User | null>(async (ids) => {
    const rows = await db.user.findMany({ where: { id: { in: [...ids] } } });
    return inKeyOrder(ids, new Map(rows.map((r) => [r.id, r])), null);
  });
  /** Is there an approved follow (the access grant to a private user)? Primed by followPage. */
  const approvedFollow = keyedLoader<FollowPair, boolean>(pairKey, async (pairs) => {
    const rows = await db.follow.findMany({
      where: {
        OR: pairs.map(({ followerId, followingId }) => ({ followerId, followingId })),
        approvedAt: { not: null },
      },
      select: { followerId: true, followingId: true },
    });
    const set = new Set(rows.map(pairKey));
    return pairs.map((p) => set.has(pairKey(p)));
  });
  return {
    byId,
    /** lower(name) → user */
    byNameKey: loader<string, User | null>(async (keys) => {
      const rows = await db.user.findMany({ where: { nameKey: { in: [...keys] } } });
      for (const r of rows) byId.prime(r.id, r);
      return inKeyOrder(keys, new Map(rows.map((r) => [r.nameKey, r])), null);
    }),
    approvedFollow,
    /** Does a follow row exist (approved or not)? */
    followExists: keyedLoader<FollowPair, boolean>(pairKey, async (pairs) => {
      const rows = await db.follow.findMany({
        where: { OR: pairs.map(({ followerId, followingId }) => ({ followerId, followingId })) },
        select: { followerId: true, followingId: true },
      });
      const set = new Set(rows.map(pairKey));
      return pairs.map((p) => set.has(pairKey(p)));
    }),
    /** userId → live follow counts in both directions */
    followCounts: loader<string, { followers: number; following: number }>(async (ids) => {
      const [followers, following] = await Promise.all([
        db.follow.groupBy({ by: ['followingId'], where: { followingId: { in: [...ids] } }, _count: { _all: true } }),
        db.follow.groupBy({ by: ['followerId'], where: { followerId: { in: [...ids] } }, _count: { _all: true } }),
      ]);
      const fm = new Map(followers.map((r) => [r.followingId, r._count._all]));
      const gm = new Map(following.map((r) => [r.followerId, r._count._all]));
      return ids.map((id) => ({ followers: fm.get(id) ?? 0, following: gm.get(id) ?? 0 }));
    }),
    /** One page of a user's follow edges, newest follow first (ties by user id); primes byId with the other users. */
    followPage: keyedLoader<FollowPageKey, FollowRow[]>(
      (k) => `${k.direction}|${k.userId}|${pageWindow(k)}`,
      async (keys) => {
        const out = new Map<FollowPageKey, FollowRow[]>();
        // One statement per (direction, page window), whatever the number of parents: keyset over
        // (createdAt DESC, other id ASC), flipped when paging backwards.
        for (const group of groupBy(keys, (k) => `${k.direction}|${pageWindow(k)}`).values()) {
          const { direction, from, backward, take } = group[0];
          const ids = Prisma.join(group.map((g) => g.userId));
          const [parent, other] =
            direction === 'followers' ? ['followingId', 'followerId'] : ['followerId', 'followingId'];
          const p = Prisma.raw(`f."${parent}"`);
          const o = Prisma.raw(`f."${other}"`);
          const order = backward ? Prisma.sql`f."createdAt" ASC, ${o} DESC` : Prisma.sql`f."createdAt" DESC, ${o} ASC`;
          const at = from ? Prisma.sql`${from.at.toISOString().replace('Z', '')}::timestamp(3)` : Prisma.empty;
          const position = !from
            ? Prisma.empty
            : backward
              ? Prisma.sql`AND f."createdAt" >= ${at} AND (f."createdAt" > ${at} OR (f."createdAt" = ${at} AND ${o} < ${from.otherId}))`
              : Prisma.sql`AND f."createdAt" <= ${at} AND (f."createdAt" < ${at} OR (f."createdAt" = ${at} AND ${o} > ${from.otherId}))`;
          // The other users' rows ride along (LEFT JOIN: a missing one reads as null, as byId
          // answers): the page's users need no statement of their own.
          const rows = await db.$queryRaw<
            ({ parentId: string; otherId: string; followedAt: Date; approved: boolean } & Record<string, unknown>)[]
          >(Prisma.sql`
            SELECT t."parentId", t."otherId", t."followedAt", t."approved", ${USER_COLUMNS} FROM (
              SELECT ${p} AS "parentId", ${o} AS "otherId", f."createdAt" AS "followedAt", f."approvedAt" IS NOT NULL AS "approved",
                     ROW_NUMBER() OVER (PARTITION BY ${p} ORDER BY ${order}) AS rn
                FROM "Follow" f WHERE ${p} IN (${ids}) ${position}
            ) t LEFT JOIN "User" u ON u."id" = t."otherId"
             WHERE t.rn <= ${take} ORDER BY t."parentId", t.rn`);
          // The same rows answer approvedFollow for their pairs: the visibility of the private
          // players of the page needs no statement of its own (src/graphql/user-visibility.ts).
          for (const r of rows) {
            const [followerId, followingId] =
              direction === 'followers' ? [r.otherId, r.parentId] : [r.parentId, r.otherId];
            approvedFollow.prime({ followerId, followingId }, r.approved === true);
            byId.prime(r.otherId, r.id === null ? null : userOf(r));
          }
          const byParent = groupBy(rows, (r) => r.parentId);
          for (const g of group) {
            out.set(
              g,
              (byParent.get(g.userId) ?? []).map((r) => ({ otherId: r.otherId, createdAt: new Date(r.followedAt) })),
            );
          }
        }
        return keys.map((k) => out.get(k) ?? []);
      },
    ),
    /** userId → badge */
    badge: loader<string, UserBadge | null>(async (ids) => {
      const rows = await db.userBadge.findMany({ where: { userId: { in: [...ids] } } });
      return inKeyOrder(ids, new Map(rows.map((r) => [r.userId, r])), null);
    }),
  };
}

export type UserLoaders = ReturnType<typeof createUserLoaders>;
