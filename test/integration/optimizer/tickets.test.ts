/**
 * Lane tickets (docs/domain/optimizer.md#lane-tickets) over imported arrangement scores, and the import itself
 * (admin mutation and the CLI use case), on the tiny catalogue of ./fixture.ts.
 *
 * Scores imported (pattern → score):
 *   Alpha: 2641753 → 30, 1234567 → 60          (best 60)
 *   Beta:  2641753 → 40, 7654321 → 100         (best 100)
 *   Gamma: 2641753 → 20, 1234567 → 20          (best 20)
 * Ticket 2641753, raw: Beta 40, Alpha 30, Gamma 20.
 *                 relative (score / best · 100): Gamma 100, Alpha 50, Beta 40.
 * Ticket 1234567, relative: Alpha 100 and Gamma 100 (tie → chart id: Alpha first); raw: Alpha 60, Gamma 20.
 * The player P: Alpha EX 1000 (BPI 0, clear lamp none), stored total −7.5 → Alpha's gap −7.5 − 0 = −7.5.
 */
import type { User } from '../../../src/generated/prisma/client';
import { importArrangementScores } from '../../../src/modules/optimizer/arrangement.import';
import { aPublicPlayer, aVersionStatus, anAdmin, withBestScore } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { tinyCatalogue } from './fixture';

let s: TestServer;
let ids: { alpha: number; beta: number; gamma: number };
let p: User;
let tokenP: string;
let tokenAdmin: string;

const DOC = [
  { title: 'Alpha', difficulty: 'ANOTHER', scores: { '2641753': 30, '1234567': 60 } },
  { title: 'Beta', difficulty: 'ANOTHER', playStyle: 'SP', scores: { '2641753': 40, '7654321': 100 } },
  { title: 'Gamma', difficulty: 'ANOTHER', scores: { '2641753': 20, '1234567': 20 } },
];
const IMPORT = `mutation($json: String!) { importArrangementScores(json: $json) { charts added changed unchanged removed } }`;
const ONE = `query($id: ID!, $t: String!, $mode: TicketScoreMode, $first: Int, $after: String, $exp: String) { user(id: $id) {
  ticketRecommendation(ticketId: $t, scoreMode: $mode, first: $first, after: $after, expiresAt: $exp) { ticketId expiresAt scoreMode totalBpi
    charts { totalCount pageInfo { hasNextPage endCursor } edges { node { chartId chart { id: databaseId } pattern patternScore maxPatternScore relativeScore exScore bpi clearLamp bpiGap upvotes downvotes myVote } } } } } }`;
const MANY = `query($id: ID!, $tickets: [TicketInput!]!, $mode: TicketScoreMode, $first: Int) { user(id: $id) {
  ticketRecommendations(tickets: $tickets, scoreMode: $mode, first: $first) { ticketId expiresAt charts { totalCount edges { node { chartId relativeScore } } } } } }`;

const one = (vars: Record<string, unknown>, token?: string) => s.gql(ONE, { id: p.id, ...vars }, token);
const titles = (conn: any) => conn.edges.map((e: any) => Number(e.node.chartId));

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  ids = await tinyCatalogue(s);
  p = await aPublicPlayer(s.db.prisma);
  await withBestScore(s.db.prisma, p, ids.alpha, 1000);
  await aVersionStatus(s.db.prisma, p, '33', { totalBpi: -7.5 });
  tokenP = await s.tokenFor(p.id);
  tokenAdmin = await s.tokenFor((await anAdmin(s.db.prisma)).id);
});
afterAll(() => s.close());

describe('arrangement-score import', () => {
  it('refuses an invalid file whole: nothing is written', async () => {
    const bad = [...DOC, { title: 'Alpha', difficulty: 'HYPER', scores: { '1234568': 1, '7654321': Number.NaN } }];
    const r = await s.gql(IMPORT, { json: JSON.stringify(bad) }, tokenAdmin);
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    // '1234568' is not a lane permutation; NaN serialises to null: not a number
    expect(r.body.errors[0].extensions.issues.map((i: any) => i.path)).toEqual([
      [3, 'scores', '1234568'],
      [3, 'scores', '7654321'],
    ]);
    const unknownChart = await s.gql(
      IMPORT,
      { json: JSON.stringify([...DOC, { title: 'Nope', difficulty: 'ANOTHER', scores: { '1234567': 1 } }]) },
      tokenAdmin,
    );
    expect(unknownChart.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(unknownChart.body.errors[0].message).toContain('Nope');
    const dup = await s.gql(IMPORT, { json: JSON.stringify([...DOC, DOC[0]]) }, tokenAdmin);
    expect(dup.body.errors[0].extensions.issues[0]).toMatchObject({ path: [3], message: 'the same chart as entry 0' });
    const notJson = await s.gql(IMPORT, { json: '{' }, tokenAdmin);
    expect(notJson.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(await s.db.prisma.arrangementScore.count()).toBe(0);
    const notAdmin = await s.gql(IMPORT, { json: JSON.stringify(DOC) }, tokenP);
    expect(notAdmin.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('imports in one go and is re-runnable; an entry replaces its chart’s patterns', async () => {
    const first = (expectNoErrors(await s.gql(IMPORT, { json: JSON.stringify(DOC) }, tokenAdmin)) as any)
      .importArrangementScores;
    expect(first).toEqual({ charts: 3, added: 6, changed: 0, unchanged: 0, removed: 0 });
    const again = await importArrangementScores(s.db.prisma, DOC); // the CLI's use case
    expect(again).toEqual({ charts: 3, added: 0, changed: 0, unchanged: 6, removed: 0 });
    // Beta alone, with 7654321 dropped and 2641753 changed: Alpha and Gamma untouched
    const beta = await importArrangementScores(s.db.prisma, [
      { title: 'Beta', difficulty: 'ANOTHER', scores: { '2641753': 45 } },
    ]);
    expect(beta).toEqual({ charts: 1, added: 0, changed: 1, unchanged: 0, removed: 1 });
    const rows = await s.db.prisma.arrangementScore.findMany({ where: { chartId: ids.beta } });
    expect(rows.map((r) => [r.pattern, r.score, r.chartMax])).toEqual([['2641753', 45, 45]]);
    expect(await s.db.prisma.arrangementScore.count()).toBe(5);
    // back to the file: Beta's two patterns again (2641753 changed back, 7654321 added)
    expect(await importArrangementScores(s.db.prisma, DOC)).toEqual({
      charts: 3,
      added: 1,
      changed: 1,
      unchanged: 4,
      removed: 0,
    });
  });
});

describe('ticket recommendations', () => {
  it('ranks relative (default) and raw, with the player’s score, BPI and gap', async () => {
    const rel = (expectNoErrors(await one({ t: '2641753', exp: '2026/12/31' })) as any).user.ticketRecommendation;
    expect(rel).toMatchObject({ ticketId: '2641753', expiresAt: '2026/12/31', scoreMode: 'RELATIVE', totalBpi: -7.5 });
    expect(titles(rel.charts)).toEqual([ids.gamma, ids.alpha, ids.beta]);
    expect(rel.charts.edges.map((e: any) => e.node.relativeScore)).toEqual([100, 50, 40]);
    expect(rel.charts.edges[1].node).toEqual({
      chartId: String(ids.alpha),
      chart: { id: ids.alpha },
      pattern: '2641753',
      patternScore: 30,
      maxPatternScore: 60,
      relativeScore: 50,
      exScore: 1000,
      bpi: 0,
      clearLamp: null,
      bpiGap: -7.5,
      upvotes: 0,
      downvotes: 0,
      myVote: null,
    });
    expect(rel.charts.edges[2].node).toMatchObject({ exScore: null, bpi: null, bpiGap: null }); // Beta: unplayed
    const raw = (expectNoErrors(await one({ t: '2641753', mode: 'RAW' })) as any).user.ticketRecommendation;
    expect(titles(raw.charts)).toEqual([ids.beta, ids.alpha, ids.gamma]);
    expect(raw.charts.edges.map((e: any) => e.node.patternScore)).toEqual([40, 30, 20]);
  });

  it('pages (first / after) and breaks ties by chart id', async () => {
    const p1 = (expectNoErrors(await one({ t: '2641753', first: 2 })) as any).user.ticketRecommendation.charts;
    expect(p1.totalCount).toBe(3);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    expect(titles(p1)).toEqual([ids.gamma, ids.alpha]);
    const p2 = (expectNoErrors(await one({ t: '2641753', first: 2, after: p1.pageInfo.endCursor })) as any).user
      .ticketRecommendation.charts;
    expect(titles(p2)).toEqual([ids.beta]);
    expect(p2.pageInfo.hasNextPage).toBe(false);
    const tie = (expectNoErrors(await one({ t: '1234567' })) as any).user.ticketRecommendation.charts;
    expect(titles(tie)).toEqual([ids.alpha, ids.gamma]);
    const none = (expectNoErrors(await one({ t: '7123456' })) as any).user.ticketRecommendation.charts;
    expect(none.totalCount).toBe(0);
  });

  it('up to 50 tickets at once: the first page of each', async () => {
    const r = (
      expectNoErrors(
        await s.gql(MANY, {
          id: p.id,
          tickets: [{ ticketId: '2641753', expiresAt: 'x' }, { ticketId: '1234567' }],
          mode: 'RAW',
          first: 1,
        }),
      ) as any
    ).user.ticketRecommendations;
    expect(r.map((t: any) => [t.ticketId, t.expiresAt, t.charts.totalCount, titles(t.charts)])).toEqual([
      ['2641753', 'x', 3, [ids.beta]],
      ['1234567', '', 2, [ids.alpha]],
    ]);
  });

  it('shows the fingering-pattern votes and the caller’s own vote', async () => {
    expectNoErrors(
      await s.gql(
        `mutation($c: ID!) { voteFingeringPattern(chartId: $c, pattern: "2641753", vote: UPVOTE) { myVote } }`,
        { c: String(ids.alpha) },
        tokenP,
      ),
    );
    const mine = (expectNoErrors(await one({ t: '2641753' }, tokenP)) as any).user.ticketRecommendation.charts.edges[1]
      .node;
    expect(mine).toMatchObject({ chartId: String(ids.alpha), upvotes: 1, downvotes: 0, myVote: 'UPVOTE' });
    const anon = (expectNoErrors(await one({ t: '2641753' })) as any).user.ticketRecommendation.charts.edges[1].node;
    expect(anon).toMatchObject({ upvotes: 1, myVote: null }); // the caller's vote, not the player's
  });

  it('serves the imported score beside the votes in the fingering-pattern list (votes do not change it)', async () => {
    const LIST = `query($c: ID!) { fingeringPatterns(chartId: $c) { edges { node { pattern upvotes arrangementScore } } } }`;
    const r = (expectNoErrors(await s.gql(LIST, { c: String(ids.alpha) })) as any).fingeringPatterns.edges.map(
      (e: any) => e.node,
    );
    // every imported arrangement of Alpha, by its imported score (issue #33 item 1): 1234567 → 60
    // (no vote), then 2641753 → 30 with the one upvote of the previous test
    expect(r).toEqual([
      { pattern: '1234567', upvotes: 0, arrangementScore: 60 },
      { pattern: '2641753', upvotes: 1, arrangementScore: 30 },
    ]);
  });

  it('refuses a ticket that is not 7 distinct lane digits, more than 50 tickets, a bad page', async () => {
    for (const t of ['1234566', '123456', '12345678', '0123456', '8123456', 'abcdefg']) {
      const r = await one({ t });
      expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(r.body.errors[0].extensions.issues[0].path).toEqual(['ticketId']);
    }
    const many = await s.gql(MANY, { id: p.id, tickets: Array.from({ length: 51 }, () => ({ ticketId: '1234567' })) });
    expect(many.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(many.body.errors[0].message).toContain('max 50');
    const empty = await s.gql(MANY, { id: p.id, tickets: [] });
    expect(empty.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const badOne = await s.gql(MANY, { id: p.id, tickets: [{ ticketId: '1234567' }, { ticketId: '1111111' }] });
    expect(badOne.body.errors[0].extensions.issues[0].path).toEqual(['tickets', 1]);
    const page = await one({ t: '1234567', first: 51 });
    expect(page.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
