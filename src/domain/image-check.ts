/**
 * The first check of an uploaded profile image (issue #33 item 10; docs/parity.md#open): what the
 * bytes are and how large the picture claims to be, read from the file's own header before any
 * decoder sees it, so a file that is not a PNG, JPEG or WebP, too many bytes or too many pixels
 * (a "decompression bomb") is refused without being decoded. Pure: no I/O, no image library.
 *
 * Rules:
 * - The format is told by the content, never by a name or a declared type: PNG (8-byte signature,
 *   then the IHDR chunk: width and height, 4 bytes big-endian each), JPEG (FF D8 FF; the size from
 *   the first start-of-frame segment SOF0–SOF15 other than DHT C4, JPG C8 and DAC CC), WebP (RIFF …
 *   WEBP with a VP8 (lossy), VP8L (lossless) or VP8X (extended) first chunk).
 * - Caps: at most MAX_IMAGE_BYTES bytes, each side 1 … MAX_IMAGE_SIDE pixels, at most
 *   MAX_IMAGE_PIXELS pixels in all.
 * - Anything else — empty, truncated, another format, a header without a size — is an issue naming
 *   the argument (`image`), in the `{argument, message}` form the args parser turns into BAD_USER_INPUT.
 */

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 4096;
export const MAX_IMAGE_PIXELS = 4096 * 4096;

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

export interface ImageIssue {
  argument: string;
  message: string;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);

function png(b: Uint8Array): ImageHeader | null {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return { format: 'png', width: u32be(b, 16), height: u32be(b, 20) };
}

function jpeg(b: Uint8Array): ImageHeader | null {
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame
    const length = u16be(b, i + 2);
    if (length < 2) return null;
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) {
      if (i + 9 > b.length) return null;
      return { format: 'jpeg', height: u16be(b, i + 5), width: u16be(b, i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

function webp(b: Uint8Array): ImageHeader | null {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X') return { format: 'webp', width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { format: 'webp', width: (b[26] | (b[27] << 8)) & 0x3fff, height: (b[28] | (b[29] << 8)) & 0x3fff };
  }
  return null;
}

/** The format and claimed size of an image, or the issues that refuse it. */
export function checkImage(
  bytes: Uint8Array,
  argument = 'image',
): { ok: true; header: ImageHeader } | { ok: false; issues: ImageIssue[] } {
  const refuse = (message: string) => ({ ok: false as const, issues: [{ argument, message }] });
  if (bytes.length === 0) return refuse(`${argument} is empty`);
  if (bytes.length > MAX_IMAGE_BYTES) return refuse(`${argument} is larger than ${MAX_IMAGE_BYTES} bytes`);
  let header: ImageHeader | null = null;
  let known = true;
  if (PNG_SIGNATURE.every((v, i) => bytes[i] === v)) header = png(bytes);
  else if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) header = jpeg(bytes);
  else if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') header = webp(bytes);
  else known = false;
  if (!known) return refuse(`${argument} must be a PNG, JPEG or WebP image`);
  if (!header) return refuse(`${argument} is damaged: its header gives no size`);
  const { width, height } = header;
  if (width < 1 || height < 1) return refuse(`${argument} has no pixels`);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE)
    return refuse(`${argument} is ${width}×${height}: each side must be at most ${MAX_IMAGE_SIDE} pixels`);
  if (width * height > MAX_IMAGE_PIXELS)
    return refuse(`${argument} has ${width * height} pixels: at most ${MAX_IMAGE_PIXELS}`);
  return { ok: true, header };
}
