/**
 * GET /api/v1/me/export (docs/portability.md): the caller's whole account as one streamed JSON
 * document — the same document the account deletion writes as its backup (one builder).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountDocument } from '../../../src/modules/users/account-backup';
import { aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bpigraph-account-export-'));
  s = await startTestServer({ env: { USER_DELETION_BACKUP_DIR: dir } });
});
afterAll(async () => {
  await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const withoutTime = (doc: Record<string, unknown>) => ({ ...doc, exportedAt: undefined });

describe('account export', () => {
  it('streams everything the account holds; the deletion backup is the same document', async () => {
    const charts = (await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 3, select: { id: true } })).map(
      (c) => c.id,
    );
    const u = await aPublicPlayer(s.db.prisma, { name: 'Mover' });
    const friend = await aPublicPlayer(s.db.prisma);
    const fan = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, u, friend);
    await follows(s.db.prisma, fan, u);
    await aScoreImport(s.db.prisma, u, [
      { chartId: charts[0], exScore: 1500 },
      { chartId: charts[1], exScore: 1200 },
    ]);
    await aScoreImport(s.db.prisma, u, [{ chartId: charts[2], exScore: 1000 }]);
    const token = await s.tokenFor(u.id);
    expectNoErrors(
      await s.gql(
        'mutation($o: ID!) { createFollowList(userId: $o, name: "rivals") { __typename } }',
        { o: u.id },
        token,
      ),
    );

    const res = await s.get('/api/v1/me/export', token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="bpigraph-account-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const doc = res.body;
    expect(doc).toMatchObject({ userId: u.id, user: { id: u.id, name: 'Mover' } });
    // 3 plays in 2 batches, 3 bests; one follow each way; the list
    expect(doc.scores.map((x: any) => [x.chartId, x.exScore])).toEqual([
      [charts[0], 1500],
      [charts[1], 1200],
      [charts[2], 1000],
    ]);
    expect(doc.batches).toHaveLength(2);
    expect(doc.bestScores).toHaveLength(3);
    expect(doc.follows.following.map((f: any) => f.followingId)).toEqual([friend.id]);
    expect(doc.follows.followers.map((f: any) => f.followerId)).toEqual([fan.id]);
    expect(doc.followLists.map((l: any) => l.name)).toEqual(['rivals']);

    // pages of one play: the same document, in more chunks
    const chunks: string[] = [];
    for await (const c of accountDocument(s.db.prisma, u.id, 1)) chunks.push(c);
    expect(chunks.length).toBe(1 + 3 + 1); // head, one chunk per play, tail
    expect(withoutTime(JSON.parse(chunks.join('')))).toEqual(withoutTime(doc));

    // the deletion writes the same document
    expectNoErrors(await s.gql('mutation { deleteAccount(confirmName: "Mover") { deletedUserId } }', {}, token));
    const file = fs.readdirSync(dir).find((f) => f.startsWith(`${u.id}_`))!;
    expect(withoutTime(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')))).toEqual(withoutTime(doc));
  });

  it('needs a token; a deleted account is 404', async () => {
    expect((await s.get('/api/v1/me/export')).status).toBe(401);
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    await s.db.prisma.user.delete({ where: { id: u.id } });
    const res = await s.get('/api/v1/me/export', token);
    expect([401, 404]).toContain(res.status);
  });
});
