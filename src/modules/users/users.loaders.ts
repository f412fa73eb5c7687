import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import type { User } from '../../generated/prisma/client';

export function createUserLoaders(db: Db) {
  return {
    userById: new DataLoader<string, User | null>(async (ids) => {
      const rows = await db.user.findMany({ where: { id: { in: [...ids] } } });
      const map = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => map.get(id) ?? null);
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
  };
}
