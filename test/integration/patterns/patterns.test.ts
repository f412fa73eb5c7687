import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { aPublicPlayer } from '../../helpers/factories';

let s: TestServer;
let chart: number;
let tokens: string[];

const VOTE = `mutation($c: ID!, $p: String!, $v: PatternVote!) { voteFingeringPattern(chartId: $c, pattern: $p, vote: $v) { myVote pattern { pattern score upvotes downvotes myVote } } }`;
const CANCEL = `mutation($c: ID!, $p: String!) { cancelFingeringPatternVote(chartId: $c, pattern: $p) { myVote pattern { score upvotes downvotes myVote } } }`;
const LIST = `query($c: ID!, $sort: FingeringPatternSort, $first: Int, $after: String) { fingeringPatterns(chartId: $c, sort: $sort, first: $first, after: $after) {
  totalCount pageInfo { hasNextPage endCursor } edges { node { pattern score upvotes downvotes myVote } } } }`;
const SEARCH = `query($c: ID!, $p: String!) { searchFingeringPattern(chartId: $c, pattern: $p) { score rank total pattern { pattern } } }`;

const vote = (token: string, p: string, v: 'UPVOTE' | 'DOWNVOTE', c = chart) =>
  s.gql(VOTE, { c: String(c), p, v }, token);

beforeAll(async () => {
  s = await startTestServer();
  chart = (await s.db.prisma.chart.findFirstOrThrow({ orderBy: { id: 'asc' } })).id;
  const users = await Promise.all(Array.from({ length: 10 }, () => aPublicPlayer(s.db.prisma)));
  tokens = await Promise.all(users.map((u) => s.tokenFor(u.id)));
});
afterAll(() => s.close());

describe('fingering patterns', () => {
  it('rejects invalid patterns with BAD_USER_INPUT (vote, cancel, search)', async () => {
    for (const p of [
      '123456',
      '12345678',
      '1234566',
      '1234568',
      '0123456',
      'abcdefg',
      '',
      ' 1234567',
      '１２３４５６７',
    ]) {
      const v = await vote(tokens[0], p, 'UPVOTE');
      expect(v.body.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
      const c = await s.gql(CANCEL, { c: String(chart), p }, tokens[0]);
      expect(c.body.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
      const q = await s.gql(SEARCH, { c: String(chart), p });
      expect(q.body.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    }
    expect(await s.db.prisma.fingeringPattern.count()).toBe(0);
    const unknownChart = await vote(tokens[0], '1234567', 'UPVOTE', 99999999);
    expect(unknownChart.body.errors![0].extensions.code).toBe('NOT_FOUND');
    const anon = await s.gql(VOTE, { c: String(chart), p: '1234567', v: 'UPVOTE' });
    expect(anon.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('one vote per user: re-voting replaces, cancelling is idempotent, score = upvotes − downvotes', async () => {
    const a = expectNoErrors(await vote(tokens[0], '7654321', 'UPVOTE')) as any;
    expect(a.voteFingeringPattern).toEqual({
      myVote: 'UPVOTE',
      pattern: { pattern: '7654321', score: 1, upvotes: 1, downvotes: 0, myVote: 'UPVOTE' },
    });
    const again = expectNoErrors(await vote(tokens[0], '7654321', 'UPVOTE')) as any;
    expect(again.voteFingeringPattern.pattern).toMatchObject({ score: 1, upvotes: 1, downvotes: 0 });
    const flip = expectNoErrors(await vote(tokens[0], '7654321', 'DOWNVOTE')) as any;
    expect(flip.voteFingeringPattern.pattern).toMatchObject({
      score: -1,
      upvotes: 0,
      downvotes: 1,
      myVote: 'DOWNVOTE',
    });
    expectNoErrors(await vote(tokens[1], '7654321', 'UPVOTE'));
    expectNoErrors(await vote(tokens[2], '7654321', 'UPVOTE'));
    const c = expectNoErrors(await s.gql(CANCEL, { c: String(chart), p: '7654321' }, tokens[0])) as any;
    expect(c.cancelFingeringPatternVote).toEqual({
      myVote: null,
      pattern: { score: 2, upvotes: 2, downvotes: 0, myVote: null },
    });
    const c2 = expectNoErrors(await s.gql(CANCEL, { c: String(chart), p: '7654321' }, tokens[0])) as any;
    expect(c2.cancelFingeringPatternVote.pattern).toMatchObject({ score: 2, upvotes: 2 });
    // cancelling on a pattern nobody voted on: no row, null pattern
    const none = expectNoErrors(await s.gql(CANCEL, { c: String(chart), p: '1357246' }, tokens[0])) as any;
    expect(none.cancelFingeringPatternVote).toEqual({ myVote: null, pattern: null });
  });

  it('keeps counts exact under concurrent votes', async () => {
    const results = await Promise.all(tokens.map((t, i) => vote(t, '2345671', i % 3 === 0 ? 'DOWNVOTE' : 'UPVOTE')));
    results.forEach((r) => expectNoErrors(r));
    const row = await s.db.prisma.fingeringPattern.findUniqueOrThrow({
      where: { chartId_pattern: { chartId: chart, pattern: '2345671' } },
    });
    expect(row).toMatchObject({ upvotes: 6, downvotes: 4, score: 2 });
    // everybody flips at once
    const flips = await Promise.all(tokens.map((t, i) => vote(t, '2345671', i % 3 === 0 ? 'UPVOTE' : 'DOWNVOTE')));
    flips.forEach((r) => expectNoErrors(r));
    const after = await s.db.prisma.fingeringPattern.findUniqueOrThrow({
      where: { chartId_pattern: { chartId: chart, pattern: '2345671' } },
    });
    expect(after).toMatchObject({ upvotes: 4, downvotes: 6, score: -2 });
  });

  it('lists by score (ties by pattern) or upvotes, 100 per page by default, max 100', async () => {
    // 105 patterns with scores 0 (bulk rows) plus the voted ones
    const perms: string[] = [];
    const digits = ['1', '2', '3', '4', '5', '6', '7'];
    const permute = (prefix: string, rest: string[]) => {
      if (perms.length >= 105) return;
      if (!rest.length) return void perms.push(prefix);
      rest.forEach((d, i) => permute(prefix + d, [...rest.slice(0, i), ...rest.slice(i + 1)]));
    };
    permute('', digits);
    await s.db.prisma.fingeringPattern.createMany({
      data: perms.map((pattern) => ({ chartId: chart, pattern })),
      skipDuplicates: true,
    });
    const total = await s.db.prisma.fingeringPattern.count({ where: { chartId: chart } });
    const p1 = expectNoErrors(await s.gql(LIST, { c: String(chart) }, tokens[1])) as any;
    expect(p1.fingeringPatterns.totalCount).toBe(total);
    expect(p1.fingeringPatterns.edges).toHaveLength(100);
    expect(p1.fingeringPatterns.edges[0].node).toMatchObject({ pattern: '7654321', score: 2, myVote: 'UPVOTE' });
    const scores = p1.fingeringPatterns.edges.map((e: any) => e.node.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const zeros = p1.fingeringPatterns.edges.filter((e: any) => e.node.score === 0).map((e: any) => e.node.pattern);
    expect([...zeros].sort()).toEqual(zeros);
    const p2 = expectNoErrors(
      await s.gql(LIST, { c: String(chart), after: p1.fingeringPatterns.pageInfo.endCursor }),
    ) as any;
    expect(p2.fingeringPatterns.edges).toHaveLength(total - 100);
    expect(p2.fingeringPatterns.pageInfo.hasNextPage).toBe(false);
    const seen = new Set(
      [...p1.fingeringPatterns.edges, ...p2.fingeringPatterns.edges].map((e: any) => e.node.pattern),
    );
    expect(seen.size).toBe(total);
    const byUp = expectNoErrors(await s.gql(LIST, { c: String(chart), sort: 'UPVOTES', first: 2 })) as any;
    expect(byUp.fingeringPatterns.edges.map((e: any) => e.node.upvotes)).toEqual([4, 2]);
    const tooBig = await s.gql(LIST, { c: String(chart), first: 101 });
    expect(tooBig.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('exact-match search: rank counts strictly higher scores (ties share), null when absent', async () => {
    const top = expectNoErrors(await s.gql(SEARCH, { c: String(chart), p: '7654321' })) as any;
    const total = await s.db.prisma.fingeringPattern.count({ where: { chartId: chart } });
    expect(top.searchFingeringPattern).toEqual({ score: 2, rank: 1, total, pattern: { pattern: '7654321' } });
    const zero = await s.db.prisma.fingeringPattern.findFirstOrThrow({ where: { chartId: chart, score: 0 } });
    const tie = expectNoErrors(await s.gql(SEARCH, { c: String(chart), p: zero.pattern })) as any;
    expect(tie.searchFingeringPattern.rank).toBe(2); // only 7654321 (2) is higher; 2345671 is −2
    const absent = expectNoErrors(await s.gql(SEARCH, { c: String(chart), p: '7531246' })) as any;
    expect(absent.searchFingeringPattern).toBeNull();
  });
});
