/**
 * Rivals, discovery: suggested rivals near my total BPI (docs/domain/social.md#discovery) and user search by name prefix
 * (public profiles; private ones for themselves and approved followers).
 */
import { aPrivatePlayer, aPublicPlayer, aVersionStatus, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(() => s?.close());

describe('User.suggestedRivals (docs/domain/social.md#discovery)', () => {
  it('orders public players by distance to my total BPI, leaving out me and private players', async () => {
    const db = s.db.prisma;
    const v = '31'; // a version no other test of this file writes
    const me = await aPublicPlayer(db, { name: 'sg_me' });
    await aVersionStatus(db, me, v, { totalBpi: 40 });
    const mk = async (name: string, total: number, isPrivate = false) => {
      const u = isPrivate ? await aPrivatePlayer(db, { name }) : await aPublicPlayer(db, { name });
      await aVersionStatus(db, u, v, { totalBpi: total });
      return u;
    };
    await mk('sg_a', 41.5); // distance 1.5
    await mk('sg_b', 37); // 3
    await mk('sg_c', 40.5, true); // private: left out
    await mk('sg_d', 50); // 10
    await mk('sg_e', 39); // 1
    const q = `query($id: ID!, $n: Int) { user(id: $id) { suggestedRivals(version: "31", first: $n) { totalBpi distance user { name } } } }`;
    const rows = expectNoErrors<any>(await s.gql(q, { id: me.id, n: 3 }, await s.tokenFor(me.id))).user.suggestedRivals;
    expect(rows.map((r: any) => [r.user.name, r.totalBpi, r.distance])).toEqual([
      ['sg_e', 39, 1],
      ['sg_a', 41.5, 1.5],
      ['sg_b', 37, 3],
    ]);
    const other = await s.gql<any>(q, { id: me.id, n: 3 });
    expect(other.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('Query.searchUsers', () => {
  it('finds public players by name prefix, private ones only for approved followers and themselves', async () => {
    const db = s.db.prisma;
    const pub = await aPublicPlayer(db, { name: 'Zq_Alpha' });
    const priv = await aPrivatePlayer(db, { name: 'zq_beta' });
    await aPublicPlayer(db, { name: 'zzq_other' });
    await aPublicPlayer(db, { name: 'zq%lit' });
    const fan = await aPublicPlayer(db, { name: 'fan_zq' });
    await follows(db, fan, priv, { approved: true });
    const q = `query($p: String!) { searchUsers(prefix: $p) { name } }`;
    const names = async (p: string, token?: string) =>
      expectNoErrors<any>(await s.gql(q, { p }, token)).searchUsers.map((u: any) => u.name);
    // anonymous: public only; case-insensitive; 'zzq_other' does not start with 'zq'
    expect(await names('ZQ_')).toEqual(['Zq_Alpha']);
    // '_' and '%' are literal characters, not patterns
    expect(await names('zq%')).toEqual(['zq%lit']);
    expect(await names('zq_', await s.tokenFor(fan.id))).toEqual(['Zq_Alpha', 'zq_beta']);
    expect(await names('zq_b', await s.tokenFor(priv.id))).toEqual(['zq_beta']);
    expect(await names('zq_b', await s.tokenFor(pub.id))).toEqual([]);
    const bad = await s.gql<any>(q, { p: '   ' });
    expect(bad.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });
});
