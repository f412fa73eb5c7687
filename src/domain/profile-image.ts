/**
 * Uploaded profile images (docs/profile-image.md): the sizes kept, how a refused upload maps to an
 * HTTP status, the URL `User.profileImage` points to, and the cache headers of a served
 * rendition. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import { checkImage, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './image-check';

/** Sides (pixels) of the square WebP renditions kept per upload: a profile page and a list row. */
export const PROFILE_IMAGE_SIZES = [256, 64] as const;
export type ProfileImageSize = (typeof PROFILE_IMAGE_SIZES)[number];
export const DEFAULT_PROFILE_IMAGE_SIZE: ProfileImageSize = 256;

/** The media types PUT /api/v1/me/profile-image accepts (the content decides, checkImage). */
export const PROFILE_IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

export interface UploadRefusal {
  status: 400 | 413 | 415;
  body: { message: string; errors: { code: string; path: string[]; message: string; limit?: number }[] };
}

const refusal = (status: UploadRefusal['status'], code: string, message: string, limit?: number): UploadRefusal => ({
  status,
  body: { message, errors: [{ code, path: ['image'], message, ...(limit !== undefined ? { limit } : {}) }] },
});

/** 413 naming the byte cap (also for a body the server stopped reading). */
export const tooLarge = () => refusal(413, 'too_big', `image is larger than ${MAX_IMAGE_BYTES} bytes`, MAX_IMAGE_BYTES);

/** 415 naming the accepted formats. */
export const unsupportedMedia = () =>
  refusal(415, 'invalid_type', `image must be a PNG, JPEG or WebP image (${PROFILE_IMAGE_MEDIA_TYPES.join(', ')})`);

/**
 * The first check of an upload, as a status: too many bytes → 413; not PNG/JPEG/WebP by its
 * magic bytes → 415; damaged header, a side over MAX_IMAGE_SIDE or over MAX_IMAGE_PIXELS → 400
 * (the message names the cap). null: the bytes may go to the decoder.
 */
export function uploadRefusal(bytes: Uint8Array): UploadRefusal | null {
  if (bytes.length > MAX_IMAGE_BYTES) return tooLarge();
  const r = checkImage(bytes);
  if (r.ok) return null;
  const message = r.issues[0].message;
  if (message.includes('must be a PNG')) return unsupportedMedia();
  if (message.includes('pixels: at most')) return refusal(400, 'too_big', message, MAX_IMAGE_PIXELS);
  if (message.includes('each side')) return refusal(400, 'too_big', message, MAX_IMAGE_SIDE);
  return refusal(400, 'invalid_image', message);
}

/** The version of one upload: a hash over its renditions in size order (the same for every size). */
export function profileImageEtag(renditions: readonly { size: number; bytes: Uint8Array }[]): string {
  const h = createHash('sha256');
  for (const r of [...renditions].sort((a, b) => a.size - b.size)) h.update(`${r.size}:`).update(r.bytes);
  return h.digest('base64url').slice(0, 22);
}

/** What `User.profileImage` holds once an image is uploaded: the served URL with its version. */
export function profileImageUrl(baseUrl: string, userId: string, etag: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/v1/users/${encodeURIComponent(userId)}/profile-image?v=${etag}`;
}

/** Whether a profileImage value is one of ours (DELETE clears it then, and keeps an external URL). */
export function isUploadedProfileImageUrl(url: string | null, userId: string): boolean {
  return !!url && url.includes(`/api/v1/users/${encodeURIComponent(userId)}/profile-image?v=`);
}

/** `size` of a GET: absent → 256; else one of PROFILE_IMAGE_SIZES, or null (400). */
export function parseProfileImageSize(raw: unknown): ProfileImageSize | null {
  if (raw === undefined) return DEFAULT_PROFILE_IMAGE_SIZE;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return (PROFILE_IMAGE_SIZES as readonly number[]).includes(n) ? (n as ProfileImageSize) : null;
}

/**
 * Cache-Control of a served rendition. With the current version in `?v=` the bytes at that URL
 * never change: a year, immutable — `public` for a public player, `private` for a private one
 * (a shared cache must not hand it to someone the profile is hidden from). Without it (or with
 * an old one) the answer may change at any upload: revalidate each time (ETag → 304).
 */
export function profileImageCacheControl(isPublic: boolean, versioned: boolean): string {
  const who = isPublic ? 'public' : 'private';
  return versioned ? `${who}, max-age=31536000, immutable` : `${who}, no-cache`;
}
