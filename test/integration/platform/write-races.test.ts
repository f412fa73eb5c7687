/**
 * Every write path with concurrent callers (the imports have their own tests:
 * scores/concurrent-imports, scores/interleavings.property, cluster/many-writers; votes, upvotes
 * and OAuth codes theirs: patterns, notes, auth/oauth). Each case sends the same or conflicting
 * mutations at once through one server and checks that no caller gets INTERNAL_SERVER_ERROR, that
 * a loser gets the error code a one-by-one caller would get, and that the stored state is what
 * some order of the calls leaves (no lost update, no duplicate, no partial write). PGlite runs it
 * (requests interleave between their statements) and PostgreSQL (real concurrency: TEST_ALL=1).
 */
import { aPublicPlayer, follows, withBestScore } from '../../helpers/factories';
import { bestsOf, IMPORT_ROWS } from '../../helpers/import-race';
import { startTestServer, type TestServer } from '../../helpers/server';
import { importScores } from '../../../src/modules/scores/import.service';

type Res = { status: number; body: { data?: any; errors?: { message: string; extensions?: { code?: string } }[] } };
const codes = (rs: Res[]) => rs.map((r) => r.body.errors?.[0]?.extensions?.code ?? 'OK');

describe('write paths under concurrent callers', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const player = async () => {
    const u = await aPublicPlayer(s.db.prisma);
    return { ...u, token: await s.tokenFor(u.id) };
  };
  const all = (n: number, f: (i: number) => Promise<Res>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

  it('follow × 6 at once: one follow, one change, one notification', async () => {
    const [a, b] = [await player(), await player()];
    const rs = await all(6, () =>
      s.gql(`mutation($u: ID!) { follow(userId: $u) { changed state } }`, { u: b.id }, a.token),
    );
    expect(codes(rs)).toEqual(Array(6).fill('OK'));
    expect(rs.filter((r) => r.body.data.follow.changed)).toHaveLength(1);
    expect(await s.db.prisma.follow.count({ where: { followerId: a.id, followingId: b.id } })).toBe(1);
    await s.app.events.settled();
    expect(await s.db.prisma.notification.count({ where: { recipientId: b.id, actorId: a.id } })).toBe(1);
  });

  it('follow and unfollow interleaved: every call answers, the row matches the last change', async () => {
    const [a, b] = [await player(), await player()];
    const rs = await all(8, (i) =>
      s.gql(
        `mutation($u: ID!) { r: ${i % 2 ? 'unfollow' : 'follow'}(userId: $u) { changed state } }`,
        { u: b.id },
        a.token,
      ),
    );
    expect(codes(rs)).toEqual(Array(8).fill('OK'));
    // changes alternate follow / unfollow whatever the order: the changed follows are the changed
    // unfollows, or one more (then the pair ends followed)
    const changed = (kind: number) => rs.filter((r, i) => i % 2 === kind && r.body.data.r.changed).length;
    const rows = await s.db.prisma.follow.count({ where: { followerId: a.id, followingId: b.id } });
    expect(changed(0) - changed(1)).toBe(rows);
  });

  it('two players take one name at once: one has it, the other a CONFLICT (never INTERNAL)', async () => {
    const [a, b] = [await player(), await player()];
    const name = `race${Date.now() % 100000}`;
    const rs = await Promise.all(
      [a, b].map((p) =>
        s.gql(
          `mutation($i: UpdateProfileInput!) { updateProfile(input: $i) { user { name } } }`,
          { i: { name } },
          p.token,
        ),
      ),
    );
    expect(codes(rs).sort()).toEqual(['CONFLICT', 'OK']);
    expect(await s.db.prisma.user.count({ where: { name } })).toBe(1);
  });

  it('two updates of different profile fields at once: both stay (no lost update)', async () => {
    const a = await player();
    const rs = await Promise.all([
      s.gql(`mutation { updateProfile(input: { profileText: "written at once" }) { user { name } } }`, {}, a.token),
      s.gql(`mutation { updateProfile(input: { isPublic: false }) { user { name } } }`, {}, a.token),
    ]);
    expect(codes(rs)).toEqual(['OK', 'OK']);
    const u = await s.db.prisma.user.findUniqueOrThrow({ where: { id: a.id } });
    expect([u.profileText, u.isPublic]).toEqual(['written at once', false]);
  });

  it('a follow list created twice at once under one name, a member added 4 × at once: one list, one member', async () => {
    const [a, b] = [await player(), await player()];
    const rs = await all(2, () => s.gql(`mutation { createFollowList(name: "rivals") { databaseId } }`, {}, a.token));
    // the second is refused (one name per owner) with CONFLICT — or both succeed as two lists if
    // the names may repeat; never INTERNAL
    expect(codes(rs)).not.toContain('INTERNAL_SERVER_ERROR');
    const lists = await s.db.prisma.followList.count({ where: { ownerId: a.id } });
    expect(lists).toBe(codes(rs).filter((c) => c === 'OK').length);
    const listId = rs.find((r) => !r.body.errors)!.body.data.createFollowList.databaseId;
    await follows(s.db.prisma, a, b);
    const adds = await all(4, () =>
      s.gql(
        `mutation($l: ID!, $m: ID!) { addFollowListMember(listId: $l, memberId: $m) { isMember } }`,
        { l: String(listId), m: b.id },
        a.token,
      ),
    );
    expect(codes(adds)).toEqual(Array(4).fill('OK'));
    expect(await s.db.prisma.followListMember.count({ where: { listId } })).toBe(1);
  });

  it('a member added while the owner unfollows them: never a member the owner does not follow', async () => {
    const a = await player();
    const list = await s.gql(`mutation { createFollowList(name: "close") { databaseId } }`, {}, a.token);
    const listId = String(list.body.data.createFollowList.databaseId);
    for (let round = 0; round < 6; round++) {
      const b = await player();
      await follows(s.db.prisma, a, b);
      const rs = await Promise.all([
        s.gql(
          `mutation($l: ID!, $m: ID!) { addFollowListMember(listId: $l, memberId: $m) { isMember } }`,
          { l: listId, m: b.id },
          a.token,
        ),
        s.gql(`mutation($u: ID!) { unfollow(userId: $u) { changed } }`, { u: b.id }, a.token),
      ]);
      // the add comes first (and the unfollow takes the member out) or finds no follow (BAD_USER_INPUT)
      expect(['OK', 'BAD_USER_INPUT']).toContain(codes(rs)[0]);
      expect(codes(rs)[1]).toBe('OK');
      expect(await s.db.prisma.follow.count({ where: { followerId: a.id, followingId: b.id } })).toBe(0);
      expect(await s.db.prisma.followListMember.count({ where: { userId: b.id } })).toBe(0);
    }
  });

  it('one batch deleted twice at once: one deletion, the other NOT_FOUND; the bests are the other batch', async () => {
    const a = await player();
    const c = [...s.app.catalogue.charts()].find((x) => x.playStyle === 'SP' && x.definition)!;
    const row = (ex: number) => [
      { title: c.title, playStyle: 'SP', difficulty: c.difficulty, exScore: ex, clearState: 'CLEAR' },
    ];
    const first = await s.gql(IMPORT_ROWS, { version: '33', rows: row(100) }, a.token);
    const second = await s.gql(IMPORT_ROWS, { version: '33', rows: row(200) }, a.token);
    const batchId = second.body.data.importScores.batchId;
    expect(first.body.data.importScores.batchId).toBeTruthy();
    const rs = await all(2, () =>
      s.gql(`mutation($b: ID!) { deleteBatch(batchId: $b) { batchId } }`, { b: batchId }, a.token),
    );
    expect(codes(rs).sort()).toEqual(['NOT_FOUND', 'OK']);
    // the first batch's EX 100 is the best again
    expect([...(await bestsOf(s.db.prisma, a.id, '33')).values()].map((b) => b.exScore)).toEqual([100]);
  });

  it('an API key issued twice at once: one key stored, exactly one of the two answers works', async () => {
    const a = await player();
    const rs = await all(2, () => s.gql(`mutation { issueApiKey { apiKey } }`, {}, a.token));
    expect(codes(rs)).toEqual(['OK', 'OK']);
    expect(await s.db.prisma.apiKey.count({ where: { userId: a.id } })).toBe(1);
    const works = await Promise.all(
      rs.map(async (r) => {
        const res = await fetch(`${s.url}/api/v1/token`, {
          method: 'POST',
          headers: { 'x-api-key': r.body.data.issueApiKey.apiKey },
        });
        return res.status === 200;
      }),
    );
    expect(works.filter(Boolean)).toHaveLength(1);
  });

  it('one tower day registered 3 × at once: one row, with one of the values sent', async () => {
    const a = await player();
    const rs = await all(3, (i) =>
      s.gql(
        `mutation($r: [TowerDayInput!]!) { registerTower(version: "33", rows: $r) { upsertedCount } }`,
        { r: [{ playDate: '2025-06-01', keyCount: 100 + i, scratchCount: 10 }] },
        a.token,
      ),
    );
    expect(codes(rs)).toEqual(['OK', 'OK', 'OK']);
    const rows = await s.db.prisma.towerEntry.findMany({ where: { userId: a.id } });
    expect(rows).toHaveLength(1);
    expect([100, 101, 102]).toContain(rows[0].keyCount);
  });

  it('a note edited twice at once: one of the two bodies, no error', async () => {
    const a = await player();
    const c = [...s.app.catalogue.charts()].find((x) => x.playStyle === 'SP' && x.definition)!;
    await withBestScore(s.db.prisma, a, c.id, 100); // notes may need a play of the chart
    const posted = await s.gql(
      `mutation($c: ID!) { postSongNote(chartId: $c, body: "first words") { note { databaseId } } }`,
      { c: String(c.id) },
      a.token,
    );
    if (posted.body.errors) throw new Error(JSON.stringify(posted.body.errors));
    const id = String(posted.body.data.postSongNote.note.databaseId);
    const rs = await Promise.all(
      ['edit one', 'edit two'].map((body) =>
        s.gql(
          `mutation($i: ID!, $b: String!) { editSongNote(id: $i, body: $b) { note { body } } }`,
          { i: id, b: body },
          a.token,
        ),
      ),
    );
    expect(codes(rs)).toEqual(['OK', 'OK']);
    const note = await s.db.prisma.songNote.findUniqueOrThrow({ where: { id: Number(id) } });
    expect(['edit one', 'edit two']).toContain(note.body);
  });

  it('an account deleted while its import runs: both answer (no INTERNAL), nothing of the player is left', async () => {
    const a = await player();
    const charts = [...s.app.catalogue.charts()].filter((x) => x.playStyle === 'SP' && x.definition).slice(0, 20);
    const rows = charts.map((c) => ({
      title: c.title,
      playStyle: 'SP',
      difficulty: c.difficulty,
      exScore: c.notes,
      clearState: 'CLEAR',
    }));
    const rs = await Promise.all([
      s.gql(IMPORT_ROWS, { version: '33', rows }, a.token),
      s.gql(`mutation($n: String!) { deleteAccount(confirmName: $n) { deletedUserId } }`, { n: a.name }, a.token),
    ]);
    // the import runs first (and the deletion removes it) or finds its player gone (a clear error)
    expect(codes(rs)).not.toContain('INTERNAL_SERVER_ERROR');
    expect(codes(rs)[1]).toBe('OK');
    await s.app.events.settled();
    expect(await s.db.prisma.user.count({ where: { id: a.id } })).toBe(0);
    expect(await s.db.prisma.score.count({ where: { userId: a.id } })).toBe(0);
    expect(await s.db.prisma.bestScore.count({ where: { userId: a.id } })).toBe(0);
    expect(await s.db.prisma.importBatch.count({ where: { userId: a.id } })).toBe(0);
  });

  it('an import that reaches its transaction after the account is gone: NOT_FOUND, nothing written', async () => {
    // the deletion committed between the request's authentication and the import's transaction (the
    // race above, made certain): the import checks its player under the player's lock
    const a = await player();
    const chart = [...s.app.catalogue.charts()].find((x) => x.playStyle === 'SP' && x.definition)!;
    await s.db.prisma.user.delete({ where: { id: a.id } });
    const run = importScores(
      { db: s.db.prisma, catalogue: s.app.catalogue },
      {
        userId: a.id,
        version: '33',
        source: 'ROWS',
        rows: [
          {
            line: 1,
            title: chart.title,
            difficulty: chart.difficulty,
            exScore: 1,
            clearLamp: 'CLEAR',
            missCount: null,
            lastPlayed: null,
          },
        ],
      },
    );
    await expect(run).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await s.db.prisma.importBatch.count({ where: { userId: a.id } })).toBe(0);
    expect(await s.db.prisma.score.count({ where: { userId: a.id } })).toBe(0);
  });
});
