import type { Context } from '../../graphql/context';
import { isUploadedProfileImageUrl, profileImageEtag, profileImageUrl } from '../../domain/profile-image';
import type { Rendition } from './profile-image.task';

/**
 * Uploaded profile images in the database (table ProfileImage; docs/profile-image.md), so every
 * process serves the same bytes. An upload replaces the user's whole set and points
 * User.profileImage at it in one transaction, after locking the user's row: two uploads at once
 * for one user run one after the other and leave the set of the later one, every size with the
 * same etag, and the URL naming that etag. Nothing is cached in memory.
 */
type Db = Context['db'];

/** Stores one upload's renditions; answers the new etag and URL. null: the user does not exist. */
export async function saveProfileImage(
  db: Db,
  userId: string,
  renditions: Rendition[],
  baseUrl: string,
): Promise<{ etag: string; url: string } | null> {
  const etag = profileImageEtag(renditions);
  const url = profileImageUrl(baseUrl, userId, etag);
  const saved = await db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "User" WHERE "id" = ${userId} FOR UPDATE`;
    if (!locked.length) return false;
    await tx.profileImage.deleteMany({ where: { userId } });
    const updatedAt = new Date();
    await tx.profileImage.createMany({
      data: renditions.map((r) => ({ userId, size: r.size, bytes: Uint8Array.from(r.bytes), etag, updatedAt })),
    });
    await tx.user.update({ where: { id: userId }, data: { profileImage: url } });
    return true;
  });
  return saved ? { etag, url } : null;
}

/**
 * Removes the user's uploaded image; User.profileImage is cleared when it points at it (an
 * external https URL set through updateProfile stays). Answers whether there was one.
 */
export async function deleteProfileImage(db: Db, userId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<
      { profileImage: string | null }[]
    >`SELECT "profileImage" FROM "User" WHERE "id" = ${userId} FOR UPDATE`;
    if (!locked.length) return false;
    const { count } = await tx.profileImage.deleteMany({ where: { userId } });
    if (isUploadedProfileImageUrl(locked[0].profileImage, userId))
      await tx.user.update({ where: { id: userId }, data: { profileImage: null } });
    return count > 0;
  });
}

/** One rendition as stored. */
export function findProfileImage(db: Db, userId: string, size: number) {
  return db.profileImage.findUnique({ where: { userId_size: { userId, size } } });
}
