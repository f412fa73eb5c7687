/**
 * Lane-ticket pages ranked by the database (issue #27, src/modules/optimizer/tickets.sql.ts): walking
 * a ticket with `first` + `after` to its end gives the full in-memory ranking of
 * src/domain/optimizer/tickets.ts `rankTicketCharts` (docs/domain/optimizer.md#lane-tickets), ties
 * and charts whose best score is ≤ 0 included; and the statements per request do not grow with the
 * number of tickets.
 *
 * Ticket 2641753 on twelve charts c0..c11 (ascending chart ids), score / best (relative key):
 *   c0 30/60 = 0.5   c1 20/40 = 0.5   c2 1/3   c3 2/6 (the same double as 1/3: 2÷6 and 1÷3 round alike)
 *   c4 0/0 → −9999   c5 −5/0 → −9999  c6 −3/−2 → −9999 (best ≤ 0)   c7 50/50 = 1   c8 −20000/1 = −20000
 *   c9 20/25 = 0.8   c10 −1/−1 → −9999   c11 −8/0 → −9999 (five charts tie at −9999: more than a page + 1)
 * Relative, key DESC then chart id: c7 (1), c9 (0.8), c0, c1 (0.5), c2, c3 (1/3), c4, c5, c6, c10, c11
 *   (−9999), c8 (−20000 < −9999: after the best-≤-0 charts, as the key says).
 *   relativeScore = score / best · 100: 100, 80, 50, 50, 33.33…, 33.33…, 0, 0, 0, 0, 0, −2000000.
 * Raw, score DESC then chart id: c7 50, c0 30, c1 20, c9 20, c3 2, c2 1, c4 0, c10 −1, c6 −3, c5 −5,
 *   c11 −8, c8 −20000.
 * Ticket 1234567 (noise in the same statement): c0 60/60, c1 40/40, c2 3/3 → relative 1, 1, 1 → c0, c1, c2.
 */
import type { User } from '../../../src/generated/prisma/client';
import { rankTicketCharts } from '../../../src/domain/optimizer';
import { aPublicPlayer } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { expectSameSqlCount, sqlFor } from '../../helpers/sql-count';

let s: TestServer;
let p: User;
let c: number[];

const P = '2641753';
// [chart index, score, best] of ticket P (see the header)
const SCORES: [number, number, number][] = [
  [0, 30, 60],
  [1, 20, 40],
  [2, 1, 3],
  [3, 2, 6],
  [4, 0, 0],
  [5, -5, 0],
  [6, -3, -2],
  [7, 50, 50],
  [8, -20000, 1],
  [9, 20, 25],
  [10, -1, -1],
  [11, -8, 0],
];

const ONE = `query($id: ID!, $t: String!, $mode: TicketScoreMode, $first: Int, $after: String) { user(id: $id) {
  ticketRecommendation(ticketId: $t, scoreMode: $mode, first: $first, after: $after) {
    charts { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { chartId patternScore maxPatternScore relativeScore } } } } } }`;
const MANY = `query($id: ID!, $tickets: [TicketInput!]!, $mode: TicketScoreMode, $first: Int) { user(id: $id) {
  ticketRecommendations(tickets: $tickets, scoreMode: $mode, first: $first) { ticketId charts { totalCount pageInfo { hasNextPage } edges { node { chartId relativeScore } } } } } }`;

beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0' } });
  c = (await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 12, select: { id: true } })).map((x) => x.id);
  p = await aPublicPlayer(s.db.prisma);
  await s.db.prisma.arrangementScore.createMany({
    data: [
      ...SCORES.map(([i, score, chartMax]) => ({ chartId: c[i], pattern: P, score, chartMax })),
      { chartId: c[0], pattern: '1234567', score: 60, chartMax: 60 },
      { chartId: c[1], pattern: '1234567', score: 40, chartMax: 40 },
      { chartId: c[2], pattern: '1234567', score: 3, chartMax: 3 },
    ],
  });
});
afterAll(() => s.close());

/** Every page of ticket P with `first`, following endCursor: the chart indexes per page, and the nodes. */
async function walk(mode: 'RELATIVE' | 'RAW', first: number) {
  const pages: number[][] = [];
  const nodes: { chartId: number; patternScore: number; maxPatternScore: number; relativeScore: number }[] = [];
  let after: string | null = null;
  for (;;) {
    const r: any = expectNoErrors(await s.gql(ONE, { id: p.id, t: P, mode, first, after }));
    const conn = r.user.ticketRecommendation.charts;
    expect(conn.totalCount).toBe(12);
    const page = conn.edges.map((e: any) => ({ ...e.node, chartId: Number(e.node.chartId) }));
    pages.push(page.map((n: { chartId: number }) => c.indexOf(n.chartId)));
    nodes.push(...page);
    if (!conn.pageInfo.hasNextPage) break;
    expect(pages.length).toBeLessThan(10); // no endless loop on a cursor that does not advance
    after = conn.pageInfo.endCursor;
  }
  return { pages, nodes };
}

const inMemory = (mode: 'relative' | 'raw') =>
  rankTicketCharts(
    SCORES.map(([i, score, best]) => ({ chartId: c[i], patternScore: score, maxPatternScore: best })),
    mode,
  );

describe('ticket pages ranked by the database', () => {
  // The hand-worked orders of the header, as chart indexes; every page of a walk is the next `first` of them.
  const ORDER = {
    RELATIVE: [7, 9, 0, 1, 2, 3, 4, 5, 6, 10, 11, 8],
    RAW: [7, 0, 1, 9, 3, 2, 4, 10, 6, 5, 11, 8],
  };
  const chunks = (list: number[], n: number) =>
    Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));

  // relative: first = 3 splits the 0.5 tie (c0 | c1), the five −9999 charts span two pages either way;
  // raw: the 20 tie (c1, c9) is split by a cursor with first = 2
  it.each(['RELATIVE', 'RAW'] as const)(
    '%s: first = 2 and first = 3 walk the full ranking (ties, best ≤ 0, a key below −9999)',
    async (mode) => {
      // the same items as the JS ranking of every row, field for field
      const full = inMemory(mode === 'RELATIVE' ? 'relative' : 'raw').map((r) => ({
        chartId: r.chartId,
        patternScore: r.patternScore,
        maxPatternScore: r.maxPatternScore,
        relativeScore: r.relativeScore,
      }));
      for (const first of [2, 3]) {
        const walked = await walk(mode, first);
        expect(walked.pages).toEqual(chunks(ORDER[mode], first));
        expect(walked.nodes).toEqual(full);
      }
      if (mode === 'RELATIVE')
        expect(full.map((n) => n.relativeScore)).toEqual([
          100,
          80,
          50,
          50,
          (1 / 3) * 100,
          (2 / 6) * 100,
          0,
          0,
          0,
          0,
          0,
          -2000000,
        ]);
    },
  );

  it('several tickets: the first page of each, its total, and one statement count whatever the number of tickets', async () => {
    const q = (tickets: string[]) =>
      sqlFor(s, MANY, { id: p.id, tickets: tickets.map((ticketId) => ({ ticketId })), mode: 'RELATIVE', first: 2 });
    await q([P]); // warm caches
    const small = await q([P]);
    // 50 tickets: P, 1234567 and 48 others without any score
    const others = ['7123456', '7213456', '7231456', '7234156', '7234516', '7234561'];
    const many = [P, '1234567', ...Array.from({ length: 48 }, (_, i) => others[i % others.length])];
    const big = await q(many);
    expectSameSqlCount(small, big, 'ticketRecommendations(1 ticket) vs (50 tickets)');
    const r = big.data.user.ticketRecommendations;
    expect(r).toHaveLength(50);
    const view = (t: any) => [
      t.ticketId,
      t.charts.totalCount,
      t.charts.pageInfo.hasNextPage,
      t.charts.edges.map((e: any) => c.indexOf(Number(e.node.chartId))),
    ];
    expect(view(r[0])).toEqual([P, 12, true, [7, 9]]);
    expect(view(r[1])).toEqual(['1234567', 3, true, [0, 1]]); // relative 1, 1, 1 → chart id
    expect(view(r[2])).toEqual(['7123456', 0, false, []]);
    // the one statement reading arrangement scores ranks and pages in SQL (no read of every row)
    const reads = big.statements.filter((q) => q.includes('"ArrangementScore"'));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain('LIMIT');
  });
});
