/**
 * The PNG cards and the downloads run fixed GraphQL documents (src/rest/documents/cards.ts,
 * export.ts): the GraphQL fields they read answer as the routes do, and the batch card's PNG is the
 * rasterised SVG of Query.batchCard (its ETag is the SVG's, at the asked size).
 */
import { hashSecret, newSecret } from '../../../src/modules/auth/secrets';
import { pngEtag } from '../../../src/rest/png';
import { aPrivatePlayer, aPublicPlayer, anAdmin, aScoreImport, follows } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const BATCH_CARD = 'query($b: ID!, $t: ChartTheme) { batchCard(batchId: $b, theme: $t) { isPublic svg } }';
const codeOf = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) =>
  res.body.errors?.[0]?.extensions?.code ?? null;

async function firstChart(): Promise<number> {
  return (await s.db.prisma.chart.findFirstOrThrow({ orderBy: { id: 'asc' }, select: { id: true } })).id;
}

describe('batch card through Query.batchCard', () => {
  it("answers the card's SVG and the player's visibility; the PNG's ETag is that SVG's", async () => {
    const u = await aPublicPlayer(s.db.prisma, { name: 'CardDocPlayer' });
    await aScoreImport(s.db.prisma, u, [{ chartId: await firstChart(), exScore: 1500 }]);
    const batch = await s.db.prisma.importBatch.findFirstOrThrow({ where: { userId: u.id } });
    const res = await s.gql(BATCH_CARD, { b: batch.id, t: 'DARK' });
    expect(codeOf(res)).toBeNull();
    const card = res.body.data.batchCard as { isPublic: boolean; svg: string };
    expect(card.isPublic).toBe(true);
    expect(card.svg).toContain('CardDocPlayer');
    // width 600 → height 600 × 630 / 1200 = 315
    const png = await fetch(`${s.url}/api/v1/batches/${batch.id}/card.png?theme=dark&width=600`);
    expect(png.status).toBe(200);
    expect(png.headers.get('etag')).toBe(pngEtag(card.svg, 600, 315));
    expect(png.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('a private player: FORBIDDEN for a stranger, the card for an approved follower; unknown batch NOT_FOUND', async () => {
    const hidden = await aPrivatePlayer(s.db.prisma);
    const stranger = await aPublicPlayer(s.db.prisma);
    const follower = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, follower, hidden, { approved: true });
    await aScoreImport(s.db.prisma, hidden, [{ chartId: await firstChart(), exScore: 1400 }]);
    const batch = await s.db.prisma.importBatch.findFirstOrThrow({ where: { userId: hidden.id } });
    expect(codeOf(await s.gql(BATCH_CARD, { b: batch.id }))).toBe('FORBIDDEN');
    expect(codeOf(await s.gql(BATCH_CARD, { b: batch.id }, await s.tokenFor(stranger.id)))).toBe('FORBIDDEN');
    const seen = await s.gql(BATCH_CARD, { b: batch.id }, await s.tokenFor(follower.id));
    expect(codeOf(seen)).toBeNull();
    expect(seen.body.data.batchCard.isPublic).toBe(false);
    const png = await fetch(`${s.url}/api/v1/batches/${batch.id}/card.png`, {
      headers: { authorization: `Bearer ${await s.tokenFor(follower.id)}` },
    });
    expect(png.status).toBe(200);
    expect(png.headers.get('cache-control')).toBe('private, max-age=300');
    const unknown = await s.gql(BATCH_CARD, { b: 'no-such-batch' });
    expect(codeOf(unknown)).toBe('NOT_FOUND');
    expect(unknown.body.errors[0].message).toBe('Batch not found');
  });
});

describe('download gates', () => {
  const EXPORT_USER = 'query($u: ID!) { scoresExportUser(userId: $u) { databaseId } }';

  it('scoresExportUser: the owner and an administrator; an unknown player is NOT_FOUND for the administrator', async () => {
    const owner = await aPublicPlayer(s.db.prisma);
    const other = await aPublicPlayer(s.db.prisma);
    const admin = await anAdmin(s.db.prisma);
    const own = await s.gql(EXPORT_USER, { u: owner.id }, await s.tokenFor(owner.id));
    expect(own.body.data.scoresExportUser).toEqual({ databaseId: owner.id });
    expect(codeOf(await s.gql(EXPORT_USER, { u: owner.id }, await s.tokenFor(other.id)))).toBe('FORBIDDEN');
    expect(codeOf(await s.gql(EXPORT_USER, { u: owner.id }))).toBe('UNAUTHENTICATED');
    const byAdmin = await s.gql(EXPORT_USER, { u: owner.id }, await s.tokenFor(admin.id));
    expect(byAdmin.body.data.scoresExportUser).toEqual({ databaseId: owner.id });
    const missing = await s.get('/api/v1/users/no-such-user/scores/export', await s.tokenFor(admin.id));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'User not found' });
  });

  it("accountExportUser / GET /api/v1/me/export: the caller's own token only, never a third-party app's", async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const me = await s.gql('{ accountExportUser { databaseId } }', {}, await s.tokenFor(u.id));
    expect(me.body.data.accountExportUser).toEqual({ databaseId: u.id });
    const client = await s.db.prisma.oAuthClient.create({
      data: { id: 'card-documents-client', name: 'card-documents', redirectUris: ['https://cards.example/cb'] },
    });
    const appToken = newSecret('bpat');
    await s.db.prisma.oAuthToken.create({
      data: {
        tokenHash: hashSecret(appToken),
        kind: 'ACCESS',
        familyId: 'card-documents',
        clientId: client.id,
        userId: u.id,
        scope: 'read write',
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    const res = await s.get('/api/v1/me/export', appToken);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message: 'Third-party application tokens cannot do this: use your own access token',
    });
  });
});
