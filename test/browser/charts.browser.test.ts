/**
 * The chart pictures in headless Chromium: each SVG (radar, TotalBPI trend, BPI distribution;
 * light and dark) is loaded as an image, screenshotted, and the picture — not the markup — is
 * checked: it loads at its size, the theme's background and the data colour are on it, and it
 * matches the stored expectation (test/browser/expected/*.png) within a tolerance.
 *
 * The comparison works on the screenshot reduced to half size and gray (png.ts reduce), so the
 * committed expectations stay a few KB; a pixel counts as different when its gray level moves by
 * more than THRESHOLD, and a picture fails when more than MAX_RATIO of its pixels do.
 *
 * Chromium and a Japanese font are needed (.ci/run installs Debian's `chromium` and
 * `fonts-noto-cjk`); without Chromium the tests are skipped with a warning, without the font they
 * fail (every title would be drawn as missing-glyph boxes).
 *
 * Regenerate the expectations after an intended change of the pictures:
 *   UPDATE_SNAPSHOTS=1 npx jest test/browser/charts.browser.test.ts
 * and look at the new PNGs before committing them. On a failure the actual picture and a diff
 * picture are written to $TMPDIR/bpigraph-charts/ (the message gives the paths).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  FONT_STACK,
  PALETTES,
  renderBpiDistributionSvg,
  renderRadarSvg,
  renderTrendSvg,
  type ChartTheme,
} from '../../src/domain/charts';
import * as fx from './chart-fixtures';
import { decodePng, diff, encodePng, reduce, type Image } from './png';
import { describeIf } from '../helpers/skip';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available) {
  // .ci/run installs Debian's chromium; on a machine without it these tests are skipped, loudly.
  console.warn(`chart picture tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium fonts-noto-cjk)`);
}
const maybe = describeIf(available, `no Chromium at ${CHROMIUM} (apt-get install chromium fonts-noto-cjk)`);

const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';
const EXPECTED = path.join(__dirname, 'expected');
const OUT = path.join(os.tmpdir(), 'bpigraph-charts');
const THRESHOLD = 48;
/** Another fontconfig file for Chromium, e.g. one listing only DejaVu, to see the test catch missing Japanese glyphs. */
const FONTCONFIG = process.env.CHART_TEST_FONTCONFIG;
const MAX_RATIO = 0.001;

const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

const CHARTS: { name: string; svg: (theme: ChartTheme) => string; data: (theme: ChartTheme) => string }[] = [
  {
    name: 'radar',
    svg: (theme) =>
      renderRadarSvg(fx.radar, { theme, title: fx.title, subtitle: 'SPARKLE SHOWER · ☆11–12 · レーダー' }),
    data: (theme) => PALETTES[theme].accent,
  },
  {
    name: 'trend',
    svg: (theme) => renderTrendSvg(fx.trend, { theme, title: fx.title, subtitle: '総合BPI推移 (day)' }),
    data: (theme) => PALETTES[theme].accent,
  },
  {
    name: 'distribution',
    svg: (theme) =>
      renderBpiDistributionSvg(fx.distribution, { theme, title: fx.title, subtitle: '単曲BPI分布 (step 10)' }),
    data: (theme) => PALETTES[theme].accent,
  },
];

maybe('chart SVGs rendered in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await chromium.launch({
      env: FONTCONFIG ? { ...process.env, FONTCONFIG_FILE: FONTCONFIG } : undefined,
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
        '--force-color-profile=srgb',
        '--font-render-hinting=none',
      ],
    });
    page = await browser.newPage({ deviceScaleFactor: 1, viewport: { width: 800, height: 600 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Loads the SVG as an <img> (as a page embedding the endpoint would) and screenshots it. */
  async function render(svg: string): Promise<{ image: Image; natural: [number, number] }> {
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:#808080"><img id="c" alt="" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body></html>`,
    );
    const img = page.locator('#c');
    // decode() rejects when the SVG is not a valid image
    const natural = await img.evaluate(async (el: HTMLImageElement) => {
      await el.decode();
      return [el.naturalWidth, el.naturalHeight] as [number, number];
    });
    return { image: decodePng(await img.screenshot({ animations: 'disabled' })), natural };
  }

  const pixel = (img: Image, x: number, y: number) =>
    Array.from(img.data.subarray((y * img.width + x) * img.channels, (y * img.width + x) * img.channels + 3));
  const near = (a: number[], b: number[], tol: number) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

  for (const chart of CHARTS) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${chart.name} (${theme}) renders and matches its expected picture`, async () => {
        const svg = chart.svg(theme);
        const { image, natural } = await render(svg);
        const [w, h] = [Number(/width="(\d+)"/.exec(svg)![1]), Number(/height="(\d+)"/.exec(svg)![1])];
        expect(natural).toEqual([w, h]);
        expect([image.width, image.height]).toEqual([w, h]);
        // the theme's background in the corner, the data colour drawn somewhere
        expect(near(pixel(image, 3, 3), hex(PALETTES[theme].background), 3)).toBe(true);
        const [ar, ag, ab] = hex(chart.data(theme));
        let accentPixels = 0;
        for (let o = 0; o < image.data.length; o += image.channels) {
          const dd = image.data;
          if (Math.abs(dd[o] - ar) <= 12 && Math.abs(dd[o + 1] - ag) <= 12 && Math.abs(dd[o + 2] - ab) <= 12)
            accentPixels++;
        }
        expect(accentPixels).toBeGreaterThan(150);

        const actual = reduce(image);
        const file = path.join(EXPECTED, `${chart.name}-${theme}.png`);
        if (UPDATE) {
          fs.mkdirSync(EXPECTED, { recursive: true });
          fs.writeFileSync(file, encodePng(actual));
          return;
        }
        if (!fs.existsSync(file))
          throw new Error(
            `no expected picture ${file}: run UPDATE_SNAPSHOTS=1 npx jest test/browser/charts.browser.test.ts and review it`,
          );
        const d = diff(actual, decodePng(fs.readFileSync(file)), THRESHOLD);
        if (d.ratio > MAX_RATIO) {
          fs.mkdirSync(OUT, { recursive: true });
          const base = path.join(OUT, `${chart.name}-${theme}`);
          fs.writeFileSync(`${base}.actual.png`, encodePng(actual));
          fs.writeFileSync(`${base}.diff.png`, encodePng(d.picture));
          fs.writeFileSync(`${base}.svg`, svg);
          throw new Error(
            `${chart.name}-${theme}: ${(d.ratio * 100).toFixed(2)} % of the pixels differ (max ${MAX_RATIO * 100} %); see ${base}.actual.png and ${base}.diff.png`,
          );
        }
        expect(d.ratio).toBeLessThanOrEqual(MAX_RATIO);
      }, 60_000);
    }
  }

  it('the font stack draws Japanese glyphs, not missing-glyph boxes: two kanji give two different pictures', async () => {
    const glyph = (ch: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" font-family="${FONT_STACK.replace(/'/g, '&apos;')}"><rect width="96" height="96" fill="#fff"/><text x="8" y="80" font-size="80" fill="#000">${ch}</text></svg>`;
    const a = reduce((await render(glyph('冥'))).image);
    const b = reduce((await render(glyph('卑'))).image);
    const ink = (img: Image) => img.data.filter((v) => v < 128).length;
    expect(ink(a)).toBeGreaterThan(100);
    expect(ink(b)).toBeGreaterThan(100);
    // missing glyphs draw the same box for every character: different kanji must differ a lot
    const r = diff(a, b, THRESHOLD).ratio;
    if (r <= 0.05)
      throw new Error(
        `'冥' and '卑' render alike (${(r * 100).toFixed(2)} % differ): no Japanese font (fc-list :lang=ja is empty?) — apt-get install fonts-noto-cjk`,
      );
    expect(r).toBeGreaterThan(0.05);
  }, 60_000);
});
