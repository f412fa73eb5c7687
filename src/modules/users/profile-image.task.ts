import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '../../domain/image-check';
import { AppError } from '../../errors';
import { defineTask } from '../../workers/task';

/**
 * Re-encodes an uploaded profile image in the worker pool (src/workers; docs/profile-image.md):
 * decoded by sharp (libvips) with the pixel cap of the first check, turned upright by its EXIF
 * orientation, cropped to a centred square and resized to each size, written as WebP. Nothing of
 * the original (metadata, colour profile, animation) survives. An image the decoder refuses is
 * BAD_USER_INPUT. Output crosses threads as Uint8Arrays.
 */
export interface ProfileImageJob {
  bytes: Uint8Array;
  sizes: readonly number[];
}

export interface Rendition {
  size: number;
  bytes: Uint8Array;
}

export async function renderProfileImage(job: ProfileImageJob): Promise<Rendition[]> {
  try {
    const source = sharp(job.bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', animated: false }).rotate();
    return await Promise.all(
      job.sizes.map(async (size) => {
        const out = await source
          .clone()
          .resize(size, size, { fit: 'cover', position: 'centre' })
          .webp({ quality: 82, effort: 4 })
          .toBuffer();
        return { size, bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength) };
      }),
    );
  } catch (err) {
    throw new AppError('BAD_USER_INPUT', `image could not be decoded: ${(err as Error).message}`, {
      issues: [{ code: 'invalid_image', path: ['image'], message: 'image could not be decoded' }],
    });
  }
}

export const profileImageTask = defineTask(__filename, 'profileImage', (job: ProfileImageJob) =>
  renderProfileImage(job),
);
