/**
 * The SVG endpoints GET /api/v1/users/{userId}/charts/{kind}.svg opened in headless Chromium as a
 * page embedding them would (<img src="http://…/radar.svg?theme=dark">): each loads at its size,
 * shows the theme's background and the data colour, and matches the stored expectation
 * (test/browser/expected/endpoint-*.png) within the tolerance of charts.browser.test.ts. A private
 * player's picture does not load for a stranger (403 JSON is not an image).
 *
 * Regenerate after an intended change: UPDATE_SNAPSHOTS=1 npx jest test/browser/chart-endpoints.browser.test.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { importDefinitions } from '../../src/db/definitions';
import { PALETTES } from '../../src/domain/charts';
import type { User } from '../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, aScoreImport } from '../helpers/factories';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { decodePng, diff, encodePng, reduce, type Image } from './png';
import { describeIf } from '../helpers/skip';

const available = fs.existsSync(CHROMIUM);
const maybe = describeIf(available, `no Chromium at ${CHROMIUM} (apt-get install chromium)`);
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';
const EXPECTED = path.join(__dirname, 'expected');
const OUT = path.join(os.tmpdir(), 'bpigraph-charts');
const THRESHOLD = 48;
const MAX_RATIO = 0.001;
const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const jst = (d: string, hm: string) => new Date(`${d}T${hm}:00+09:00`);

maybe('chart endpoints rendered in headless Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  let p: User;
  let hidden: User;

  beforeAll(async () => {
    s = await startTestServer({ seedDemo: false });
    const db = s.db.prisma;
    const titles: [string, 'NOTES' | 'PEAK' | 'CHORD' | 'SCRATCH' | 'CHARGE' | 'SOFLAN'][] = [
      ['冥', 'NOTES'],
      ['灼熱 Pt.2 Long Train Running', 'PEAK'],
      ['ピアノ協奏曲第１番"蠍火"', 'CHORD'],
      ['卑弥呼', 'SCRATCH'],
      ['ギラギラ', 'CHARGE'],
      ['子供の落書き帳', 'SOFLAN'],
    ];
    await importDefinitions(db, {
      version: 'endpoint-test',
      requireVersion: '0',
      body: titles.map(([title], i) => ({
        title,
        difficulty: '4',
        wr: 1900,
        avg: 1600,
        notes: 1000,
        bpm: String(130 + i * 15),
        textage: '20/x.html',
        difficultyLevel: '12',
        dpLevel: '0',
        coef: -1,
      })),
    });
    const ids: number[] = [];
    for (const c of await db.chart.findMany({ include: { song: true }, orderBy: { id: 'asc' } })) {
      const cat = titles.find(([t]) => t === c.song.title)![1];
      await db.chart.update({ where: { id: c.id }, data: { radarCategory: cat } });
      ids.push(c.id);
    }
    await s.app.catalogue.load();
    p = await aPublicPlayer(db, { name: 'グラフ太郎' });
    hidden = await aPrivatePlayer(db, { name: 'hidden_chart' });
    const exs = [1880, 1750, 1650, 1500, 1820, 1700];
    for (let i = 0; i < ids.length; i++) {
      await aScoreImport(db, p, [
        { chartId: ids[i], exScore: exs[i] - 150, bpi: -10 + i * 5, playedAt: jst(`2026-03-0${1 + i}`, '21:00') },
      ]);
      await aScoreImport(db, p, [
        { chartId: ids[i], exScore: exs[i], bpi: 20 + i * 12, playedAt: jst(`2026-03-1${i}`, '21:00') },
      ]);
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, '--force-color-profile=srgb', '--font-render-hinting=none'],
    });
    page = await browser.newPage({ deviceScaleFactor: 1, viewport: { width: 800, height: 600 } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** Embeds the endpoint as an image; null when it does not load as one. */
  async function render(url: string): Promise<{ image: Image; natural: [number, number] } | null> {
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:#808080"><img id="c" alt="" src="${url}"></body></html>`,
    );
    const img = page.locator('#c');
    const natural = await img.evaluate(async (el: HTMLImageElement) => {
      try {
        await el.decode();
        return [el.naturalWidth, el.naturalHeight] as [number, number];
      } catch {
        return null;
      }
    });
    if (!natural) return null;
    return { image: decodePng(await img.screenshot({ animations: 'disabled' })), natural };
  }

  for (const kind of ['radar', 'trend', 'distribution'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${kind}.svg?theme=${theme} loads as a picture and matches its expectation`, async () => {
        const url = `${s.url}/api/v1/users/${p.id}/charts/${kind}.svg?version=33&theme=${theme}`;
        const svg = await (await fetch(url)).text();
        const r = await render(url);
        expect(r).not.toBeNull();
        const { image, natural } = r!;
        const [w, h] = [Number(/width="(\d+)"/.exec(svg)![1]), Number(/height="(\d+)"/.exec(svg)![1])];
        expect(natural).toEqual([w, h]);
        const bg = hex(PALETTES[theme].background);
        expect(
          Array.from(
            image.data.subarray((3 * image.width + 3) * image.channels, (3 * image.width + 3) * image.channels + 3),
          ).every((v, i) => Math.abs(v - bg[i]) <= 3),
        ).toBe(true);
        const [ar, ag, ab] = hex(PALETTES[theme].accent);
        let accent = 0;
        for (let o = 0; o < image.data.length; o += image.channels) {
          if (
            Math.abs(image.data[o] - ar) <= 12 &&
            Math.abs(image.data[o + 1] - ag) <= 12 &&
            Math.abs(image.data[o + 2] - ab) <= 12
          )
            accent++;
        }
        expect(accent).toBeGreaterThan(150);
        const actual = reduce(image);
        const file = path.join(EXPECTED, `endpoint-${kind}-${theme}.png`);
        if (UPDATE) {
          fs.writeFileSync(file, encodePng(actual));
          return;
        }
        const d = diff(actual, decodePng(fs.readFileSync(file)), THRESHOLD);
        if (d.ratio > MAX_RATIO) {
          fs.mkdirSync(OUT, { recursive: true });
          const base = path.join(OUT, `endpoint-${kind}-${theme}`);
          fs.writeFileSync(`${base}.actual.png`, encodePng(actual));
          fs.writeFileSync(`${base}.diff.png`, encodePng(d.picture));
          fs.writeFileSync(`${base}.svg`, svg);
          throw new Error(
            `endpoint ${kind}-${theme}: ${(d.ratio * 100).toFixed(2)} % of the pixels differ; see ${base}.actual.png`,
          );
        }
      }, 60_000);
    }
  }

  it('a private player\u2019s picture does not load for a stranger (403 JSON)', async () => {
    expect(await render(`${s.url}/api/v1/users/${hidden.id}/charts/radar.svg`)).toBeNull();
  }, 60_000);
});
