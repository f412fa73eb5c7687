import { startTestServer, type TestServer } from '../../helpers/server';
import { aPrivatePlayer, aPublicPlayer, follows } from '../../helpers/factories';

describe('a private player inside a nested list is masked, not an error', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('followers { recommended, scores, batches } is null for the private follower, data for the public one', async () => {
    const db = s.db.prisma;
    const star = await aPublicPlayer(db);
    const pub = await aPublicPlayer(db);
    const priv = await aPrivatePlayer(db);
    await follows(db, pub, star);
    await follows(db, priv, star);
    const res = await s.gql(
      `query($id: ID!) { user(id: $id) { followers(first: 10) { edges { node { id: databaseId
        recommended(version: "33") { weapons { total } }
        scores(version: "33") { totalCount }
        batches(version: "33") { totalCount } } } } } }`,
      { id: star.id },
    );
    expect(res.body.errors).toBeUndefined();
    const byId = new Map(res.body.data.user.followers.edges.map((e: any) => [e.node.id, e.node]));
    expect(byId.get(pub.id)).toMatchObject({
      recommended: { weapons: { total: 0 } },
      scores: { totalCount: 0 },
      batches: { totalCount: 0 },
    });
    // the private follower is masked completely (a stand-in id that names nobody): the one other row
    const others = [...byId.entries()].filter(([id]) => id !== pub.id).map(([, node]) => node);
    expect(others).toHaveLength(1);
    expect(others[0]).toMatchObject({ recommended: null, scores: null, batches: null });
    expect(byId.has(priv.id)).toBe(false);
    // the private player's owner still sees everything
    const own = await s.gql(
      `query($id: ID!) { user(id: $id) { recommended(version: "33") { weapons { total } } } }`,
      { id: priv.id },
      await s.tokenFor(priv.id),
    );
    expect(own.body.data.user.recommended).toEqual({ weapons: { total: 0 } });
  });
});
