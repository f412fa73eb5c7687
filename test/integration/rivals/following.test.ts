/**
 * Rivals, everyone I follow (docs/domain/stats.md#rivals): win/loss summary per followed player,
 * per-chart average and top scores, the public followed list, near losses, followed players'
 * scores on one chart, ☆12 BPI change in a month; visibility of each.
 */
import type { User } from '../../../src/generated/prisma/client';
import { totalBpi } from '../../../src/domain/bpi';
import { aBestScoreRow, aPrivatePlayer, aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let owner: User, a: User, b: User, c: User, d: User;
let token: string;
let c1: number, c2: number, c3: number;

beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0' } });
  const db = s.db.prisma;
  const twelves = await db.chart.findMany({
    where: { level: 12, playStyle: 'SP', difficulty: { in: ['HYPER', 'ANOTHER', 'LEGGENDARIA'] }, notes: { gte: 800 } },
    orderBy: { id: 'asc' },
    take: 2,
  });
  const eleven = await db.chart.findFirstOrThrow({ where: { level: 11, notes: { gte: 800 } }, orderBy: { id: 'asc' } });
  [c1, c2, c3] = [twelves[0].id, twelves[1].id, eleven.id];
  owner = await aPublicPlayer(db, { name: 'fl_owner' });
  a = await aPublicPlayer(db, { name: 'fl_a' });
  b = await aPrivatePlayer(db, { name: 'fl_b' }); // approved
  c = await aPrivatePlayer(db, { name: 'fl_c' }); // not approved: left out everywhere
  d = await aPublicPlayer(db, { name: 'fl_d' });
  await follows(db, owner, a);
  await follows(db, owner, b, { approved: true });
  await follows(db, owner, c);
  await follows(db, owner, d);
  const best = (u: User, chart: number, ex: number) => aBestScoreRow(db, u, chart, ex);
  // c1: owner 1500; a 1510 (+10), b 1530 (+30), c 1501 (excluded), d 1400 (−100)
  await best(owner, c1, 1500);
  await best(a, c1, 1510);
  await best(b, c1, 1530);
  await best(c, c1, 1501);
  await best(d, c1, 1400);
  // c2: owner 1000; a 1040 (+40), d 1001 (+1)
  await best(owner, c2, 1000);
  await best(a, c2, 1040);
  await best(d, c2, 1001);
  // c3: owner 900; b 905 (+5)
  await best(owner, c3, 900);
  await best(b, c3, 905);
  token = await s.tokenFor(owner.id);
}, 120_000);
afterAll(() => s?.close());

/** As the owner, or anonymously with `anonymous`. */
const gql = async (q: string, vars: Record<string, unknown> = {}, as: 'owner' | 'anonymous' = 'owner') =>
  expectNoErrors<any>(await s.gql(q, { id: owner.id, ...vars }, as === 'owner' ? token : undefined)).user;

describe('User.rivalSummary', () => {
  const Q = `query($id: ID!, $sort: RivalSummarySort, $order: RivalSortOrder, $listId: ID) { user(id: $id) { rivalSummary(sort: $sort, order: $order, listId: $listId) { user { name } rivalry { wins losses draws played } } } }`;
  it('counts per followed player the owner may see, most wins first (ties by name)', async () => {
    const rows = (await gql(Q)).rivalSummary;
    // d: c1 win (1500 > 1400), c2 lose (1000 < 1001) → 1/1; a: c1, c2 lose → 0/2; b: c1, c3 lose → 0/2; c: not approved
    expect(rows.map((r: any) => [r.user.name, r.rivalry.wins, r.rivalry.losses, r.rivalry.played])).toEqual([
      ['fl_d', 1, 1, 2],
      ['fl_a', 0, 2, 2],
      ['fl_b', 0, 2, 2],
    ]);
    expect((await gql(Q, { sort: 'NAME' })).rivalSummary.map((r: any) => r.user.name)).toEqual([
      'fl_a',
      'fl_b',
      'fl_d',
    ]);
  });

  it("restricts to one of the owner's lists; another owner's list is NOT_FOUND; others are refused", async () => {
    const db = s.db.prisma;
    const list = await db.followList.create({
      data: { ownerId: owner.id, name: 'L', members: { create: [{ userId: a.id }, { userId: d.id }] } },
    });
    expect((await gql(Q, { listId: String(list.id) })).rivalSummary.map((r: any) => r.user.name)).toEqual([
      'fl_d',
      'fl_a',
    ]);
    const other = await db.followList.create({ data: { ownerId: a.id, name: 'M' } });
    const r = await s.gql<any>(Q, { id: owner.id, listId: String(other.id) }, token);
    expect(r.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const stranger = await s.gql<any>(Q, { id: owner.id }, await s.tokenFor(a.id));
    expect(stranger.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('User.followingChartStats', () => {
  it('averages and tops over the followed players; a private top holder stays anonymous', async () => {
    const Q = `query($id: ID!) { user(id: $id) { followingChartStats { chartId players averageExScore topExScore topPlayer { name } averageBpi topBpi } } }`;
    const rows = (await gql(Q)).followingChartStats;
    const of = (id: number) => rows.find((r: any) => Number(r.chartId) === id);
    // c1: a 1510, b 1530, d 1400 (c excluded) → 3 players, (1510 + 1530 + 1400) / 3 = 1480, top 1530 = b (private → null)
    expect(of(c1)).toMatchObject({ players: 3, averageExScore: 1480, topExScore: 1530, topPlayer: null });
    // c2: a 1040, d 1001 → (1040 + 1001) / 2 = 1020.5, top a
    expect(of(c2)).toMatchObject({ players: 2, averageExScore: 1020.5, topExScore: 1040, topPlayer: { name: 'fl_a' } });
    // c3: b 905 alone
    expect(of(c3)).toMatchObject({ players: 1, averageExScore: 905, topExScore: 905, topPlayer: null });
    expect(rows).toHaveLength(3);
  });
});

describe('User.publicFollowing and User.followingScoresOn', () => {
  it('lists the public followed players by name', async () => {
    const rows = (await gql(`query($id: ID!) { user(id: $id) { publicFollowing { name } } }`, {}, 'anonymous'))
      .publicFollowing;
    expect(rows.map((u: any) => u.name)).toEqual(['fl_a', 'fl_d']);
  });

  it("lists followed players' bests on one chart, best first; private players only for callers who may see them", async () => {
    const Q = `query($id: ID!, $c: ID!) { user(id: $id) { followingScoresOn(chartId: $c) { exScore user { name } } } }`;
    // owner: b 1530 (approved), a 1510, d 1400; c (private, not approved) left out
    expect((await gql(Q, { c: String(c1) })).followingScoresOn.map((r: any) => [r.user.name, r.exScore])).toEqual([
      ['fl_b', 1530],
      ['fl_a', 1510],
      ['fl_d', 1400],
    ]);
    // anonymous: public players only
    expect((await gql(Q, { c: String(c1) }, 'anonymous')).followingScoresOn.map((r: any) => r.user.name)).toEqual([
      'fl_a',
      'fl_d',
    ]);
  });
});

describe('User.nearLosses', () => {
  const Q = `query($id: ID!, $first: Int, $after: String, $max: Int) { user(id: $id) { nearLosses(first: $first, after: $after, maxDiff: $max) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { chartId exDiff exScore rivalExScore rival { name } } } } } }`;
  it('pages the charts a followed player leads by 1..30 EX, smallest lead first', async () => {
    // leads: d c2 +1, b c3 +5, a c1 +10, b c1 +30 (a c2 +40 is over 30; c is not approved)
    const p1 = (await gql(Q, { first: 2 })).nearLosses;
    expect(p1.totalCount).toBe(4);
    expect(p1.edges.map((e: any) => [e.node.rival.name, e.node.exDiff])).toEqual([
      ['fl_d', 1],
      ['fl_b', 5],
    ]);
    const p2 = (await gql(Q, { first: 2, after: p1.pageInfo.endCursor })).nearLosses;
    expect(p2.edges.map((e: any) => [e.node.rival.name, Number(e.node.chartId), e.node.exDiff])).toEqual([
      ['fl_a', c1, 10],
      ['fl_b', c1, 30],
    ]);
    expect(p2.pageInfo.hasNextPage).toBe(false);
    const wide = (await gql(Q, { max: 40 })).nearLosses;
    expect(wide.totalCount).toBe(5);
  });
});

describe('User.followingBpiChanges', () => {
  it("gives each public followed player's ☆12 total BPI before and at the end of the month", async () => {
    const db = s.db.prisma;
    const me = await aPublicPlayer(db);
    const e = await aPublicPlayer(db, { name: 'fl_e' });
    await follows(db, me, e);
    await aScoreImport(db, e, [{ chartId: c1, exScore: 1000, bpi: 10, playedAt: new Date(Date.UTC(2026, 0, 5)) }]);
    await aScoreImport(db, e, [
      { chartId: c1, exScore: 1100, bpi: 20, playedAt: new Date(Date.UTC(2026, 1, 3)) },
      { chartId: c2, exScore: 1100, bpi: 30, playedAt: new Date(Date.UTC(2026, 1, 3)) },
    ]);
    // a play after the month does not count
    await aScoreImport(db, e, [{ chartId: c2, exScore: 1200, bpi: 50, playedAt: new Date(Date.UTC(2026, 2, 3)) }]);
    const n = await db.chart.count({
      where: { level: 12, playStyle: 'SP', difficulty: { in: ['HYPER', 'ANOTHER', 'LEGGENDARIA'] } },
    });
    const r = expectNoErrors<any>(
      await s.gql(
        `query($id: ID!) { user(id: $id) { followingBpiChanges(month: "2026-02") { user { name } bpiStart bpiEnd change } } }`,
        { id: me.id },
        await s.tokenFor(me.id),
      ),
    ).user.followingBpiChanges;
    // start: {c1: 10} over the N ☆12 charts; end: {c1: 20, c2: 30}
    const start = totalBpi([10], n);
    const end = totalBpi([20, 30], n);
    expect(r).toEqual([
      { user: { name: 'fl_e' }, bpiStart: start, bpiEnd: end, change: Math.round((end - start) * 100) / 100 },
    ]);
    expect(end).toBeGreaterThan(start);
    const bad = await s.gql<any>(
      `query($id: ID!) { user(id: $id) { followingBpiChanges(month: "2026-13") { bpiStart } } }`,
      { id: me.id },
    );
    expect(bad.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });
});
