/**
 * PNG renditions and share cards (docs/portability.md): the chart routes answer .png beside .svg
 * (same parameters, privacy, ETag), and the profile / batch cards are 1200×630 PNGs by default,
 * rasterised on the server (@resvg/resvg-js). The PNGs are decoded (test/browser/png.ts): size from
 * the IHDR chunk, pixels where the card draws its accent bar and its background.
 */
import { aPrivatePlayer, aPublicPlayer, aScoreImport } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';
import { decodePng } from '../../browser/png';

/** width and height from the IHDR chunk (bytes 16–23, after the signature and the chunk header). */
function ihdr(buf: Buffer): { width: number; height: number } {
  expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(buf.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

async function png(path: string, token?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}${path}`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe('PNG pictures', () => {
  it('profile card: 1200×630 PNG (accent bar #2563eb at the left edge, white background), ETag → 304, width scales', async () => {
    const u = await aPublicPlayer(s.db.prisma, { name: 'カード太郎' });
    const charts = (await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 2, select: { id: true } })).map(
      (c) => c.id,
    );
    await aScoreImport(s.db.prisma, u, [
      { chartId: charts[0], exScore: 1500 },
      { chartId: charts[1], exScore: 1200 },
    ]);
    const res = await png(`/api/v1/users/${u.id}/cards/profile.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(ihdr(res.body)).toEqual({ width: 1200, height: 630 });
    const img = decodePng(res.body);
    const px = (x: number, y: number) =>
      Array.from(img.data.subarray((y * img.width + x) * img.channels, (y * img.width + x) * img.channels + 3));
    expect(px(5, 300)).toEqual([0x25, 0x63, 0xeb]); // the 12 px accent bar (light theme accent #2563eb)
    expect(px(300, 10)).toEqual([255, 255, 255]); // background #ffffff above the name
    const etag = res.headers.get('etag')!;
    expect((await png(`/api/v1/users/${u.id}/cards/profile.png`, undefined, { 'if-none-match': etag })).status).toBe(
      304,
    );
    // 600 wide → 600 × 630 / 1200 = 315 high
    expect(ihdr((await png(`/api/v1/users/${u.id}/cards/profile.png?width=600&theme=dark`)).body)).toEqual({
      width: 600,
      height: 315,
    });
    expect((await png(`/api/v1/users/${u.id}/cards/profile.png?width=5`)).status).toBe(400);
  });

  it('chart PNGs beside the SVGs (1200×630 frame), and a private player is 403 like the SVG', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    for (const kind of ['radar', 'trend', 'distribution']) {
      const res = await png(`/api/v1/users/${u.id}/charts/${kind}.png`);
      expect(res.status).toBe(200);
      expect(ihdr(res.body)).toEqual({ width: 1200, height: 630 });
    }
    const hidden = await aPrivatePlayer(s.db.prisma);
    const stranger = await aPublicPlayer(s.db.prisma);
    const t = await s.tokenFor(stranger.id);
    expect((await png(`/api/v1/users/${hidden.id}/charts/radar.png`, t)).status).toBe(403);
    expect((await png(`/api/v1/users/${hidden.id}/charts/radar.svg`, t)).status).toBe(403);
    expect((await png(`/api/v1/users/${hidden.id}/cards/profile.png`, t)).status).toBe(403);
    expect((await png(`/api/v1/users/${hidden.id}/cards/profile.png`, await s.tokenFor(hidden.id))).status).toBe(200);
  });

  it("batch card: the batch's player's visibility; unknown batch 404", async () => {
    const charts = (await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 1, select: { id: true } })).map(
      (c) => c.id,
    );
    const u = await aPublicPlayer(s.db.prisma);
    await aScoreImport(s.db.prisma, u, [{ chartId: charts[0], exScore: 1500 }]);
    const batch = await s.db.prisma.importBatch.findFirstOrThrow({ where: { userId: u.id } });
    const res = await png(`/api/v1/batches/${batch.id}/card.png`);
    expect(res.status).toBe(200);
    expect(ihdr(res.body)).toEqual({ width: 1200, height: 630 });
    expect((await png('/api/v1/batches/no-such-batch/card.png')).status).toBe(404);
    const hidden = await aPrivatePlayer(s.db.prisma);
    await aScoreImport(s.db.prisma, hidden, [{ chartId: charts[0], exScore: 1400 }]);
    const hb = await s.db.prisma.importBatch.findFirstOrThrow({ where: { userId: hidden.id } });
    expect((await png(`/api/v1/batches/${hb.id}/card.png`)).status).toBe(403); // anonymous: as the SVG charts
  });
});
