/**
 * A tiny PNG codec for the chart picture test (8-bit, non-interlaced, gray / RGB / RGBA) and a
 * pixel comparison. Node's zlib does the deflate and the CRC; no dependency.
 */
import zlib from 'node:zlib';

export interface Image {
  width: number;
  height: number;
  /** 1 = gray, 3 = RGB, 4 = RGBA */
  channels: 1 | 3 | 4;
  data: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOR_TYPE: Record<number, number> = { 1: 0, 3: 2, 4: 6 };

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** Encodes with a per-row filter choice (least sum of absolute values, the usual heuristic). */
export function encodePng(img: Image): Buffer {
  const { width: w, height: h, channels: bpp, data } = img;
  const stride = w * bpp;
  const out = Buffer.alloc(h * (stride + 1));
  const cand = Array.from({ length: 5 }, () => Buffer.alloc(stride));
  for (let y = 0; y < h; y++) {
    const row = data.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? data.subarray((y - 1) * stride, y * stride) : null;
    let best = 0;
    let bestScore = Infinity;
    for (let f = 0; f < 5; f++) {
      const dst = cand[f];
      let score = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? row[i - bpp] : 0;
        const b = up ? up[i] : 0;
        const c = up && i >= bpp ? up[i - bpp] : 0;
        const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
        const v = (row[i] - pred) & 0xff;
        dst[i] = v;
        score += v < 128 ? v : 256 - v;
      }
      if (score < bestScore) {
        bestScore = score;
        best = f;
      }
    }
    out[y * (stride + 1)] = best;
    cand[best].copy(out, y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = COLOR_TYPE[bpp];
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(out, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function decodePng(buf: Buffer): Image {
  if (!buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let pos = 8;
  let w = 0;
  let h = 0;
  let bpp = 0;
  const idat: Buffer[] = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      w = data.readUInt32BE(0);
      h = data.readUInt32BE(4);
      const [depth, color, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      const channels = Object.entries(COLOR_TYPE).find(([, t]) => t === color)?.[0];
      if (depth !== 8 || !channels || interlace !== 0)
        throw new Error(`unsupported PNG (depth ${depth}, color ${color}, interlace ${interlace})`);
      bpp = Number(channels);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = w * bpp;
  const out = new Uint8Array(h * stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? out[y * stride + i - bpp] : 0;
      const b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const c = y > 0 && i >= bpp ? out[(y - 1) * stride + i - bpp] : 0;
      const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
      out[y * stride + i] = (src[i] + pred) & 0xff;
    }
  }
  return { width: w, height: h, channels: bpp as 1 | 3 | 4, data: out };
}

/**
 * The picture the test compares: the screenshot reduced to half size (2×2 box average) and to
 * gray (Rec. 601 luma). Small enough to commit (a few KB), still sharp enough to tell a glyph
 * from a missing-glyph box, a moved label or a wrong theme.
 */
export function reduce(img: Image): Image {
  const w = Math.floor(img.width / 2);
  const h = Math.floor(img.height / 2);
  const out = new Uint8Array(w * h);
  const luma = (x: number, y: number) => {
    const o = (y * img.width + x) * img.channels;
    const d = img.data;
    return img.channels === 1 ? d[o] : 0.299 * d[o] + 0.587 * d[o + 1] + 0.114 * d[o + 2];
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      out[y * w + x] = Math.round(
        (luma(2 * x, 2 * y) + luma(2 * x + 1, 2 * y) + luma(2 * x, 2 * y + 1) + luma(2 * x + 1, 2 * y + 1)) / 4,
      );
    }
  }
  return { width: w, height: h, channels: 1, data: out };
}

export interface Diff {
  /** pixels whose values differ by more than the threshold */
  differing: number;
  ratio: number;
  /** a gray picture: black = same, white = differing (written next to a failing test) */
  picture: Image;
}

/** Compares two gray pictures of the same size, pixel by pixel. */
export function diff(a: Image, b: Image, threshold: number): Diff {
  if (a.width !== b.width || a.height !== b.height || a.channels !== 1 || b.channels !== 1) {
    throw new Error(`pictures differ in size: ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  }
  const pic = new Uint8Array(a.data.length);
  let differing = 0;
  for (let i = 0; i < a.data.length; i++) {
    if (Math.abs(a.data[i] - b.data[i]) > threshold) {
      differing++;
      pic[i] = 255;
    }
  }
  return {
    differing,
    ratio: differing / a.data.length,
    picture: { width: a.width, height: a.height, channels: 1, data: pic },
  };
}
