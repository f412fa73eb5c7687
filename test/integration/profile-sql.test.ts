import { expectNoErrors, startTestServer, type TestServer } from '../helpers/server';
import { aPrivatePlayer, aPublicPlayer, aVersionStatus, follows } from '../helpers/factories';
import type { User } from '../../src/generated/prisma/client';

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
    const f = i % 3 === 0 ? await aPrivatePlayer(db, { gameId: String(10000000 + i) }) : await aPublicPlayer(db, { gameId: String(10000000 + i) });
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
    for (const e of masked) expect(e.node).toMatchObject({ name: '非公開ユーザー', stats: null, profileText: null, gameId: null });
  });
});
