import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { aPrivatePlayer, aPublicPlayer, aVersionStatus, follows } from '../../helpers/factories';
import type { User } from '../../../src/generated/prisma/client';
import { sqlFor } from '../../helpers/sql-count';

/**
 * The frontend's nested read (user → followers → their profile and stats) runs a constant number
 * of SQL statements whatever the number of followers: every per-row lookup goes through loaders.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const QUERY = `query($id: ID!) { user(id: $id) {
  name stats { totalBpi }
  followers(first: 50) { totalCount edges { followedAt node { name isMasked profileText gameId follows { followers following }
    relationship { isFollowing } role { role } stats { totalBpi arenaClass } areaRank { areaRank } } } }
} }`;

async function userWithFollowers(n: number): Promise<User> {
  const db = s.db.prisma;
  const target = await aPublicPlayer(db);
  for (let i = 0; i < n; i++) {
    const f =
      i % 3 === 0
        ? await aPrivatePlayer(db, { gameId: String(10000000 + i) })
        : await aPublicPlayer(db, { gameId: String(10000000 + i) });
    await aVersionStatus(db, f, '33', { totalBpi: i, arenaClass: 'A5' });
    await follows(db, f, target, { approved: i % 2 === 0 });
  }
  return target;
}

async function countFor(target: User, token?: string): Promise<{ count: number; edges: number }> {
  s.sql.reset();
  const data = expectNoErrors<any>(await s.gql(QUERY, { id: target.id }, token));
  return { count: s.sql.count, edges: data.user.followers.edges.length };
}

describe('nested profile read: constant SQL statements', () => {
  it('runs the same number of statements for 5 and for 50 followers (anonymous and signed-in)', async () => {
    const small = await userWithFollowers(5);
    const big = await userWithFollowers(50);
    const viewer = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, big, viewer);
    await follows(s.db.prisma, small, viewer);

    const a5 = await countFor(small);
    const a50 = await countFor(big);
    expect(a5.edges).toBe(5);
    expect(a50.edges).toBe(50);
    expect(a50.count).toBe(a5.count);

    const token = await s.tokenFor(viewer.id);
    const v5 = await countFor(small, token);
    const v50 = await countFor(big, token);
    expect(v50.count).toBe(v5.count);
    expect(v50.count).toBeLessThanOrEqual(15);

    // private followers the viewer may not see stay masked inside the batched read
    const data = expectNoErrors<any>(await s.gql(QUERY, { id: big.id }, token));
    const masked = data.user.followers.edges.filter((e: any) => e.node.isMasked);
    expect(masked.length).toBe(17);
    for (const e of masked)
      expect(e.node).toMatchObject({ name: '非公開ユーザー', stats: null, profileText: null, gameId: null });
  });

  it('pages nested connections per parent in one statement per level (followers of followers)', async () => {
    const db = s.db.prisma;
    const hub = await aPublicPlayer(db);
    const fans: User[] = [];
    for (let i = 0; i < 4; i++) {
      const fan = await aPublicPlayer(db);
      await db.follow.create({
        data: { followerId: fan.id, followingId: hub.id, createdAt: new Date(Date.now() - (10 - i) * 1000) },
      });
      fans.push(fan);
    }
    // fan i has i + 1 followers of its own
    const expected = new Map<string, string[]>();
    for (const [i, fan] of fans.entries()) {
      const ids: string[] = [];
      for (let j = 0; j <= i; j++) {
        const f = await aPublicPlayer(db);
        await db.follow.create({
          data: { followerId: f.id, followingId: fan.id, createdAt: new Date(Date.now() - (10 - j) * 1000) },
        });
        ids.unshift(f.id);
      }
      expected.set(fan.id, ids);
    }
    const Q = `query($id: ID!) { user(id: $id) { followers(first: 10) { edges { node { id: databaseId followers(first: 2) { totalCount pageInfo { hasNextPage } edges { node { id: databaseId } } } } } } } }`;
    s.sql.reset();
    const data = expectNoErrors<any>(await s.gql(Q, { id: hub.id }));
    const statements = s.sql.count;
    for (const e of data.user.followers.edges) {
      const want = expected.get(e.node.id)!;
      expect(e.node.followers.totalCount).toBe(want.length);
      expect(e.node.followers.edges.map((x: any) => x.node.id)).toEqual(want.slice(0, 2));
      expect(e.node.followers.pageInfo.hasNextPage).toBe(want.length > 2);
    }
    expect(data.user.followers.edges.map((e: any) => e.node.id)).toEqual([...fans].reverse().map((f) => f.id));
    expect(statements).toBeLessThanOrEqual(10);
  });

  it('reads a follow page and its users in one statement, and counts the list only when totalCount is selected', async () => {
    const db = s.db.prisma;
    const hub = await aPublicPlayer(db);
    for (let i = 0; i < 3; i++) await follows(db, await aPublicPlayer(db), hub);
    await follows(db, hub, await aPublicPlayer(db));
    const counting = (x: { statements: string[] }) => x.statements.filter((q) => /COUNT\(\*\)/i.test(q)).length;
    const names = await sqlFor(
      s,
      `query($id: ID!) { user(id: $id) { followers(first: 2) { edges { node { name } } } } }`,
      {
        id: hub.id,
      },
    );
    expect(names.data.user.followers.edges).toHaveLength(2);
    expect(counting(names)).toBe(0);
    // the page's users come with the page's rows: the one User read is the hub's own (user(id:))
    expect(names.statements.filter((q) => q.includes('FROM "public"."User"'))).toHaveLength(1);
    // 3 followers (2 on the page), 1 followed: both counts in one batch (followers and following)
    const total = await sqlFor(
      s,
      `query($id: ID!) { user(id: $id) { followers(first: 2) { totalCount edges { node { name } } } following(first: 2) { totalCount } } }`,
      { id: hub.id },
    );
    expect([total.data.user.followers.totalCount, total.data.user.following.totalCount]).toEqual([3, 1]);
    expect(counting(total)).toBe(2);
  });
});
