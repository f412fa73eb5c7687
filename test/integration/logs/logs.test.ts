/**
 * Logs (issue #17, logs): batches with topN up to 100, a batch's rank movement among followed
 * players (rivalRankInfo: counts only), the day's other batches and prev/next navigation, period
 * details with previous / next, first batch / first play day differences of 0.
 * Demo catalogue; batches are imported with chosen import times (`now`).
 */
import { importScores } from '../../../src/modules/scores/import.service';
import { aPrivatePlayer, aPublicPlayer, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

const ok = (res: { status: number; body: { data?: any; errors?: any[] } }): any => expectNoErrors(res);

describe('logs: batches, rival ranks, navigation', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const sp = () => [...s.app.catalogue.charts()].filter((c) => c.playStyle === 'SP' && c.definition && c.notes > 1000);
  const imp = (
    userId: string,
    rows: { chart: { title: string; difficulty: any }; ex: number; at: string }[],
    now?: string,
  ) =>
    importScores(
      { db: s.db.prisma, catalogue: s.app.catalogue },
      {
        userId,
        version: '33',
        source: 'ROWS',
        now: now ? new Date(now) : undefined,
        rows: rows.map((r, i) => ({
          line: i + 1,
          title: r.chart.title,
          difficulty: r.chart.difficulty,
          exScore: r.ex,
          clearLamp: 'CLEAR' as const,
          missCount: 1,
          lastPlayed: r.at,
        })),
      },
    );

  it('ranks me among followed players (public or approved) before and after a batch; counts only', async () => {
    const [x, y] = sp();
    const me = await aPublicPlayer(s.db.prisma);
    const p1 = await aPublicPlayer(s.db.prisma); // public, followed: 1500
    const p2 = await aPrivatePlayer(s.db.prisma); // private, approved: 1700
    const p3 = await aPrivatePlayer(s.db.prisma); // private, legacy follow without approval: 1900 — not counted
    const p4 = await aPublicPlayer(s.db.prisma); // public, not followed: 1800 — not counted
    await follows(s.db.prisma, me, p1);
    await follows(s.db.prisma, me, p2, { approved: true });
    await follows(s.db.prisma, me, p3);
    for (const [p, ex] of [
      [p1, 1500],
      [p2, 1700],
      [p3, 1900],
      [p4, 1800],
    ] as const)
      await imp(p.id, [{ chart: x, ex, at: '2025-01-01 10:00' }]);
    const b1 = await imp(me.id, [
      { chart: x, ex: 1400, at: '2025-01-02 10:00' },
      { chart: y, ex: 1000, at: '2025-01-02 10:00' },
    ]);
    const b2 = await imp(me.id, [{ chart: x, ex: 1600, at: '2025-01-03 10:00' }]);
    const q = (b: string, token?: string) =>
      s.gql(
        `query($id: ID!, $b: ID!) { user(id: $id) { batch(id: $b) { scores { chartId rivalRankInfo { myRankBefore myRankAfter totalRivals } } } } }`,
        { id: me.id, b },
        token,
      );
    const token = await s.tokenFor(me.id);
    const second = ok(await q(b2.batchId!, token)).user.batch.scores;
    // rivals on x: 1500 (p1), 1700 (p2) → 2. Before: my 1400 is below both → rank 3; after: 1600 is below 1700 only → rank 2
    expect(second).toEqual([{ chartId: x.id, rivalRankInfo: { myRankBefore: 3, myRankAfter: 2, totalRivals: 2 } }]);
    const first = ok(await q(b1.batchId!, token)).user.batch.scores;
    const byChart = Object.fromEntries(first.map((e: any) => [e.chartId, e.rivalRankInfo]));
    // no previous best → rivals + 1 = 3; after 1400 (the batch's best) → 1 + 2 above = 3. y: no followed player played it → null
    expect(byChart[x.id]).toEqual({ myRankBefore: 3, myRankAfter: 3, totalRivals: 2 });
    expect(byChart[y.id]).toBeNull();
    // a stranger sees the same counts (no names anywhere in it)
    const stranger = await aPublicPlayer(s.db.prisma);
    expect(ok(await q(b2.batchId!, await s.tokenFor(stranger.id))).user.batch.scores[0].rivalRankInfo).toEqual({
      myRankBefore: 3,
      myRankAfter: 2,
      totalRivals: 2,
    });
  });

  it('topN up to 100; first batch and first play day differ by 0; day batches and prev/next navigation; period previous/next', async () => {
    const charts = sp().slice(0, 8);
    const me = await aPublicPlayer(s.db.prisma);
    // import times (UTC) → JST days: b0 03-01, b1 and b2 03-02, b3 03-04; play days (JST): 02-28, 03-01, 03-01, 03-03
    const b0 = await imp(
      me.id,
      charts.map((c, i) => ({ chart: c, ex: c.notes + i, at: '2025-02-28 20:00' })),
      '2025-03-01T03:00:00Z',
    );
    const b1 = await imp(
      me.id,
      [{ chart: charts[0], ex: charts[0].notes + 100, at: '2025-03-01 20:00' }],
      '2025-03-02T01:00:00Z',
    );
    const b2 = await imp(
      me.id,
      [{ chart: charts[1], ex: charts[1].notes + 100, at: '2025-03-01 21:00' }],
      '2025-03-02T05:00:00Z',
    );
    const b3 = await imp(
      me.id,
      [{ chart: charts[2], ex: charts[2].notes + 100, at: '2025-03-03 20:00' }],
      '2025-03-04T01:00:00Z',
    );

    const q = ok(
      await s.gql(
        `query($id: ID!, $b: ID!) { user(id: $id) {
      top3: batches(version: "33", topN: 3) { edges { node { id: databaseId diff topScores { exScore } } } }
      top100: batches(version: "33", topN: 100) { edges { node { topScores { exScore } } } }
      playDays(version: "33") { edges { node { date diff } } }
      batch(id: $b) { prevBatch { id: databaseId } nextBatch { id: databaseId } prevDayBatch { id: databaseId totalBpi } nextDayBatch { id: databaseId } dayBatches { id: databaseId } }
      day: scoreDetails(version: "33", date: "2025-03-02") { batchCount previous { date batchId totalBpi } next { date batchId } }
      week: scoreDetails(version: "33", date: "2025-03-02", unit: "week") { batchCount previous { date } next { date batchId } }
      played: scoreDetails(version: "33", date: "2025-03-01", groupedBy: "playedAt") { previous { date batchId } next { date } }
    } }`,
        { id: me.id, b: b1.batchId },
      ),
    ).user;
    const oldest = q.top3.edges.at(-1).node;
    expect(oldest.id).toBe(b0.batchId);
    expect(oldest.topScores).toHaveLength(3); // b0 has 8 plays
    expect(oldest.diff).toBe(0); // the first batch: no previous total
    expect(q.top3.edges[0].node.diff).toBeCloseTo(b3.newTotalBpi - b2.newTotalBpi, 2);
    expect(q.top100.edges.at(-1).node.topScores).toHaveLength(8);
    expect(q.playDays.edges.at(-1).node).toEqual({ date: '2025-02-28', diff: 0 });
    expect(q.batch).toEqual({
      prevBatch: { id: b0.batchId },
      nextBatch: { id: b2.batchId },
      prevDayBatch: { id: b0.batchId, totalBpi: b0.newTotalBpi },
      nextDayBatch: { id: b3.batchId },
      dayBatches: [{ id: b1.batchId }, { id: b2.batchId }],
    });
    expect(q.day).toEqual({
      batchCount: 2,
      previous: { date: '2025-03-01', batchId: b0.batchId, totalBpi: b0.newTotalBpi },
      next: { date: '2025-03-04', batchId: b3.batchId },
    });
    // 2025-03-02 is a Sunday: the week Mon 02-24 … Sun 03-02 holds b0, b1, b2
    expect(q.week).toEqual({ batchCount: 3, previous: null, next: { date: '2025-03-04', batchId: b3.batchId } });
    expect(q.played).toEqual({ previous: { date: '2025-02-28', batchId: null }, next: { date: '2025-03-03' } });

    for (const topN of [0, 101]) {
      const bad = await s.gql(`query($id: ID!) { user(id: $id) { batches(topN: ${topN}) { totalCount } } }`, {
        id: me.id,
      });
      expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', issues: [{ path: ['topN'] }] });
    }
  });
});
