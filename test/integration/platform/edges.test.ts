/**
 * Edges: score-shaped types offer the objects behind their ids (`chart`, `song`, `batch`,
 * `rival`…) through the request's loaders, so a page of 100 scores with their charts, songs and
 * definitions costs the same SQL statements as a page of 10.
 */
import type { User } from '../../../src/generated/prisma/client';
import { toGlobalId } from '../../../src/graphql/global-id';
import { aPrivatePlayer, aPublicPlayer, aScoreImport } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { expectSameSqlCount, sqlFor } from '../../helpers/sql-count';

let s: TestServer;
let small: User, big: User;
let chartIds: number[] = [];

const SCORES = `query($n: Int) { me { scores(first: $n) { totalCount edges { node { chartId songId exScore
  chart { id databaseId level song { id title } definition { wr kaidenAvg notes } }
  song { title }
} } } } }`;

/** A batch of bests in one insert each (the factories write row by row: 100 imports would be slow). */
async function withBests(u: User, n: number) {
  const db = s.db.prisma;
  const batch = await db.importBatch.create({ data: { userId: u.id, version: '33', source: 'ROWS', rowCount: n } });
  const playedAt = new Date('2025-01-01T00:00:00Z');
  const ids = chartIds.slice(0, n);
  await db.score.createMany({
    data: ids.map((chartId, i) => ({
      userId: u.id,
      chartId,
      version: '33',
      batchId: batch.id,
      exScore: 500 + i,
      playedAt,
    })),
  });
  const scores = await db.score.findMany({
    where: { batchId: batch.id },
    select: { id: true, chartId: true, exScore: true },
  });
  await db.bestScore.createMany({
    data: scores.map((sc) => ({
      userId: u.id,
      version: '33',
      chartId: sc.chartId,
      exScore: sc.exScore,
      exScoreId: sc.id,
      playedAt,
    })),
  });
}

beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
  // the demo catalogue's SP charts, topped up to 100 with charts of new songs (each with a definition)
  const db = s.db.prisma;
  const have = await db.chart.count({ where: { playStyle: 'SP' } });
  const release = (await db.chartDefinition.findFirstOrThrow({ where: { isCurrent: true } })).definitionsVersion;
  for (let i = have; i < 100; i++) {
    const chart = await db.chart.create({
      data: {
        song: { create: { title: `Edges song ${i}` } },
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        level: 12,
        notes: 1000,
        bpm: '150',
      },
    });
    await db.chartDefinition.create({
      data: { chartId: chart.id, definitionsVersion: release, wr: 1900, kaidenAvg: 1600, notes: 1000, isCurrent: true },
    });
  }
  await s.app.catalogue.load();
  chartIds = (
    await db.chart.findMany({ where: { playStyle: 'SP' }, orderBy: { id: 'asc' }, take: 100, select: { id: true } })
  ).map((c) => c.id);
  expect(chartIds).toHaveLength(100);
  small = await aPublicPlayer(s.db.prisma, { name: 'EdgesSmall' });
  big = await aPublicPlayer(s.db.prisma, { name: 'EdgesBig' });
  await withBests(small, 10);
  await withBests(big, 100);
});
afterAll(() => s.close());

describe('edges of score-shaped types', () => {
  it('ScoreEntry.chart / .song are the objects behind chartId / songId', async () => {
    const data = expectNoErrors<any>(await s.gql(SCORES, { n: 10 }, await s.tokenFor(small.id)));
    expect(data.me.scores.totalCount).toBe(10);
    for (const { node } of data.me.scores.edges) {
      expect(node.chart.databaseId).toBe(node.chartId);
      expect(node.chart.id).toBe(toGlobalId('Chart', node.chartId));
      expect(node.chart.song.id).toBe(toGlobalId('Song', node.songId));
      expect(node.song.title).toBe(node.chart.song.title);
    }
    const chart = await s.db.prisma.chart.findUniqueOrThrow({
      where: { id: data.me.scores.edges[0].node.chartId },
      include: { song: true },
    });
    expect(data.me.scores.edges[0].node.chart).toMatchObject({ level: chart.level, song: { title: chart.song.title } });
  });

  it('100 scores with chart { song definition } cost the same SQL statements as 10', async () => {
    const ten = await sqlFor(s, SCORES, { n: 100 }, await s.tokenFor(small.id));
    const hundred = await sqlFor(s, SCORES, { n: 100 }, await s.tokenFor(big.id));
    expect(ten.data.me.scores.edges).toHaveLength(10);
    expect(hundred.data.me.scores.edges).toHaveLength(100);
    expectSameSqlCount(ten, hundred, 'me.scores(first: 100) → chart { song definition } song');
    // the viewer's token check, me, the page of bests, its charts, their songs (definitions come from the in-memory catalogue)
    expect(hundred.count).toBeLessThanOrEqual(5);
    if (process.env.EDGES_SQL_REPORT)
      console.log(
        `edges: ${hundred.count} statements for 100 scores:\n${hundred.statements.map((q) => q.replace(/\s+/g, ' ').slice(0, 120)).join('\n')}`,
      );
  });

  it('Play.chart and Play.batch; ImportScoresPayload.batch', async () => {
    const u = await aPublicPlayer(s.db.prisma, { name: 'EdgesPlays' });
    const imp = await aScoreImport(s.db.prisma, u, [
      { chartId: chartIds[0], exScore: 1111, playedAt: new Date('2025-02-01T00:00:00Z') },
    ]);
    const Q = `query($id: ID!, $c: ID!) { user(id: $id) { chartHistory(chartId: $c) { chartId chart { databaseId } batchId batch { id uid: databaseId version } } } }`;
    const got = expectNoErrors<any>(await s.gql(Q, { id: u.id, c: chartIds[0] })).user.chartHistory;
    expect(got).toEqual([
      {
        chartId: chartIds[0],
        chart: { databaseId: chartIds[0] },
        batchId: imp.batchId,
        batch: { id: toGlobalId('Batch', imp.batchId), uid: imp.batchId, version: '33' },
      },
    ]);

    const row = {
      title: (await s.db.prisma.chart.findUniqueOrThrow({ where: { id: chartIds[1] }, include: { song: true } })).song
        .title,
    };
    const chart = await s.db.prisma.chart.findUniqueOrThrow({ where: { id: chartIds[1] } });
    const M = `mutation($u: ID!, $rows: [ScoreRowInput!]!) { importScores(userId: $u, version: "33", rows: $rows) { batchId batch { uid: databaseId songCount } } }`;
    const res = expectNoErrors<any>(
      await s.gql(
        M,
        { u: u.id, rows: [{ title: row.title, difficulty: chart.difficulty, exScore: 100, clearState: 'CLEAR' }] },
        await s.tokenFor(u.id),
      ),
    ).importScores;
    expect(res.batchId).toBeTruthy();
    expect(res.batch).toEqual({ uid: res.batchId, songCount: 1 });
  });

  it('a private player’s batch reached through their plays stays behind the User rule', async () => {
    const p = await aPrivatePlayer(s.db.prisma, { name: 'EdgesPriv' });
    await aScoreImport(s.db.prisma, p, [{ chartId: chartIds[0], exScore: 1 }]);
    const Q = `query($id: ID!, $c: ID!) { user(id: $id) { chartHistory(chartId: $c) { batch { id } } } }`;
    const res = await s.gql(Q, { id: p.id, c: chartIds[0] });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(
      expectNoErrors<any>(await s.gql(Q, { id: p.id, c: chartIds[0] }, await s.tokenFor(p.id))).user.chartHistory,
    ).toHaveLength(1);
  });
});
