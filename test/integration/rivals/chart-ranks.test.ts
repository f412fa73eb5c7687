/**
 * Rivals: User.chartRanks (docs/domain/stats.md#rankings) — my rank on every chart from the cumulative block counts
 * (ChartRankBlock: blocks of 128 EX values) that the BestScore triggers keep in the writing
 * transaction: a new best moves every rank at once, through an import, a direct update, a deletion
 * (user deletion cascades too); ties share a rank, also across block edges.
 */
import type { User } from '../../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, aSongBestScore } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { expectSameSqlCount, sqlFor } from '../../helpers/sql-count';

let s: TestServer;
let charts: { id: number; title: string; difficulty: string; level: number }[];

beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
  const rows = await s.db.prisma.chart.findMany({
    where: { level: { in: [11, 12] }, playStyle: 'SP', notes: { gte: 1000 } },
    orderBy: { id: 'asc' },
    take: 3,
    include: { song: true },
  });
  charts = rows.map((c) => ({ id: c.id, title: c.song.title, difficulty: c.difficulty, level: c.level }));
}, 60_000);
afterAll(() => s?.close());

const Q = `query($id: ID!) { user(id: $id) { chartRanks { chartId exScore rank players chart { id: databaseId } } } }`;
const ranks = async (u: User, token?: string) =>
  (expectNoErrors<any>(await s.gql(Q, { id: u.id }, token)).user.chartRanks as any[]).map((r) => [
    Number(r.chartId),
    r.exScore,
    r.rank,
    r.players,
  ]);

describe('User.chartRanks', () => {
  it('ranks every chart of the player, ties sharing, and follows each write at once', async () => {
    const db = s.db.prisma;
    const [a, b, c, me] = [
      await aPublicPlayer(db),
      await aPublicPlayer(db),
      await aPrivatePlayer(db),
      await aPublicPlayer(db),
    ];
    const [x, y] = charts;
    // chart x: a 1500, b 1200, c (private) 1200, me 1300 → me: 1 + |{1500}| = 2 of 4
    // chart y: a 900, me 900 → tie: rank 1 of 2
    await aSongBestScore(db, a, x.id, 1500);
    await aSongBestScore(db, b, x.id, 1200);
    await aSongBestScore(db, c, x.id, 1200);
    await aSongBestScore(db, me, x.id, 1300);
    await aSongBestScore(db, a, y.id, 900);
    await aSongBestScore(db, me, y.id, 900);
    expect(await ranks(me)).toEqual([
      [y.id, 900, 1, 2],
      [x.id, 1300, 2, 4],
    ]);
    // b: 1200 on x, below 1500 and 1300, tied with c → rank 3 of 4
    expect(await ranks(b)).toEqual([[x.id, 1200, 3, 4]]);

    // b improves to 1600 (an UPDATE of the best): b first; me now 3rd (1600, 1500 above)
    await db.bestScore.update({
      where: { userId_version_chartId: { userId: b.id, version: '33', chartId: x.id } },
      data: { exScore: 1600 },
    });
    expect(await ranks(b)).toEqual([[x.id, 1600, 1, 4]]);
    expect((await ranks(me)).find((r) => r[0] === x.id)).toEqual([x.id, 1300, 3, 4]);

    // a's account is deleted (BestScore rows cascade): me 2nd of 3 on x, alone (1st of 1) on y
    await db.user.delete({ where: { id: a.id } });
    expect(await ranks(me)).toEqual([
      [y.id, 900, 1, 1],
      [x.id, 1300, 2, 3],
    ]);
  });

  it('moves ranks through the import pipeline in the same transaction (importScores)', async () => {
    const db = s.db.prisma;
    const z = charts[2];
    const [rival, me] = [await aPublicPlayer(db), await aPublicPlayer(db)];
    await aSongBestScore(db, rival, z.id, 1000);
    const token = await s.tokenFor(me.id);
    const M = `mutation($u: ID!, $rows: [ScoreRowInput!]!) { importScores(userId: $u, version: "33", rows: $rows) { updatedCount } }`;
    const row = (ex: number) => ({ title: z.title, difficulty: z.difficulty, exScore: ex, clearState: 'CLEAR' });
    expectNoErrors(await s.gql(M, { u: me.id, rows: [row(900)] }, token));
    // 900 < 1000 → 2nd of 2
    expect(await ranks(me, token)).toEqual([[z.id, 900, 2, 2]]);
    expectNoErrors(await s.gql(M, { u: me.id, rows: [row(1100)] }, token));
    // 1100 > 1000 → 1st of 2; the rival is 2nd at once
    expect(await ranks(me, token)).toEqual([[z.id, 1100, 1, 2]]);
    expect(await ranks(rival)).toEqual([[z.id, 1000, 2, 2]]);
  });

  it('counts across the edges of the 128-EX blocks, before and after imports that move ranks', async () => {
    const db = s.db.prisma;
    const [row] = await db.chart.findMany({
      where: { level: { in: [11, 12] }, playStyle: 'SP', notes: { gte: 1000 } },
      orderBy: { id: 'asc' },
      skip: 3,
      take: 1,
      include: { song: true },
    });
    const c = { id: row.id, title: row.song.title, difficulty: row.difficulty };
    // EX 0 (block 0, position 0), 127 (block 0, last), 128 ×2 (block 1, first), 255 (block 1, last), 256 (block 2, first)
    const p = await Promise.all([0, 127, 128, 128, 255, 256].map(() => aPublicPlayer(db)));
    for (const [k, ex] of [0, 127, 128, 128, 255, 256].entries()) await aSongBestScore(db, p[k], c.id, ex);
    const rankOf = async (u: User) => (await ranks(u)).find((r) => r[0] === c.id)!.slice(1);
    // 256 → 1; 255 → 2; 128, 128 → 3 (1 + |{256, 255}|); 127 → 5 (1 + 4); 0 → 6; 6 players
    expect(await Promise.all(p.map(rankOf))).toEqual([
      [0, 6, 6],
      [127, 5, 6],
      [128, 3, 6],
      [128, 3, 6],
      [255, 2, 6],
      [256, 1, 6],
    ]);

    const me = await aPublicPlayer(db);
    const token = await s.tokenFor(me.id);
    const M = `mutation($u: ID!, $rows: [ScoreRowInput!]!) { importScores(userId: $u, version: "33", rows: $rows) { updatedCount } }`;
    const imp = async (ex: number) =>
      expectNoErrors(
        await s.gql(
          M,
          { u: me.id, rows: [{ title: c.title, difficulty: c.difficulty, exScore: ex, clearState: 'CLEAR' }] },
          token,
        ),
      );
    await imp(200);
    // me 200 (block 1, position 72): above 256, 255 → 3; the 128s now 1 + 3 = 4; 127 → 6; 0 → 7; 7 players
    expect(await rankOf(me)).toEqual([200, 3, 7]);
    expect(await Promise.all(p.map(rankOf))).toEqual([
      [0, 7, 7],
      [127, 6, 7],
      [128, 4, 7],
      [128, 4, 7],
      [255, 2, 7],
      [256, 1, 7],
    ]);
    await imp(300);
    // me 300 (block 2, position 44, the same block as 256): first; everyone else one place lower than before me
    expect(await rankOf(me)).toEqual([300, 1, 7]);
    expect(await Promise.all(p.map(rankOf))).toEqual([
      [0, 7, 7],
      [127, 6, 7],
      [128, 4, 7],
      [128, 4, 7],
      [255, 3, 7],
      [256, 2, 7],
    ]);
    // 256 drops to 127 (an UPDATE from block 2 to block 0): 300 → 1, 255 → 2, 128s → 3, 127 ×2 → 5, 0 → 7
    await db.bestScore.update({
      where: { userId_version_chartId: { userId: p[5].id, version: '33', chartId: c.id } },
      data: { exScore: 127 },
    });
    expect(await Promise.all([...p, me].map(rankOf))).toEqual([
      [0, 7, 7],
      [127, 5, 7],
      [128, 3, 7],
      [128, 3, 7],
      [255, 2, 7],
      [127, 5, 7],
      [300, 1, 7],
    ]);
  });

  it('agrees with a direct count after random inserts, updates and deletes (EX 0 and the maximum included)', async () => {
    const db = s.db.prisma;
    const chart = charts[1];
    const version = '30'; // untouched by the other cases
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const players = await Promise.all(Array.from({ length: 40 }, () => aPublicPlayer(db)));
    const exOf = (i: number) => [0, 16383, 1, 2][i] ?? rnd(3000);
    for (const [i, p] of players.entries()) await aSongBestScore(db, p, chart.id, exOf(i), { version });
    for (let i = 0; i < 30; i++) {
      const p = players[rnd(players.length)];
      const where = { userId_version_chartId: { userId: p.id, version, chartId: chart.id } };
      if (i % 5 === 4) await db.bestScore.deleteMany({ where: { userId: p.id, version, chartId: chart.id } });
      else if (await db.bestScore.findUnique({ where }))
        await db.bestScore.update({ where, data: { exScore: rnd(3000) } });
      else await aSongBestScore(db, p, chart.id, rnd(3000), { version });
    }
    const rows = await db.bestScore.findMany({ where: { chartId: chart.id, version } });
    const q = `query($id: ID!) { user(id: $id) { chartRanks(version: "30") { exScore rank players } } }`;
    for (const r of rows) {
      const got = expectNoErrors<any>(await s.gql(q, { id: r.userId })).user.chartRanks[0];
      // rank = 1 + players with a strictly higher EX; players = every best on the chart
      expect(got).toEqual({
        exScore: r.exScore,
        rank: 1 + rows.filter((o) => o.exScore > r.exScore).length,
        players: rows.length,
      });
    }
  });

  it('is one statement for any number of users nested in a list', async () => {
    const db = s.db.prisma;
    const build = async (n: number) => {
      const hub = await aPublicPlayer(db);
      for (let i = 0; i < n; i++) {
        const p = await aPublicPlayer(db);
        await db.follow.create({ data: { followerId: p.id, followingId: hub.id } });
        for (const [k, c] of charts.entries()) await aSongBestScore(db, p, c.id, 500 + 10 * i + k);
      }
      return hub;
    };
    const q = `query($id: ID!) { user(id: $id) { followers(first: 50) { edges { node { chartRanks { rank players } } } } } }`;
    const small = await build(2);
    const big = await build(10);
    await sqlFor(s, q, { id: small.id });
    const a = await sqlFor(s, q, { id: small.id });
    const b = await sqlFor(s, q, { id: big.id });
    expect(b.data.user.followers.edges[0].node.chartRanks).toHaveLength(3);
    expectSameSqlCount(a, b, 'followers → chartRanks');
  });
});
