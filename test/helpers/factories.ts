import type { Db } from '../../src/db/client';
import type { User } from '../../src/generated/prisma/client';

let n = 0;

/** Test players with readable intent: aPublicPlayer(db), aPrivatePlayer(db, {name}). */
export async function aPlayer(db: Db, over: Partial<Pick<User, 'name' | 'isPublic' | 'isAdmin' | 'gameId'>> = {}): Promise<User> {
  const name = over.name ?? `player${++n}_${Math.random().toString(36).slice(2, 6)}`;
  return db.user.create({
    data: { name, nameKey: name.toLowerCase(), isPublic: over.isPublic ?? true, isAdmin: over.isAdmin ?? false, gameId: over.gameId ?? null },
  });
}

export const aPublicPlayer = (db: Db, over: Partial<Pick<User, 'name' | 'gameId'>> = {}) => aPlayer(db, { ...over, isPublic: true });
export const aPrivatePlayer = (db: Db, over: Partial<Pick<User, 'name' | 'gameId'>> = {}) => aPlayer(db, { ...over, isPublic: false });
export const anAdmin = (db: Db) => aPlayer(db, { isAdmin: true });

/** follower follows following; approved = the private target approved the request. */
export async function follows(db: Db, follower: User, following: User, opts: { approved?: boolean } = {}) {
  return db.follow.create({
    data: { followerId: follower.id, followingId: following.id, approvedAt: opts.approved ? new Date() : null },
  });
}

/** Songs area: a BestScore row only (rankings, popularity, profile song lists read nothing else). */
export async function aSongBestScore(db: Db, user: User, chartId: number, exScore: number, opts: { version?: string; bpi?: number | null } = {}) {
  return db.bestScore.create({
    data: { userId: user.id, version: opts.version ?? '33', chartId, exScore, exScoreId: 0, bpi: opts.bpi ?? null, playedAt: new Date() },
  });
}
