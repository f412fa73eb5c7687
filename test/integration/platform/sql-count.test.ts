/**
 * SQL-count guard: the nested reads run the same number of SQL statements whatever their fan-out
 * (followers, songs, notes), so any N+1 fails deterministically. Counts are Prisma query events.
 */
import type { User } from '../../../src/generated/prisma/client';
import { aBestScoreRow, aPublicPlayer, aVersionStatus, follows } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectSameSqlCount, sqlFor } from '../../helpers/sql-count';

let s: TestServer;
let charts: { id: number }[] = [];
beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
  charts = await s.db.prisma.chart.findMany({
    where: { level: { in: [11, 12] } },
    orderBy: { id: 'asc' },
    take: 8,
    select: { id: true },
  });
});
afterAll(() => s.close());

/** The read: user → stats → followers(first: 50) → their stats and recommended top 5. */
const NESTED = `query($id: ID!) { user(id: $id) {
  name stats { version totalBpi arenaClass }
  recommended(limit: 5) { totalBpi weapons { total data { chartId title bpi bpiDiff } } }
  followers(first: 50) { totalCount edges { node { id name isMasked
    stats { totalBpi arenaClass }
    recommended(limit: 5) { totalBpi weapons { total data { chartId title difficulty bpi bpiDiff exScore } } potential { data { chartId bpiDiff } } }
  } } }
} }`;

async function playerWithScores(i: number): Promise<User> {
  const db = s.db.prisma;
  // Public: recommended is non-null and FORBIDDEN on a masked user (the error would null the whole list).
  const u = await aPublicPlayer(db);
  await aVersionStatus(db, u, '33', { totalBpi: 10 + i, arenaClass: 'A3' });
  for (const [k, c] of charts.slice(0, 6).entries())
    await aBestScoreRow(db, u, c.id, 1000 + 37 * k + i, { bpi: -5 + 3 * k + i / 10 });
  return u;
}

async function targetWithFollowers(n: number): Promise<User> {
  const target = await playerWithScores(0);
  for (let i = 0; i < n; i++)
    await follows(s.db.prisma, await playerWithScores(i + 1), target, { approved: i % 2 === 0 });
  return target;
}

describe('SQL statements per GraphQL request do not grow with the fan-out', () => {
  it('user → stats → followers(first: 50) → their stats / recommended top 5 (anonymous and signed-in)', async () => {
    const small = await targetWithFollowers(2);
    const big = await targetWithFollowers(12);
    await sqlFor(s, NESTED, { id: small.id }); // warm process caches
    const a = await sqlFor(s, NESTED, { id: small.id });
    const b = await sqlFor(s, NESTED, { id: big.id });
    expect(a.data.user.followers.edges).toHaveLength(2);
    expect(b.data.user.followers.edges).toHaveLength(12);
    // The visible followers' recommendations are real rows, not empty lists.
    const visible = b.data.user.followers.edges.filter((e: any) => !e.node.isMasked);
    expect(visible.length).toBeGreaterThan(5);
    expect(visible[0].node.recommended.weapons.data.length).toBeGreaterThan(0);
    expectSameSqlCount(a, b, 'nested profile read (anonymous)');

    const viewer = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, viewer, small, { approved: true });
    await follows(s.db.prisma, viewer, big, { approved: true });
    const token = await s.tokenFor(viewer.id);
    const va = await sqlFor(s, NESTED, { id: small.id }, token);
    const vb = await sqlFor(s, NESTED, { id: big.id }, token);
    expectSameSqlCount(va, vb, 'nested profile read (signed-in)');
    expect(vb.count).toBeLessThanOrEqual(25);
  });

  it('songs → charts → definition / definitionHistory / arenaAverages', async () => {
    const q = `query($n: Int) { songs(first: $n) { edges { node { title charts { id: databaseId level definition { notes coef wr kaidenAvg } definitionHistory { definitionsVersion isCurrent } arenaAverages { arenaClass avgExScore count } } } } } }`;
    await sqlFor(s, q, { n: 1 }); // warm the in-memory arena-average cache
    const a = await sqlFor(s, q, { n: 2 });
    // 8 songs: each chart's definition history and arena averages are lists costed at their
    // bounds (10 charts × (10 + 10) per song), so 30 songs of it would exceed GRAPHQL_MAX_COMPLEXITY.
    const b = await sqlFor(s, q, { n: 8 });
    expect(b.data.songs.edges).toHaveLength(8);
    expectSameSqlCount(a, b, 'songs → charts → definitions');
  });

  it('note lists: songNotes and recentSongNotes with chart → song, upvoted, editable', async () => {
    const db = s.db.prisma;
    const authors = [await aPublicPlayer(db), await aPublicPlayer(db), await aPublicPlayer(db)];
    const viewer = await aPublicPlayer(db);
    const chartId = charts[0].id;
    for (let i = 0; i < 24; i++) {
      const note = await db.songNote.create({
        data: {
          chartId: i < 12 ? chartId : charts[1 + (i % 5)].id,
          authorId: authors[i % 3].id,
          body: `note ${i}`,
          authorTotalBpi: i,
        },
      });
      if (i % 2 === 0) await db.songNoteUpvote.create({ data: { noteId: note.id, userId: viewer.id } });
    }
    const token = await s.tokenFor(viewer.id);
    const perChart = `query($c: ID!, $n: Int) { songNotes(chartId: $c, first: $n) { totalCount edges { node { id body upvoteCount upvoted editable chart { id: databaseId level definition { notes } song { title } } } } } }`;
    const recent = `query($n: Int) { recentSongNotes(first: $n) { edges { node { id body upvoted editable authorTotalBpi chart { id: databaseId difficulty song { title artist } } } } } }`;
    for (const [label, q, vars] of [
      ['songNotes', perChart, { c: String(chartId) }],
      ['recentSongNotes', recent, {}],
    ] as const) {
      await sqlFor(s, q, { ...vars, n: 1 }, token); // warm process caches
      const a = await sqlFor(s, q, { ...vars, n: 2 }, token);
      const b = await sqlFor(s, q, { ...vars, n: 12 }, token);
      expect(JSON.stringify(b.data).match(/"body"/g)!.length).toBe(12);
      expectSameSqlCount(a, b, label);
    }
  });
});
