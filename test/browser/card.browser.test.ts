/**
 * A share card looked at in headless Chromium as a chat app's preview would show it: the profile
 * card PNG (GET /api/v1/users/{userId}/cards/profile.png) embedded as <img> loads at 1200×630, its
 * left accent bar and background are the light theme's, and the player's Japanese name was drawn
 * (dark text pixels where the name is: the CJK font reached the renderer).
 */
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PALETTES } from '../../src/domain/charts';
import { aPrivatePlayer, aPublicPlayer } from '../helpers/factories';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { describeIf } from '../helpers/skip';
import { decodePng } from './png';

const available = fs.existsSync(CHROMIUM);
const maybe = describeIf(available, `no Chromium at ${CHROMIUM} (apt-get install chromium)`);
const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

maybe('share card in headless Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    s = await startTestServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, '--force-color-profile=srgb'],
    });
    page = await browser.newPage({ deviceScaleFactor: 1, viewport: { width: 1300, height: 700 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  async function show(url: string) {
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:#808080"><img id="c" alt="" src="${url}"></body></html>`,
    );
    const img = page.locator('#c');
    const natural = await img.evaluate(async (el: HTMLImageElement) => {
      try {
        await el.decode();
        return [el.naturalWidth, el.naturalHeight];
      } catch {
        return null;
      }
    });
    return natural ? { natural, image: decodePng(await img.screenshot({ animations: 'disabled' })) } : null;
  }

  it('the profile card loads as a 1200×630 picture with the theme and the name drawn', async () => {
    const u = await aPublicPlayer(s.db.prisma, { name: '共有テスト' });
    const r = await show(`${s.url}/api/v1/users/${u.id}/cards/profile.png`);
    expect(r).not.toBeNull();
    expect(r!.natural).toEqual([1200, 630]);
    const { image } = r!;
    const px = (x: number, y: number) =>
      Array.from(
        image.data.subarray((y * image.width + x) * image.channels, (y * image.width + x) * image.channels + 3),
      );
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]) <= 3);
    expect(near(px(5, 300), hex(PALETTES.light.accent))).toBe(true);
    expect(near(px(600, 5), hex(PALETTES.light.background))).toBe(true);
    // the name (60 px, baseline y = 120, from x = 64): some pixels of the text colour #111827
    let ink = 0;
    for (let y = 70; y < 125; y++) for (let x = 64; x < 500; x++) if (near(px(x, y), hex(PALETTES.light.text))) ink++;
    expect(ink).toBeGreaterThan(300);
  }, 60_000);

  it('a private player\u2019s card does not load for a stranger', async () => {
    const hidden = await aPrivatePlayer(s.db.prisma);
    expect(await show(`${s.url}/api/v1/users/${hidden.id}/cards/profile.png`)).toBeNull();
  }, 60_000);
});
