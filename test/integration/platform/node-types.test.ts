import { fromGlobalId, toGlobalId } from '../../../src/graphql/global-id';
import type { User } from '../../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

/**
 * Relay identity of TimelineEntry, PlayDay, BatchDetail and OptimizeMemo (issue #13): each `id`
 * is a global id that node(id:) resolves to the same object under NODE_RULES; BatchRef.id is the
 * Batch's global id. Plus the typed period arguments of scoreDetails.
 */
let s: TestServer;
let player: User; // public, two batches on two JST days
let hidden: User; // private
let fan: User; // follows player
let chartIds: number[];
let batchIds: string[];

beforeAll(async () => {
  s = await startTestServer();
  const db = s.db.prisma;
  chartIds = (await db.chart.findMany({ orderBy: { id: 'asc' }, take: 2, select: { id: true } })).map((c) => c.id);
  player = await aPublicPlayer(db);
  hidden = await aPrivatePlayer(db);
  fan = await aPublicPlayer(db);
  await follows(db, fan, player);
  // JST days: 2025-03-01 (01:00Z = 10:00 JST) and 2025-03-02
  const a = await aScoreImport(db, player, [
    { chartId: chartIds[0], exScore: 1000, playedAt: new Date('2025-03-01T01:00:00Z') },
  ]);
  const b = await aScoreImport(db, player, [
    { chartId: chartIds[1], exScore: 900, playedAt: new Date('2025-03-02T01:00:00Z') },
  ]);
  await aScoreImport(db, hidden, [{ chartId: chartIds[0], exScore: 800, playedAt: new Date('2025-03-01T01:00:00Z') }]);
  batchIds = [a.batchId, b.batchId];
});
afterAll(() => s.close());

const q = async (query: string, variables: Record<string, unknown> = {}, user?: User) =>
  expectNoErrors(await s.gql(query, variables, user ? await s.tokenFor(user.id) : undefined)) as any;
const NODE =
  'query($id: ID!) { node(id: $id) { __typename id ... on PlayDay { date songCount } ... on BatchDetail { detailId: databaseId version } ... on TimelineEntry { playId: databaseId exScore } ... on OptimizeMemo { memoId: databaseId } ... on Batch { batchId: databaseId } } }';

describe('new Node types', () => {
  it('PlayDay: the edge id is a global id naming player, version and day; node(id:) gives the same day', async () => {
    const days = (
      await q('query($u: ID!) { user(id: $u) { playDays(version: "33") { edges { node { id date songCount } } } } }', {
        u: player.id,
      })
    ).user.playDays.edges.map((e: any) => e.node);
    // newest first: 03-02 then 03-01, one play each
    expect(days.map((d: any) => [d.date, d.songCount])).toEqual([
      ['2025-03-02', 1],
      ['2025-03-01', 1],
    ]);
    expect(fromGlobalId(days[0].id)).toEqual({ type: 'PlayDay', key: `${player.id}:33:2025-03-02` });
    expect((await q(NODE, { id: days[1].id })).node).toEqual({
      __typename: 'PlayDay',
      id: days[1].id,
      date: '2025-03-01',
      songCount: 1,
    });
  });

  it('BatchDetail: global id and databaseId; BatchRef.id is the Batch global id (node gives the Batch)', async () => {
    const detail = (
      await q(
        'query($u: ID!, $b: ID!) { user(id: $u) { batch(id: $b) { id databaseId prevBatch { id databaseId } } } }',
        { u: player.id, b: batchIds[1] },
      )
    ).user.batch;
    expect(detail).toEqual({
      id: toGlobalId('BatchDetail', batchIds[1]),
      databaseId: batchIds[1],
      prevBatch: { id: toGlobalId('Batch', batchIds[0]), databaseId: batchIds[0] },
    });
    expect((await q(NODE, { id: detail.id })).node).toEqual({
      __typename: 'BatchDetail',
      id: detail.id,
      detailId: batchIds[1],
      version: '33',
    });
    expect((await q(NODE, { id: detail.prevBatch.id })).node).toEqual({
      __typename: 'Batch',
      id: detail.prevBatch.id,
      batchId: batchIds[0],
    });
    // the ref's id is accepted back by User.batch(id:)
    expect(
      (
        await q('query($u: ID!, $b: ID!) { user(id: $u) { batch(id: $b) { databaseId } } }', {
          u: player.id,
          b: detail.prevBatch.id,
        })
      ).user.batch,
    ).toEqual({ databaseId: batchIds[0] });
  });

  it("TimelineEntry: the feed entry id resolves through node(id:) for the follower; a private player's play is null for a stranger", async () => {
    const edges = (await q('{ timeline { edges { node { id databaseId exScore } } } }', {}, fan)).timeline.edges;
    // the fan's feed: the player's two plays, newest first (900 then 1000)
    expect(edges.map((e: any) => e.node.exScore)).toEqual([900, 1000]);
    const entry = edges[0].node;
    expect(fromGlobalId(entry.id)).toEqual({ type: 'TimelineEntry', key: String(entry.databaseId) });
    expect((await q(NODE, { id: entry.id }, fan)).node).toEqual({
      __typename: 'TimelineEntry',
      id: entry.id,
      playId: entry.databaseId,
      exScore: 900,
    });
    const hiddenPlay = await s.db.prisma.score.findFirstOrThrow({ where: { userId: hidden.id } });
    expect((await q(NODE, { id: toGlobalId('TimelineEntry', hiddenPlay.id) }, fan)).node).toBeNull();
    expect((await q(NODE, { id: toGlobalId('TimelineEntry', hiddenPlay.id) }, hidden)).node).toMatchObject({
      __typename: 'TimelineEntry',
      exScore: 800,
    });
  });

  it('OptimizeMemo: global id and databaseId; node(id:) as User.optimizeMemos (private owner: null for others)', async () => {
    const memo = await s.db.prisma.optimizeMemo.create({ data: { userId: hidden.id, version: '33', report: {} } });
    const id = toGlobalId('OptimizeMemo', memo.id);
    expect((await q(NODE, { id }, hidden)).node).toEqual({ __typename: 'OptimizeMemo', id, memoId: memo.id });
    expect((await q(NODE, { id }, fan)).node).toBeNull();
    expect((await q(NODE, { id })).node).toBeNull();
  });
});

describe('typed arguments and renamed fields', () => {
  it('scoreDetails(period:, basis:) as the deprecated unit / groupedBy strings', async () => {
    const SD = `query($u: ID!) { user(id: $u) {
      typed: scoreDetails(version: "33", date: "2025-03-02", period: WEEK, basis: PLAYED_AT) { period basis unit groupedBy scores { chartId } }
      strings: scoreDetails(version: "33", date: "2025-03-02", unit: "week", groupedBy: "playedAt") { period basis scores { chartId } } } }`;
    const { typed, strings } = (await q(SD, { u: player.id })).user;
    // the ISO week Mon 2025-02-24 … Sun 2025-03-02 holds both plays (03-01 and 03-02 JST)
    expect(typed).toEqual({
      period: 'WEEK',
      basis: 'PLAYED_AT',
      unit: 'week',
      groupedBy: 'playedAt',
      scores: expect.any(Array),
    });
    expect(typed.scores.map((e: any) => e.chartId).sort()).toEqual([...chartIds].sort());
    expect(strings).toEqual({ period: 'WEEK', basis: 'PLAYED_AT', scores: typed.scores });
  });

  it('Batch.source is the ImportSource enum with the stored value', async () => {
    const edges = (
      await q('query($u: ID!) { user(id: $u) { batches(version: "33") { edges { node { source } } } } }', {
        u: player.id,
      })
    ).user.batches.edges;
    expect(edges.map((e: any) => e.node.source)).toEqual(['ROWS', 'ROWS']);
  });
});
