/**
 * SVG → PNG on the server (docs/portability.md): @resvg/resvg-js (resvg, a Rust SVG renderer, as
 * prebuilt N-API binaries — no install script, no system library). `renderPng` is a pure function
 * of plain data (SVG text, size, font files → PNG bytes); the routes run it in the worker pool
 * (png.task.ts), and `renderPngAsync` (libuv's thread pool) serves callers without a pool.
 * The routes run it in the worker pool (png.task.ts; src/workers), off the event loop. Results are cached by the hash of their inputs (the SVG's ETag
 * and the size), so a picture is rasterised once while its data does not change.
 *
 * Font: the SVGs name Noto Sans CJK JP first (FONT_STACK). resvg reads only the font files it is
 * given (no system scan per render): PNG_FONT_FILES (colon-separated paths), else the Noto Sans
 * CJK files of Debian's fonts-noto-cjk and DejaVu Sans, those that exist.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { renderAsync, Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';

export const DEFAULT_FONT_FILES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
];

let fontFiles: string[] | undefined;
/** The font files rendering uses (PNG_FONT_FILES, else the defaults that exist); read once. */
export function pngFontFiles(): string[] {
  fontFiles ??= (process.env.PNG_FONT_FILES ? process.env.PNG_FONT_FILES.split(':') : DEFAULT_FONT_FILES).filter((f) =>
    fs.existsSync(f),
  );
  return fontFiles;
}

export interface PngJob {
  svg: string;
  /** output width in pixels; the height follows the SVG's aspect ratio */
  width: number;
  fontFiles: readonly string[];
}

const options = (job: PngJob): ResvgRenderOptions => ({
  fitTo: { mode: 'width', value: job.width },
  font: { fontFiles: [...job.fontFiles], loadSystemFonts: false, defaultFontFamily: 'Noto Sans CJK JP' },
});

/** Rasterises an SVG (pure: plain data in, PNG bytes out; synchronous, for a worker). */
export function renderPng(job: PngJob): Buffer {
  return new Resvg(job.svg, options(job)).render().asPng();
}

/**
 * The same rendering on libuv's thread pool (resvg-js renderAsync): the font loading and
 * rasterising (seconds on a loaded machine: bench/png.ts) stay off the event loop.
 */
export async function renderPngAsync(job: PngJob): Promise<Buffer> {
  return (await renderAsync(job.svg, options(job))).asPng();
}

/** A strong ETag of a rendition: the hash of its inputs (not of the PNG: no render to answer a 304). */
export function pngEtag(svg: string, width: number, height: number): string {
  return `"${createHash('sha256').update(svg).update(`\0${width}x${height}`).digest('base64url').slice(0, 32)}"`;
}

/** Rendered PNGs by ETag, least recently used dropped past 64 entries or 32 MiB. */
class PngCache {
  private readonly map = new Map<string, Buffer>();
  private bytes = 0;
  constructor(
    private readonly maxEntries = 64,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}
  get(key: string): Buffer | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: Buffer): void {
    this.map.set(key, v);
    this.bytes += v.length;
    for (const [k, old] of this.map) {
      if (this.map.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= old.length;
    }
  }
}

const cache = new PngCache();
/** renders under way, by ETag: concurrent requests for one picture share one render */
const pending = new Map<string, Promise<Buffer>>();

/** Runs the render task (png.task.ts) in the worker pool: a full pool answers 503 + Retry-After. */
export type PngRunner = (job: PngJob) => Promise<Uint8Array>;

/**
 * The PNG of an SVG at a width (cached by ETag), rendered by `run` (the worker pool) or, without
 * one, on libuv's thread pool.
 */
export async function pngFor(svg: string, width: number, etag: string, run?: PngRunner): Promise<Buffer> {
  const hit = cache.get(etag);
  if (hit) return hit;
  let p = pending.get(etag);
  if (!p) {
    const job = { svg, width, fontFiles: pngFontFiles() };
    const rendering = run
      ? run(job).then((u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength))
      : renderPngAsync(job);
    p = rendering.finally(() => pending.delete(etag));
    pending.set(etag, p);
    const png = await p;
    cache.set(etag, png);
    return png;
  }
  return p;
}
