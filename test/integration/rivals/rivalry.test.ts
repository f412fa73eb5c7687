/**
 * Rivals: User.rivalry (the viewer against a player, docs/domain/stats.md#rivals) — counts,
 * total-BPI difference, filters, the comparison list (sorts, outcome filter, keyset pages), one
 * chart, the trend, visibility, and a constant number of SQL statements nested under a following
 * list.
 */
import type { User } from '../../../src/generated/prisma/client';
import {
  aBestScoreRow,
  aPrivatePlayer,
  aPublicPlayer,
  aScoreImport,
  aVersionStatus,
  follows,
} from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { expectSameSqlCount, sqlFor } from '../../helpers/sql-count';

let s: TestServer;
let viewer: User; // public
let alice: User; // public rival
let bob: User; // private, the viewer is an approved follower
let carol: User; // private, not approved: masked
let token: string;
type C = { id: number; level: number; notes: number; wr: number; kaidenAvg: number };
let c1: C, c2: C, c3: C, c4: C, c5: C;

beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
  const db = s.db.prisma;
  const withDef = async (levels: number[], skip = 0) => {
    const ch = await db.chart.findFirstOrThrow({
      where: {
        level: { in: levels },
        notes: { gte: 1100 },
        definitions: { some: { isCurrent: true, wr: { not: null }, kaidenAvg: { not: null } } },
      },
      include: { definitions: { where: { isCurrent: true } } },
      orderBy: { id: 'asc' },
      skip,
    });
    return {
      id: ch.id,
      level: ch.level,
      notes: ch.notes!,
      wr: ch.definitions[0].wr!,
      kaidenAvg: ch.definitions[0].kaidenAvg!,
    };
  };
  c1 = await withDef([12]);
  c2 = await withDef([12], 1);
  c3 = await withDef([11]);
  // A level 7 chart (the fixture catalogue has level 11/12 only): the catalogue is reloaded to know it.
  const c1Row = await db.chart.findUniqueOrThrow({ where: { id: c1.id } });
  const low = await db.chart.create({
    data: { songId: c1Row.songId, playStyle: 'SP', difficulty: 'NORMAL', level: 7, notes: 700 },
  });
  await s.app.catalogue.load();
  c4 = { id: low.id, level: low.level, notes: low.notes!, wr: 0, kaidenAvg: 0 };
  c5 = await withDef([11], 1);

  viewer = await aPublicPlayer(db, { name: 'rv_viewer' });
  alice = await aPublicPlayer(db, { name: 'rv_alice' });
  bob = await aPrivatePlayer(db, { name: 'rv_bob' });
  carol = await aPrivatePlayer(db, { name: 'rv_carol' });
  await follows(db, viewer, alice);
  await follows(db, viewer, bob, { approved: true });
  await follows(db, viewer, carol);
  // c1: viewer = WR (BPI 100), alice = kaiden average (BPI 0) → win; bob = WR → draw.
  await aBestScoreRow(db, viewer, c1.id, c1.wr);
  await aBestScoreRow(db, alice, c1.id, c1.kaidenAvg);
  await aBestScoreRow(db, bob, c1.id, c1.wr);
  await aBestScoreRow(db, carol, c1.id, 1);
  // c2: viewer 1500 < alice 1600 → lose (exDiff −100).
  await aBestScoreRow(db, viewer, c2.id, 1500);
  await aBestScoreRow(db, alice, c2.id, 1600);
  // c3: 1800 = 1800 → draw; bob 1700 → the viewer wins.
  await aBestScoreRow(db, viewer, c3.id, 1800);
  await aBestScoreRow(db, alice, c3.id, 1800);
  await aBestScoreRow(db, bob, c3.id, 1700);
  // c4 (level ≤ 10): 500 > 400 → win (exDiff +100).
  await aBestScoreRow(db, viewer, c4.id, 500);
  await aBestScoreRow(db, alice, c4.id, 400);
  // c5: alice only, 1000 → in the list (exDiff 0 − 1000 = −1000, LOSE), not in the counts.
  await aBestScoreRow(db, alice, c5.id, 1000);
  await aVersionStatus(db, viewer, '33', { totalBpi: 50.5 });
  await aVersionStatus(db, alice, '33', { totalBpi: 40.25 });
  token = await s.tokenFor(viewer.id);
}, 120_000);
afterAll(() => s?.close());

const RIVALRY = `query($id: ID!, $levels: [Int!]) { user(id: $id) { rivalry(levels: $levels) { version wins losses draws played bpiDiff viewerTotalBpi totalBpi } } }`;

describe('User.rivalry', () => {
  it('counts wins / losses / draws on the charts both played, and the total-BPI difference', async () => {
    const a = expectNoErrors<any>(await s.gql(RIVALRY, { id: alice.id }, token)).user.rivalry;
    // both played: c1 win, c2 lose, c3 draw, c4 win (c5: alice only, not counted)
    // bpiDiff = 50.5 − 40.25 = 10.25
    expect(a).toEqual({
      version: '33',
      wins: 2,
      losses: 1,
      draws: 1,
      played: 4,
      bpiDiff: 10.25,
      viewerTotalBpi: 50.5,
      totalBpi: 40.25,
    });
    const f = expectNoErrors<any>(await s.gql(RIVALRY, { id: alice.id, levels: [11, 12] }, token)).user.rivalry;
    // levels 11/12 only: c1 win, c2 lose, c3 draw
    expect([f.wins, f.losses, f.draws, f.played]).toEqual([1, 1, 1, 3]);
    // bob (private, approved): c1 draw, c3 win; no status → totalBpi −15, bpiDiff = 50.5 − (−15) = 65.5
    const b = expectNoErrors<any>(await s.gql(RIVALRY, { id: bob.id }, token)).user.rivalry;
    expect([b.wins, b.losses, b.draws, b.played, b.totalBpi, b.bpiDiff]).toEqual([1, 0, 1, 2, -15, 65.5]);
  });

  it("counts only the charts both played, whichever side of the viewer's lowest and highest chart the rival's bests lie", async () => {
    const db = s.db.prisma;
    // six charts by id k1 < … < k6; the viewer has k2, k4, k5 — the rival k1 (below the viewer's
    // lowest), k3 (between two of the viewer's), k6 (above the viewer's highest) and the viewer's three
    const [k1, k2, k3, k4, k5, k6] = (
      await db.chart.findMany({ orderBy: { id: 'asc' }, take: 6, select: { id: true } })
    ).map((c) => c.id);
    const me = await aPublicPlayer(db);
    const dave = await aPublicPlayer(db);
    const empty = await aPublicPlayer(db);
    await aBestScoreRow(db, me, k2, 1000);
    await aBestScoreRow(db, me, k4, 0);
    await aBestScoreRow(db, me, k5, 800);
    for (const [chartId, ex] of [
      [k1, 500],
      [k2, 999],
      [k3, 700],
      [k4, 0],
      [k5, 801],
      [k6, 100],
    ])
      await aBestScoreRow(db, dave, chartId, ex);
    await aVersionStatus(db, empty, '33', { totalBpi: 20 });
    // k2 1000 > 999 win, k4 0 = 0 draw, k5 800 < 801 loss; k1, k3, k6 the viewer has no best on.
    // Neither has a status: −15 each, bpiDiff 0.
    const d = expectNoErrors<any>(await s.gql(RIVALRY, { id: dave.id }, await s.tokenFor(me.id))).user.rivalry;
    expect(d).toEqual({
      version: '33',
      wins: 1,
      losses: 1,
      draws: 1,
      played: 3,
      bpiDiff: 0,
      viewerTotalBpi: -15,
      totalBpi: -15,
    });
    // A viewer without a best: nothing played; bpiDiff 20 − (−15) = 35.
    const e = expectNoErrors<any>(await s.gql(RIVALRY, { id: dave.id }, await s.tokenFor(empty.id))).user.rivalry;
    expect([e.wins, e.losses, e.draws, e.played, e.viewerTotalBpi, e.totalBpi, e.bpiDiff]).toEqual([
      0, 0, 0, 0, 20, -15, 35,
    ]);
  });

  it('is null for an anonymous viewer and for a private player the viewer may not see', async () => {
    expect(expectNoErrors<any>(await s.gql(RIVALRY, { id: alice.id })).user.rivalry).toBeNull();
    const q = `{ me { following(first: 10) { edges { node { name isMasked rivalry { wins } } } } } }`;
    const nodes = expectNoErrors<any>(await s.gql(q, {}, token)).me.following.edges.map((e: any) => e.node);
    const masked = nodes.find((n: any) => n.isMasked);
    expect(masked.rivalry).toBeNull();
    expect(
      nodes
        .filter((n: any) => !n.isMasked)
        .map((n: any) => n.rivalry.wins)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('rejects bad levels naming the argument', async () => {
    const r = await s.gql<any>(RIVALRY, { id: alice.id, levels: [13] }, token);
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(r.body.errors[0].message).toMatch(/levels/);
  });
});

const CHARTS = `query($id: ID!, $sort: RivalChartSort, $order: RivalSortOrder, $first: Int, $after: String, $outcomes: [RivalOutcome!], $both: Boolean) {
  user(id: $id) { rivalry { charts(sort: $sort, order: $order, first: $first, after: $after, outcomes: $outcomes, bothPlayed: $both) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { node { chartId exDiff bpiDiff outcome chart { id: databaseId level } mine { exScore bpi clearLamp } rival { exScore bpi } } } } } } }`;

async function charts(vars: Record<string, unknown>) {
  return expectNoErrors<any>(await s.gql(CHARTS, { id: alice.id, ...vars }, token)).user.rivalry.charts;
}

describe('Rivalry.charts', () => {
  it('pages by exDiff desc with ties by level desc, through keyset cursors', async () => {
    // exDiff: c1 = WR − kaidenAvg (> 0), c4 +100, c3 0, c2 −100, c5 −1000 (5 rows, either side played)
    const p1 = await charts({ sort: 'EX_DIFF', order: 'DESC', first: 2 });
    expect(p1.totalCount).toBe(5);
    const ids = (p: any) => p.edges.map((e: any) => Number(e.node.chartId));
    const firstTwo = c1.wr - c1.kaidenAvg > 100 ? [c1.id, c4.id] : [c4.id, c1.id];
    expect(ids(p1)).toEqual(firstTwo);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    const p2 = await charts({ sort: 'EX_DIFF', order: 'DESC', first: 2, after: p1.pageInfo.endCursor });
    expect(ids(p2)).toEqual([c3.id, c2.id]);
    const p3 = await charts({ sort: 'EX_DIFF', order: 'DESC', first: 2, after: p2.pageInfo.endCursor });
    expect(ids(p3)).toEqual([c5.id]);
    expect(p3.pageInfo.hasNextPage).toBe(false);
    // c5: alice only → mine null, exDiff 0 − 1000, outcome LOSE
    expect(p3.edges[0].node).toMatchObject({ exDiff: -1000, outcome: 'LOSE', mine: null, rival: { exScore: 1000 } });
  });

  it('computes BPI of each side and bpiDiff (WR → 100, kaiden average → 0)', async () => {
    const p = await charts({ sort: 'LEVEL', first: 10 });
    const r1 = p.edges.find((e: any) => Number(e.node.chartId) === c1.id).node;
    expect(r1.mine.bpi).toBe(100);
    expect(r1.rival.bpi).toBe(0);
    expect(r1.bpiDiff).toBe(100);
    expect(r1.outcome).toBe('WIN');
    expect(r1.mine.clearLamp).toBe('NO_PLAY');
  });

  it('LOSE_GAP puts the charts I lose first (smallest lead first in ASC), then the others', async () => {
    // losing: c2 (lead 100), c5 (lead 1000); others by −exDiff asc: c1 and c4 (−exDiff < 0), c3 (0)
    const p = await charts({ sort: 'LOSE_GAP', order: 'ASC', first: 10 });
    const got = p.edges.map((e: any) => Number(e.node.chartId));
    expect(got.slice(0, 2)).toEqual([c2.id, c5.id]);
    expect(got[4]).toBe(c3.id);
  });

  it('filters by outcome and both played; a cursor from another sort is refused', async () => {
    const w = await charts({ outcomes: ['WIN'], both: true, first: 10 });
    expect(w.edges.map((e: any) => Number(e.node.chartId)).sort()).toEqual([c1.id, c4.id].sort());
    const p1 = await charts({ sort: 'EX_DIFF', first: 1 });
    const bad = await s.gql<any>(
      CHARTS,
      { id: alice.id, sort: 'TITLE', first: 1, after: p1.pageInfo.endCursor },
      token,
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('Rivalry.chart: one chart, null when neither played it', async () => {
    const q = `query($id: ID!, $c: ID!) { user(id: $id) { rivalry { chart(chartId: $c) { exDiff outcome mine { exScore } rival { exScore } } } } }`;
    const one = expectNoErrors<any>(await s.gql(q, { id: alice.id, c: String(c2.id) }, token)).user.rivalry.chart;
    expect(one).toEqual({ exDiff: -100, outcome: 'LOSE', mine: { exScore: 1500 }, rival: { exScore: 1600 } });
    const none = expectNoErrors<any>(await s.gql(q, { id: bob.id, c: String(c5.id) }, token)).user.rivalry.chart; // neither the viewer nor bob played c5
    expect(none).toBeNull();
  });
});

describe('Rivalry.trend', () => {
  it("replays both players' plays by JST day", async () => {
    const db = s.db.prisma;
    const me = await aPublicPlayer(db);
    const rival = await aPublicPlayer(db);
    const day = (d: number) => new Date(Date.UTC(2026, 0, d, 3)); // 03:00 UTC = 12:00 JST, same date
    // day 10: me c1 1000 (rival none: 0 → 0), rival c1 900 (0 → +1): delta +1, cumulative 1
    await aScoreImport(db, me, [{ chartId: c1.id, exScore: 1000, playedAt: day(10) }]);
    await aScoreImport(db, rival, [{ chartId: c1.id, exScore: 900, playedAt: day(10) }]);
    // day 11: rival c1 1100 (+1 → −1: −2); both c2 800 (draw: 0): delta −2, cumulative −1
    await aScoreImport(db, rival, [
      { chartId: c1.id, exScore: 1100, playedAt: day(11) },
      { chartId: c2.id, exScore: 800, playedAt: day(11) },
    ]);
    await aScoreImport(db, me, [{ chartId: c2.id, exScore: 800, playedAt: day(11) }]);
    // day 12: me c1 1200 (−1 → +1): delta +2, cumulative 1
    await aScoreImport(db, me, [{ chartId: c1.id, exScore: 1200, playedAt: day(12) }]);
    const t = await s.tokenFor(me.id);
    const q = `query($id: ID!) { user(id: $id) { rivalry { trend { date delta cumulative } } } }`;
    const trend = expectNoErrors<any>(await s.gql(q, { id: rival.id }, t)).user.rivalry.trend;
    expect(trend).toEqual([
      { date: '2026-01-10', delta: 1, cumulative: 1 },
      { date: '2026-01-11', delta: -2, cumulative: -1 },
      { date: '2026-01-12', delta: 2, cumulative: 1 },
    ]);
  });
});

describe('SQL statements of the nested rivalry read', () => {
  it('one statement for the rivalry counts and totals of public and private followed players together', async () => {
    const q = `{ me { following(first: 10) { edges { node { name isMasked rivalry { wins losses draws played bpiDiff } } } } } }`;
    await sqlFor(s, q, {}, token); // warm process caches
    type Node = { name: string; isMasked: boolean; rivalry: Record<string, number> | null };
    const r = await sqlFor<{ me: { following: { edges: { node: Node }[] } } }>(s, q, {}, token);
    const nodes = r.data.me.following.edges.map((e) => e.node);
    const byName = new Map(nodes.map((n) => [n.name, n]));
    // alice (public): c1 win, c2 lose, c3 draw, c4 win → 2 / 1 / 1 of 4; bpiDiff 50.5 − 40.25 = 10.25
    expect(byName.get('rv_alice')?.rivalry).toEqual({ wins: 2, losses: 1, draws: 1, played: 4, bpiDiff: 10.25 });
    // bob (private, approved): c1 draw (WR = WR), c3 win (1800 > 1700) → 1 / 0 / 1 of 2; no status →
    // −15, bpiDiff 50.5 − (−15) = 65.5
    expect(byName.get('rv_bob')?.rivalry).toEqual({ wins: 1, losses: 0, draws: 1, played: 2, bpiDiff: 65.5 });
    // carol (private, not approved): masked, no rivalry
    const masked = nodes.filter((n) => n.isMasked);
    expect(masked).toHaveLength(1);
    expect(masked[0].rivalry).toBeNull();
    // The public player's verdict is known from the row and the approved one's from the list: both
    // rivalries are asked in one tick, so the loader batches them into one statement, which reads
    // both players' totals too.
    const rivalries = r.statements.filter((x) => x.includes('"BestScore"'));
    const totals = r.statements.filter((x) => x.includes('"PlayerVersionStatus"'));
    expect([rivalries.length, totals.length]).toEqual([1, 1]);
    expect(rivalries[0]).toBe(totals[0]);
    // bob's and carol's verdicts come from the follow page's own rows (approved / not): no lookup of their follows
    expect(r.statements.filter((x) => x.includes('"Follow"."approvedAt"'))).toEqual([]);
  });

  it('me → following(first: 50) → rivalry runs the same statements for 2 and 20 followed players', async () => {
    const db = s.db.prisma;
    const allCharts = await db.chart.findMany({
      where: { level: { in: [11, 12] }, notes: { not: null } },
      orderBy: { id: 'asc' },
      take: 12,
      select: { id: true, notes: true },
    });
    const withFollowing = async (n: number) => {
      const me = await aPublicPlayer(db);
      for (const c of allCharts) await aBestScoreRow(db, me, c.id, Math.min(2 * c.notes!, 900));
      for (let i = 0; i < n; i++) {
        const p = i % 3 === 0 ? await aPrivatePlayer(db) : await aPublicPlayer(db);
        await follows(db, me, p, { approved: i % 2 === 0 });
        for (const [k, c] of allCharts.entries())
          if ((k + i) % 2 === 0) await aBestScoreRow(db, p, c.id, Math.min(2 * c.notes!, 850 + 10 * k));
      }
      return s.tokenFor(me.id);
    };
    const q = `{ me { following(first: 50) { edges { node { name rivalry { wins losses draws bpiDiff } } } } } }`;
    const small = await withFollowing(2);
    const big = await withFollowing(20);
    await sqlFor(s, q, {}, small); // warm process caches
    const a = await sqlFor(s, q, {}, small);
    const b = await sqlFor(s, q, {}, big);
    expect(b.data.me.following.edges).toHaveLength(20);
    const visible = b.data.me.following.edges.filter((e: any) => e.node.rivalry);
    expect(visible.length).toBeGreaterThan(10);
    expect(visible.some((e: any) => e.node.rivalry.wins + e.node.rivalry.losses + e.node.rivalry.draws > 0)).toBe(true);
    expectSameSqlCount(a, b, 'me → following → rivalry');
  });
});
