import { startTestServer, type TestServer } from '../../helpers/server';
import { aPlayer, withBestScore } from '../../helpers/factories';

describe('popularCharts counts are reused, not recounted per request', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('counts once, then answers other orders and pages from memory', async () => {
    const charts = [...s.app.catalogue.charts()].slice(0, 3);
    for (const [i, c] of charts.entries())
      for (let n = 0; n <= i; n++) await withBestScore(s.db.prisma, await aPlayer(s.db.prisma), c.id, 1000);
    const Q = `query($o: ChartPopularityOrder) { popularCharts(order: $o, first: 2) { totalCount edges { node { playerCount } } } }`;
    s.sql.reset();
    const most = await s.gql(Q, { o: 'MOST' });
    expect(most.body.data.popularCharts).toEqual({
      totalCount: 3,
      edges: [{ node: { playerCount: 3 } }, { node: { playerCount: 2 } }],
    });
    const grouped = () => s.sql.statements.filter((q) => /GROUP BY/i.test(q) && /BestScore/.test(q)).length;
    expect(grouped()).toBe(1);
    const fewest = await s.gql(Q, { o: 'FEWEST' });
    expect(fewest.body.data.popularCharts.edges.map((e: any) => e.node.playerCount)).toEqual([1, 2]);
    expect(grouped()).toBe(1);
  });
});
