import sharp from 'sharp';
import { startTestServer, type TestServer } from '../../helpers/server';
import { aPlayer, aPrivatePlayer, aPublicPlayer, follows } from '../../helpers/factories';
import type { User } from '../../../src/generated/prisma/client';

/**
 * PUT / DELETE /api/v1/me/profile-image and GET /api/v1/users/{userId}/profile-image
 * (docs/profile-image.md), on the real server: PGlite by default, PostgreSQL with DATABASE_URL.
 */

/** A w×h PNG of one opaque colour, built from raw RGB pixels. */
const png = (w: number, h: number, rgb: [number, number, number] = [200, 40, 40]) =>
  sharp(Buffer.alloc(w * h * 3, Buffer.from(rgb)), { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();

describe('profile image upload', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seedDemo: false });
  });
  afterAll(async () => s?.close());

  const put = async (body: Uint8Array | string, token?: string, type = 'image/png') =>
    fetch(`${s.url}/api/v1/me/profile-image`, {
      method: 'PUT',
      headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body as BodyInit,
    });
  const del = async (token: string) =>
    fetch(`${s.url}/api/v1/me/profile-image`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  const image = async (userId: string, query = '', token?: string, headers: Record<string, string> = {}) =>
    fetch(`${s.url}/api/v1/users/${userId}/profile-image${query}`, {
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const profileImageOf = async (userId: string) =>
    (await s.db.prisma.user.findUniqueOrThrow({ where: { id: userId } })).profileImage;

  it('stores 256 and 64 px square WebPs, points profileImage at them, and serves them with ETag and 304', async () => {
    const user = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(user.id);
    // 40×20: a non-square source, cropped to a centred square and scaled up to each size
    const res = await put(await png(40, 20), token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { profileImage: string; etag: string; sizes: number[] };
    expect(body.sizes).toEqual([256, 64]);
    expect(body.profileImage).toBe(`${s.url}/api/v1/users/${user.id}/profile-image?v=${body.etag}`);
    expect(await profileImageOf(user.id)).toBe(body.profileImage);

    // the profile (REST) shows the new URL
    const profile = await s.get(`/api/v1/users/${user.id}/profile`);
    expect(profile.body.profile.profileImage).toBe(body.profileImage);

    for (const size of [256, 64]) {
      const r = await image(user.id, `?size=${size}&v=${body.etag}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/webp');
      expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', size, size]);
      const etag = r.headers.get('etag')!;
      expect(etag).toBe(`"${body.etag}-${size}"`);
      const again = await image(user.id, `?size=${size}&v=${body.etag}`, undefined, { 'if-none-match': etag });
      expect(again.status).toBe(304);
    }
    // default size 256; without the version: revalidate each time
    const plain = await image(user.id);
    expect(plain.headers.get('etag')).toBe(`"${body.etag}-256"`);
    expect(plain.headers.get('cache-control')).toBe('public, no-cache');
    // the colour survives the re-encoding (lossy: within a few levels of 200,40,40)
    const { data } = await sharp(Buffer.from(await plain.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(Math.abs(data[0] - 200)).toBeLessThan(10);
    expect(Math.abs(data[1] - 40)).toBeLessThan(10);

    expect((await image(user.id, '?size=100')).status).toBe(400);
  });

  it('deletes the image and clears profileImage; a second delete is 404', async () => {
    const user = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(user.id);
    expect((await put(await png(8, 8), token)).status).toBe(200);
    expect((await del(token)).status).toBe(204);
    expect(await profileImageOf(user.id)).toBeNull();
    expect(await s.db.prisma.profileImage.count({ where: { userId: user.id } })).toBe(0);
    expect((await image(user.id)).status).toBe(404);
    expect((await del(token)).status).toBe(404);
  });

  it("serves a private player's image only to those who may see the profile", async () => {
    const owner = await aPrivatePlayer(s.db.prisma);
    const follower = await aPlayer(s.db.prisma);
    const stranger = await aPlayer(s.db.prisma);
    await follows(s.db.prisma, follower, owner, { approved: true });
    expect((await put(await png(16, 16), await s.tokenFor(owner.id))).status).toBe(200);
    const v = (await s.db.prisma.profileImage.findFirstOrThrow({ where: { userId: owner.id } })).etag;

    const asOwner = await image(owner.id, `?v=${v}`, await s.tokenFor(owner.id));
    expect(asOwner.status).toBe(200);
    // a shared cache must not keep it: private, even with the version
    expect(asOwner.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect((await image(owner.id, `?v=${v}`, await s.tokenFor(follower.id))).status).toBe(200);
    expect((await image(owner.id, `?v=${v}`, await s.tokenFor(stranger.id))).status).toBe(403);
    expect([401, 403]).toContain((await image(owner.id, `?v=${v}`)).status);
  });

  it('refuses bad input with 415 / 413 / 400 naming the limit and writes nothing', async () => {
    const user: User = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(user.id);

    const notImage = await put('GIF89a not a png', token);
    expect(notImage.status).toBe(415);
    expect(((await notImage.json()) as { message: string }).message).toMatch(/PNG, JPEG or WebP/);

    const wrongType = await put(await png(8, 8), token, 'text/plain');
    expect(wrongType.status).toBe(415);

    // 5 MiB = 5 × 1024 × 1024 = 5242880 bytes; one more byte than that, behind a real PNG signature
    const big = Buffer.concat([await png(8, 8), Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const tooBig = await put(big, token);
    expect(tooBig.status).toBe(413);
    const tooBigBody = (await tooBig.json()) as { message: string; errors: { limit: number }[] };
    expect(tooBigBody.message).toContain('5242880');
    expect(tooBigBody.errors[0].limit).toBe(5242880);

    // far over the cap: stopped while reading, same answer
    const huge = await put(Buffer.alloc(6 * 1024 * 1024, 1), token);
    expect(huge.status).toBe(413);

    // a PNG header claiming 5000 px wide: over the 4096 px side cap, refused before decoding
    const header = Buffer.from(await png(8, 8));
    header.writeUInt32BE(5000, 16);
    const wide = await put(header, token);
    expect(wide.status).toBe(400);
    expect(((await wide.json()) as { errors: { limit: number }[] }).errors[0].limit).toBe(4096);

    // a valid header over damaged data: the decoder refuses it
    const damaged = Buffer.from(await png(8, 8)).subarray(0, 40);
    expect((await put(damaged, token)).status).toBe(400);

    expect((await put(await png(8, 8))).status).toBe(401);
    expect(await s.db.prisma.profileImage.count({ where: { userId: user.id } })).toBe(0);
    expect(await profileImageOf(user.id)).toBeNull();
  });

  it('two uploads at once for one user leave one consistent set (every size of one upload)', async () => {
    const user = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(user.id);
    const [a, b] = await Promise.all([png(12, 12, [255, 0, 0]), png(12, 12, [0, 0, 255])]);
    const answers = await Promise.all([put(a, token), put(b, token)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const etags = await Promise.all(answers.map(async (r) => ((await r.json()) as { etag: string }).etag));
    expect(etags[0]).not.toBe(etags[1]);
    const rows = await s.db.prisma.profileImage.findMany({ where: { userId: user.id }, orderBy: { size: 'asc' } });
    expect(rows.map((r) => r.size)).toEqual([64, 256]);
    // one upload's set: both sizes carry the same etag, one of the two, and profileImage names it
    expect(rows[0].etag).toBe(rows[1].etag);
    expect(etags).toContain(rows[0].etag);
    expect(await profileImageOf(user.id)).toBe(`${s.url}/api/v1/users/${user.id}/profile-image?v=${rows[0].etag}`);
  });
});
