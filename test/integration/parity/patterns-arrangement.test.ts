/**
 * Issue #33 item 1: fingering patterns list every arrangement with an imported arrangement score,
 * ranked by that precomputed score (the reference's order, now the default), votes beside it; the
 * exact-match search answers an arrangement nobody voted on.
 *
 * Fixture, one chart:
 *   imported arrangement scores: 7654321 95, 1234567 80, 2345671 80, 1357246 10 (4 arrangements)
 *   votes: 7654321 up (u1) → 1/0, score 1; 1234567 down (u1), up (u2, u3) → 2/1, score 1;
 *          3456712 (not imported) up (u2) → 1/0, score 1.
 * Default order (arrangement score desc, none last, then vote score desc, pattern asc):
 *   7654321 (95), 1234567 (80, votes 1), 2345671 (80, votes 0), 1357246 (10), 3456712 (none) — 5 patterns.
 */
import { aPublicPlayer } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let chart: number;

const LIST = `query($c: ID!, $sort: FingeringPatternSort, $first: Int, $after: String) {
  fingeringPatterns(chartId: $c, sort: $sort, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { pattern arrangementScore score upvotes downvotes } } } }`;
const SEARCH = `query($c: ID!, $p: String!) { searchFingeringPattern(chartId: $c, pattern: $p) {
  score rank total arrangementScore arrangementRank arrangementTotal pattern { pattern upvotes downvotes arrangementScore } } }`;
const VOTE = `mutation($c: ID!, $p: String!, $v: PatternVote!) { voteFingeringPattern(chartId: $c, pattern: $p, vote: $v) { myVote } }`;

beforeAll(async () => {
  s = await startTestServer();
  const db = s.db.prisma;
  chart = (await db.chart.findFirstOrThrow({ orderBy: { id: 'asc' } })).id;
  await db.arrangementScore.createMany({
    data: [
      ['7654321', 95],
      ['1234567', 80],
      ['2345671', 80],
      ['1357246', 10],
    ].map(([pattern, score]) => ({ chartId: chart, pattern: pattern as string, score: score as number, chartMax: 95 })),
  });
  const [u1, u2, u3] = await Promise.all([aPublicPlayer(db), aPublicPlayer(db), aPublicPlayer(db)]);
  const [t1, t2, t3] = await Promise.all([s.tokenFor(u1.id), s.tokenFor(u2.id), s.tokenFor(u3.id)]);
  for (const [t, p, v] of [
    [t1, '7654321', 'UPVOTE'],
    [t1, '1234567', 'DOWNVOTE'],
    [t2, '1234567', 'UPVOTE'],
    [t3, '1234567', 'UPVOTE'],
    [t2, '3456712', 'UPVOTE'],
  ])
    expectNoErrors(await s.gql(VOTE, { c: String(chart), p, v }, t));
}, 120_000);
afterAll(() => s?.close());

const page = async (vars: Record<string, unknown>) =>
  expectNoErrors<any>(await s.gql(LIST, { c: String(chart), ...vars })).fingeringPatterns;
const patterns = (p: any) => p.edges.map((e: any) => e.node.pattern);

describe('fingering patterns ranked by the arrangement score (issue #33 item 1)', () => {
  it('default order: every arrangement, voted or not, by arrangement score; the voted-only pattern last', async () => {
    const p = await page({});
    expect(p.totalCount).toBe(5);
    expect(p.edges.map((e: any) => e.node)).toEqual([
      { pattern: '7654321', arrangementScore: 95, score: 1, upvotes: 1, downvotes: 0 },
      { pattern: '1234567', arrangementScore: 80, score: 1, upvotes: 2, downvotes: 1 },
      { pattern: '2345671', arrangementScore: 80, score: 0, upvotes: 0, downvotes: 0 },
      { pattern: '1357246', arrangementScore: 10, score: 0, upvotes: 0, downvotes: 0 },
      { pattern: '3456712', arrangementScore: null, score: 1, upvotes: 1, downvotes: 0 },
    ]);
  });

  it('pages of 2 follow the same order through the keyset cursor', async () => {
    const p1 = await page({ first: 2 });
    const p2 = await page({ first: 2, after: p1.pageInfo.endCursor });
    const p3 = await page({ first: 2, after: p2.pageInfo.endCursor });
    expect([patterns(p1), patterns(p2), patterns(p3)]).toEqual([
      ['7654321', '1234567'],
      ['2345671', '1357246'],
      ['3456712'],
    ]);
    expect([p1.pageInfo.hasNextPage, p2.pageInfo.hasNextPage, p3.pageInfo.hasNextPage]).toEqual([true, true, false]);
    // a cursor of another sort is refused, naming `after`
    const err = (await s.gql<any>(LIST, { c: String(chart), sort: 'SCORE', after: p1.pageInfo.endCursor })).body
      .errors?.[0];
    expect([err?.extensions?.code, JSON.stringify(err?.extensions)]).toEqual([
      'BAD_USER_INPUT',
      expect.stringContaining('after'),
    ]);
  });

  it('the vote orders list the arrangements too (0 / 0 for the unvoted)', async () => {
    // SCORE: score 1 → 1234567, 3456712, 7654321 (pattern asc); score 0 → 1357246, 2345671
    expect(patterns(await page({ sort: 'SCORE' }))).toEqual(['1234567', '3456712', '7654321', '1357246', '2345671']);
    // UPVOTES: 2 up → 1234567; 1 up (score 1 both) → 3456712, 7654321; 0 up → 1357246, 2345671
    const byUp = await page({ sort: 'UPVOTES', first: 3 });
    expect(patterns(byUp)).toEqual(['1234567', '3456712', '7654321']);
    expect(patterns(await page({ sort: 'UPVOTES', after: byUp.pageInfo.endCursor }))).toEqual(['1357246', '2345671']);
  });

  it('search answers an unvoted arrangement: 1357246 → arrangement rank 1 + 3 higher (95, 80, 80) = 4 of 4', async () => {
    const r = expectNoErrors<any>(await s.gql(SEARCH, { c: String(chart), p: '1357246' })).searchFingeringPattern;
    // by votes: three patterns have score 1 > 0 → rank 4 of 5
    expect(r).toEqual({
      score: 0,
      rank: 4,
      total: 5,
      arrangementScore: 10,
      arrangementRank: 4,
      arrangementTotal: 4,
      pattern: { pattern: '1357246', upvotes: 0, downvotes: 0, arrangementScore: 10 },
    });
  });

  it('ties share the arrangement rank (2345671: only 95 is higher → 2); a voted-only pattern has none; absent → null', async () => {
    const tie = expectNoErrors<any>(await s.gql(SEARCH, { c: String(chart), p: '2345671' })).searchFingeringPattern;
    expect([tie.arrangementScore, tie.arrangementRank]).toEqual([80, 2]);
    const voted = expectNoErrors<any>(await s.gql(SEARCH, { c: String(chart), p: '3456712' })).searchFingeringPattern;
    expect(voted).toMatchObject({ score: 1, rank: 1, total: 5, arrangementScore: null, arrangementRank: null });
    const absent = expectNoErrors<any>(await s.gql(SEARCH, { c: String(chart), p: '7531246' }));
    expect(absent.searchFingeringPattern).toBeNull();
  });
});
