import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import { Prisma, type PlayerVersionStatus, type User, type UserBadge } from '../../generated/prisma/client';
import { LATEST_VERSION } from '../../domain/constants';

export type FollowDirection = 'followers' | 'following';
export interface FollowRow {
  /** the other user of the edge */
  otherId: string;
  createdAt: Date;
}
export interface AreaRankRow {
  area: string;
  areaRank: number;
  totalInArea: number;
}

/** `${direction}|${userId}|${offset}|${take}` — one page of a user's follow edges. */
export const followPageKey = (dir: FollowDirection, userId: string, offset: number, take: number) => `${dir}|${userId}|${offset}|${take}`;

function groupBy<K, V>(items: readonly V[], key: (v: V) => K): Map<K, V[]> {
  const m = new Map<K, V[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

export function createUserLoaders(db: Db) {
  const userById = new DataLoader<string, User | null>(async (ids) => {
    const rows = await db.user.findMany({ where: { id: { in: [...ids] } } });
    const map = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => map.get(id) ?? null);
  });
  return {
    userById,
    /** lower(name) → user */
    userByNameKey: new DataLoader<string, User | null>(async (keys) => {
      const rows = await db.user.findMany({ where: { nameKey: { in: [...keys] } } });
      for (const r of rows) userById.prime(r.id, r);
      const map = new Map(rows.map((r) => [r.nameKey, r]));
      return keys.map((k) => map.get(k) ?? null);
    }),
    /** key `${followerId}:${followingId}` → is there an approved follow (the access grant)? */
    approvedFollow: new DataLoader<string, boolean>(async (keys) => {
      const pairs = keys.map((k) => k.split(':') as [string, string]);
      const rows = await db.follow.findMany({
        where: { OR: pairs.map(([followerId, followingId]) => ({ followerId, followingId })), approvedAt: { not: null } },
        select: { followerId: true, followingId: true },
      });
      const set = new Set(rows.map((r) => `${r.followerId}:${r.followingId}`));
      return keys.map((k) => set.has(k));
    }),
    /** key `${followerId}:${followingId}` → does a follow row exist (approved or not)? */
    followExists: new DataLoader<string, boolean>(async (keys) => {
      const pairs = keys.map((k) => k.split(':') as [string, string]);
      const rows = await db.follow.findMany({
        where: { OR: pairs.map(([followerId, followingId]) => ({ followerId, followingId })) },
        select: { followerId: true, followingId: true },
      });
      const set = new Set(rows.map((r) => `${r.followerId}:${r.followingId}`));
      return keys.map((k) => set.has(k));
    }),
    /** userId → live follow counts in both directions */
    followCounts: new DataLoader<string, { followers: number; following: number }>(async (ids) => {
      const [followers, following] = await Promise.all([
        db.follow.groupBy({ by: ['followingId'], where: { followingId: { in: [...ids] } }, _count: { _all: true } }),
        db.follow.groupBy({ by: ['followerId'], where: { followerId: { in: [...ids] } }, _count: { _all: true } }),
      ]);
      const fm = new Map(followers.map((r) => [r.followingId, r._count._all]));
      const gm = new Map(following.map((r) => [r.followerId, r._count._all]));
      return ids.map((id) => ({ followers: fm.get(id) ?? 0, following: gm.get(id) ?? 0 }));
    }),
    /** followPageKey(...) → edges of that page, newest follow first (ties by user id) */
    followPage: new DataLoader<string, FollowRow[]>(async (keys) => {
      const parsed = keys.map((k) => {
        const [dir, userId, offset, take] = k.split('|');
        return { key: k, dir: dir as FollowDirection, userId, offset: Number(offset), take: Number(take) };
      });
      const out = new Map<string, FollowRow[]>();
      // One statement per (direction, page window), whatever the number of parents.
      for (const group of groupBy(parsed, (p) => `${p.dir}|${p.offset}|${p.take}`).values()) {
        const { dir, offset, take } = group[0];
        const ids = Prisma.join(group.map((g) => g.userId));
        const rows =
          dir === 'followers'
            ? await db.$queryRaw<{ parentId: string; otherId: string; createdAt: Date }[]>(Prisma.sql`
                SELECT "parentId", "otherId", "createdAt" FROM (
                  SELECT f."followingId" AS "parentId", f."followerId" AS "otherId", f."createdAt",
                         ROW_NUMBER() OVER (PARTITION BY f."followingId" ORDER BY f."createdAt" DESC, f."followerId") AS rn
                    FROM "Follow" f WHERE f."followingId" IN (${ids})
                ) t WHERE rn > ${offset} AND rn <= ${offset + take} ORDER BY "parentId", rn`)
            : await db.$queryRaw<{ parentId: string; otherId: string; createdAt: Date }[]>(Prisma.sql`
                SELECT "parentId", "otherId", "createdAt" FROM (
                  SELECT f."followerId" AS "parentId", f."followingId" AS "otherId", f."createdAt",
                         ROW_NUMBER() OVER (PARTITION BY f."followerId" ORDER BY f."createdAt" DESC, f."followingId") AS rn
                    FROM "Follow" f WHERE f."followerId" IN (${ids})
                ) t WHERE rn > ${offset} AND rn <= ${offset + take} ORDER BY "parentId", rn`);
        const byParent = groupBy(rows, (r) => r.parentId);
        for (const g of group) {
          out.set(g.key, (byParent.get(g.userId) ?? []).map((r) => ({ otherId: r.otherId, createdAt: new Date(r.createdAt) })));
        }
      }
      return keys.map((k) => out.get(k) ?? []);
    }),
    /** userId → PlayerVersionStatus rows */
    statusesByUserId: new DataLoader<string, PlayerVersionStatus[]>(async (ids) => {
      const rows = await db.playerVersionStatus.findMany({ where: { userId: { in: [...ids] } } });
      const m = groupBy(rows, (r) => r.userId);
      return ids.map((id) => m.get(id) ?? []);
    }),
    /** userId → badge */
    badgeByUserId: new DataLoader<string, UserBadge | null>(async (ids) => {
      const rows = await db.userBadge.findMany({ where: { userId: { in: [...ids] } } });
      const m = new Map(rows.map((r) => [r.userId, r]));
      return ids.map((id) => m.get(id) ?? null);
    }),
    /** stored game id (8 digits) → area rank in the latest official arena snapshot of the latest version */
    areaRankByGameId: new DataLoader<string, AreaRankRow | null>(async (gameIds) => {
      const ids = Prisma.join([...gameIds]);
      const rows = await db.$queryRaw<{ gameId: string; area: string; pos: number; total: number }[]>(Prisma.sql`
        WITH snap AS (
          SELECT id FROM "ArenaSnapshot" WHERE version = ${LATEST_VERSION} ORDER BY "fetchedAt" DESC, id DESC LIMIT 1
        ), ranked AS (
          SELECT e."gameId", e.area,
                 ROW_NUMBER() OVER (PARTITION BY e.area ORDER BY e."arenaClass", e.rank ASC NULLS LAST, e."gameId") AS pos,
                 COUNT(*) OVER (PARTITION BY e.area) AS total
            FROM "ArenaEntry" e JOIN snap ON e."snapshotId" = snap.id
           WHERE e."arenaClass"::text IN ('A1', 'A2', 'A3', 'A4', 'A5') AND e.area IS NOT NULL
             AND e.area IN (SELECT x.area FROM "ArenaEntry" x JOIN snap ON x."snapshotId" = snap.id WHERE x."gameId" IN (${ids}))
        )
        SELECT "gameId", area, pos::int AS pos, total::int AS total FROM ranked WHERE "gameId" IN (${ids})`);
      const m = new Map(rows.map((r) => [r.gameId, { area: r.area, areaRank: Number(r.pos), totalInArea: Number(r.total) }]));
      return gameIds.map((g) => m.get(g) ?? null);
    }),
  };
}
