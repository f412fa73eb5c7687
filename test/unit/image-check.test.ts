/**
 * The header check of an uploaded profile image (src/domain/image-check.ts; issue #33 item 10, its first
 * part): headers built byte by byte below, sizes worked out from the bytes in the comments.
 */
import { checkImage, MAX_IMAGE_BYTES } from '../../src/domain/image-check';

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const pngOf = (w: number, h: number) => bytes(SIG, be32(13), 'IHDR', be32(w), be32(h), [8, 6, 0, 0, 0]);
const header = (b: Uint8Array) => {
  const r = checkImage(b);
  return r.ok ? r.header : r.issues;
};

describe('image header check', () => {
  it('PNG: IHDR width 00 00 02 80 = 640, height 00 00 01 E0 = 480', () => {
    expect(header(pngOf(640, 480))).toEqual({ format: 'png', width: 640, height: 480 });
  });

  it('JPEG: APP0 (length 16) and DHT skipped, SOF0 height 00 78 = 120, width 00 A0 = 160; progressive SOF2 too', () => {
    const app0 = [0xff, 0xe0, 0x00, 0x10, ...new Array(14).fill(0)];
    const dht = [0xff, 0xc4, 0x00, 0x04, 0x00, 0x00];
    const sof = (m: number) => [0xff, m, 0x00, 0x11, 8, 0x00, 0x78, 0x00, 0xa0, 3];
    expect(header(bytes([0xff, 0xd8], app0, dht, sof(0xc0)))).toEqual({ format: 'jpeg', width: 160, height: 120 });
    expect(header(bytes([0xff, 0xd8], app0, sof(0xc2)))).toEqual({ format: 'jpeg', width: 160, height: 120 });
  });

  it('WebP: VP8X canvas 2B 01 00 + 1 = 300 by C7 00 00 + 1 = 200; VP8L bits 0x000C4063 → 99 + 1 by 49 + 1; VP8 80 02 = 640 by 68 01 = 360', () => {
    const riff = (chunk: string, body: number[]) => bytes('RIFF', be32(0), 'WEBP', chunk, [10, 0, 0, 0], body);
    expect(header(riff('VP8X', [0, 0, 0, 0, 0x2b, 0x01, 0x00, 0xc7, 0x00, 0x00]))).toEqual({
      format: 'webp',
      width: 300,
      height: 200,
    });
    // 99 | 49 << 14 = 99 + 802816 = 802915 = 0x000C4063, little-endian 63 40 0C 00
    expect(header(riff('VP8L', [0x2f, 0x63, 0x40, 0x0c, 0x00, 0, 0, 0, 0, 0]))).toEqual({
      format: 'webp',
      width: 100,
      height: 50,
    });
    expect(header(riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0x68, 0x01]))).toEqual({
      format: 'webp',
      width: 640,
      height: 360,
    });
  });

  it('caps: 4096 × 4096 = 16,777,216 pixels passes; 4097 on a side or more bytes than 5 MiB is refused, naming image', () => {
    expect(header(pngOf(4096, 4096))).toMatchObject({ width: 4096, height: 4096 });
    expect(header(pngOf(4097, 10))).toEqual([
      { argument: 'image', message: 'image is 4097×10: each side must be at most 4096 pixels' },
    ]);
    expect(header(new Uint8Array(MAX_IMAGE_BYTES + 1))).toEqual([
      { argument: 'image', message: `image is larger than ${MAX_IMAGE_BYTES} bytes` },
    ]);
    expect(header(pngOf(0, 10))).toEqual([{ argument: 'image', message: 'image has no pixels' }]);
  });

  it('other formats, empty, truncated or frameless files are refused by their content', () => {
    expect(header(bytes('GIF89a', [1, 0, 1, 0]))).toEqual([
      { argument: 'image', message: 'image must be a PNG, JPEG or WebP image' },
    ]);
    expect(header(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual([
      { argument: 'image', message: 'image must be a PNG, JPEG or WebP image' },
    ]);
    expect(header(new Uint8Array(0))).toEqual([{ argument: 'image', message: 'image is empty' }]);
    const damaged = [{ argument: 'image', message: 'image is damaged: its header gives no size' }];
    expect(header(bytes(SIG))).toEqual(damaged);
    expect(header(bytes([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0]))).toEqual(damaged); // scan before any frame
    expect(checkImage(bytes('RIFF', be32(0), 'WEBP', 'VP8 ', [10, 0, 0, 0], new Array(10).fill(0)), 'file')).toEqual({
      ok: false,
      issues: [{ argument: 'file', message: 'file is damaged: its header gives no size' }],
    });
  });
});
