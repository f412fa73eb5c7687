/**
 * Stats: the global total-BPI ranking — order, competition ranks, pages, filters, masking of
 * players the caller may not see (and of hidden areas / classes when filtering on them), selfRank,
 * bad input, and a constant number of SQL statements per page.
 */
import type { User } from '../../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, aVersionStatus, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let alice: User; // public, 60, Tokyo A1, shows area
let bob: User; // public, 50, Tokyo A2, hides area (default)
let carol: User; // private, 50 (ties with bob), Osaka A1
let dave: User; // public, 40, no area
let erin: User; // public, only in version 32
let carolToken: string;
let daveToken: string;

const Q = `query($v: GameVersion, $area: String, $cls: ArenaClass, $first: Int, $after: String) {
  globalRanking(version: $v, area: $area, arenaClass: $cls, first: $first, after: $after) {
    version totalCount selfRank
    pageInfo { hasNextPage endCursor }
    edges { node { rank totalBpi anonymous isSelf player { id: databaseId name } } }
  } }`;

type Row = {
  rank: number;
  totalBpi: number;
  anonymous: boolean;
  isSelf: boolean;
  player: { id: string; name: string } | null;
};
async function ranking(vars: Record<string, unknown>, token?: string) {
  const data = expectNoErrors(
    await server.gql<{
      globalRanking: {
        version: string;
        totalCount: number;
        selfRank: number | null;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        edges: { node: Row }[];
      };
    }>(Q, vars, token),
  );
  return { ...data.globalRanking, rows: data.globalRanking.edges.map((e) => e.node) };
}

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db.prisma;
  alice = await aPublicPlayer(db, { name: 'rk_alice' });
  bob = await aPublicPlayer(db, { name: 'rk_bob' });
  carol = await aPrivatePlayer(db, { name: 'rk_carol' });
  dave = await aPublicPlayer(db, { name: 'rk_dave' });
  erin = await aPublicPlayer(db, { name: 'rk_erin' });
  await db.user.update({ where: { id: alice.id }, data: { showArea: true } });
  await aVersionStatus(db, alice, '33', { totalBpi: 60, area: '東京都', arenaClass: 'A1' });
  await aVersionStatus(db, bob, '33', { totalBpi: 50, area: '東京都', arenaClass: 'A2' });
  await aVersionStatus(db, carol, '33', { totalBpi: 50, area: '大阪府', arenaClass: 'A1' });
  await aVersionStatus(db, dave, '33', { totalBpi: 40 });
  await aVersionStatus(db, erin, '32', { totalBpi: 70 });
  carolToken = await server.tokenFor(carol.id);
  daveToken = await server.tokenFor(dave.id);
}, 60_000);

afterAll(async () => server?.close());

describe('globalRanking', () => {
  it('orders by total BPI with shared ranks for ties and masks private players for strangers', async () => {
    const r = await ranking({ v: '33' });
    expect(r.version).toBe('33');
    expect(r.totalCount).toBe(4);
    expect(r.selfRank).toBeNull();
    expect(r.rows.map((x) => [x.rank, x.totalBpi])).toEqual([
      [1, 60],
      [2, 50],
      [2, 50],
      [4, 40],
    ]);
    expect(r.rows[0].player?.name).toBe('rk_alice');
    const tied = r.rows.slice(1, 3);
    expect(tied.filter((x) => x.anonymous)).toHaveLength(1); // carol, private
    expect(tied.find((x) => x.anonymous)?.player).toBeNull();
    expect(tied.find((x) => !x.anonymous)?.player?.name).toBe('rk_bob');
    expect(r.rows.some((x) => x.player?.id === erin.id)).toBe(false); // another version
  });

  it('shows a private player to herself and to approved followers; selfRank under the same filters', async () => {
    const own = await ranking({ v: '33' }, carolToken);
    expect(own.selfRank).toBe(2);
    expect(own.rows.find((x) => x.isSelf)?.player?.name).toBe('rk_carol');
    expect((await ranking({ v: '33' }, daveToken)).rows.some((x) => x.player?.id === carol.id)).toBe(false);
    await follows(server.db.prisma, dave, carol, { approved: true });
    const fan = await ranking({ v: '33' }, daveToken);
    expect(fan.rows.find((x) => x.totalBpi === 50 && x.player?.id === carol.id)).toBeDefined();
    expect(fan.selfRank).toBe(4);
    expect((await ranking({ v: '33', area: '東京都' }, daveToken)).selfRank).toBeNull(); // dave has no area
  });

  it('filters by area and class, ranking within the filtered population; players hiding that area / class are left out', async () => {
    const tokyo = await ranking({ v: '33', area: ' 東京都 ' });
    // bob is in Tokyo but hides his area: shown even anonymously, his 50 would match his named row
    // of the unfiltered ranking and reveal his area — he is not in the filtered population at all.
    expect(tokyo.totalCount).toBe(1);
    expect(tokyo.rows.map((x) => [x.rank, x.totalBpi, x.player?.name ?? null])).toEqual([[1, 60, 'rk_alice']]);
    expect(tokyo.rows.some((x) => x.totalBpi === 50)).toBe(false);
    const bobsOwn = await ranking({ v: '33', area: '東京都' }, await server.tokenFor(bob.id));
    expect(bobsOwn.rows.map((x) => x.player?.name ?? null)).toEqual(['rk_alice']);
    expect(bobsOwn.selfRank).toBeNull();
    const a1 = await ranking({ v: '33', cls: 'A1' });
    expect(a1.rows.map((x) => [x.rank, x.totalBpi])).toEqual([
      [1, 60],
      [2, 50],
    ]);
    expect(a1.rows[0].player?.name).toBe('rk_alice'); // class shown by default
    await server.db.prisma.user.update({ where: { id: alice.id }, data: { showArenaClass: false } });
    // alice now hides her class: the A1 ranking is carol alone (private: anonymous), ranked 1
    expect((await ranking({ v: '33', cls: 'A1' })).rows.map((x) => [x.rank, x.totalBpi, x.anonymous])).toEqual([
      [1, 50, true],
    ]);
    expect((await ranking({ v: '33' })).rows[0].player?.name).toBe('rk_alice'); // unfiltered: still named
  });

  it('pages with first/after; ranks stay global across pages', async () => {
    const p1 = await ranking({ v: '33', first: 3 });
    expect(p1.rows).toHaveLength(3);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    const p2 = await ranking({ v: '33', first: 3, after: p1.pageInfo.endCursor });
    expect(p2.rows.map((x) => [x.rank, x.totalBpi])).toEqual([[4, 40]]);
    expect(p2.pageInfo.hasNextPage).toBe(false);
  });

  it('a page that starts inside a tie keeps the shared rank (ranks from the page order plus one count above it)', async () => {
    // totals 60, 50, 50, 40: pages of 2 → [60, 50] then [50, 40]; the second page's 50 has one
    // player above it (60) → rank 2, shared with the 50 on page 1; 40 has three above → rank 4.
    const p1 = await ranking({ v: '33', first: 2 });
    expect(p1.rows.map((x) => [x.rank, x.totalBpi])).toEqual([
      [1, 60],
      [2, 50],
    ]);
    const p2 = await ranking({ v: '33', first: 2, after: p1.pageInfo.endCursor });
    expect(p2.rows.map((x) => [x.rank, x.totalBpi])).toEqual([
      [2, 50],
      [4, 40],
    ]);
    // pages of 1 from the third row: [50] → rank 2; from the fourth: [40] → rank 4
    const p3 = await ranking({ v: '33', first: 1, after: p1.pageInfo.endCursor });
    expect(p3.rows.map((x) => [x.rank, x.totalBpi])).toEqual([[2, 50]]);
    const p4 = await ranking({ v: '33', first: 1, after: p3.pageInfo.endCursor });
    expect(p4.rows.map((x) => [x.rank, x.totalBpi])).toEqual([[4, 40]]);
  });

  it('totalCount of the unfiltered ranking follows new and removed players at once (kept by triggers)', async () => {
    const db = server.db.prisma;
    // version 33: alice, bob, carol, dave → 4; version 32: erin → 1
    expect((await ranking({ v: '33' })).totalCount).toBe(4);
    expect((await ranking({ v: '32' })).totalCount).toBe(1);
    const fred = await aPublicPlayer(db, { name: 'rk_fred' });
    await aVersionStatus(db, fred, '33', { totalBpi: 10 });
    await aVersionStatus(db, fred, '32', { totalBpi: 10 });
    // fred joins both versions: 4 + 1 = 5 in 33, 1 + 1 = 2 in 32; an update of a total changes no count
    expect((await ranking({ v: '33' })).totalCount).toBe(5);
    expect((await ranking({ v: '32' })).totalCount).toBe(2);
    await db.playerVersionStatus.update({
      where: { userId_version: { userId: fred.id, version: '33' } },
      data: { totalBpi: 11 },
    });
    expect((await ranking({ v: '33' })).totalCount).toBe(5);
    // one status row deleted (33 → 4), then the account (its row of 32 cascades: 32 → 1)
    await db.playerVersionStatus.delete({ where: { userId_version: { userId: fred.id, version: '33' } } });
    expect((await ranking({ v: '33' })).totalCount).toBe(4);
    await db.user.delete({ where: { id: fred.id } });
    expect((await ranking({ v: '32' })).totalCount).toBe(1);
    expect((await ranking({ v: '33' })).rows.map((x) => x.totalBpi)).toEqual([60, 50, 50, 40]);
  });

  it('refuses bad input with BAD_USER_INPUT', async () => {
    for (const vars of [
      { v: '99' },
      { first: 101 },
      { first: 0 },
      { after: 'nope' },
      { area: '' },
      { area: 'x'.repeat(41) },
    ]) {
      const res = await server.gql(Q, vars);
      expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const cls = await server.gql(Q, { cls: 'Z9' });
    expect(cls.status).toBe(400);
  });

  it('costs the same number of SQL statements for 4 rows as for 100 (private players included)', async () => {
    const db = server.db.prisma;
    const extra = [];
    for (let i = 0; i < 40; i++) extra.push(await aPublicPlayer(db, { name: `rk_many_${i}` }));
    await db.playerVersionStatus.createMany({
      data: extra.map((u, i) => ({ userId: u.id, version: '33', totalBpi: i })),
    });
    const count = async (first: number) => {
      await ranking({ v: '33', first }, daveToken); // warm the caches of this request shape
      server.sql.reset();
      await ranking({ v: '33', first }, daveToken);
      return server.sql.count;
    };
    const small = await count(4); // the first four include carol (private: one batched follow check)
    expect(await count(100)).toBe(small);
    expect(small).toBeLessThanOrEqual(6);
  });
});
