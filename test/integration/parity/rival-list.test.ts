/**
 * The rival comparison list (issue #33 item 7): the VERSION sort, and a search that reorders rather than filters.
 *
 * Catalogue: SP ANOTHER ☆12, notes 1000, WR 1900, kaiden 1600, released (textage folder):
 *   Apple 25, Apple Pie 30, Pineapple 20.  Viewer and rival (both public) have a best on each (1800 vs 1700).
 * VERSION DESC: Apple Pie (30), Apple (25), Pineapple (20); ASC the reverse.
 * search "apple" with VERSION DESC: exact "Apple" first, then the prefix "Apple Pie", then "Pineapple" (contains
 * "apple" but does not start with it): all three rows stay (totalCount 3).
 */
import { importDefinitions } from '../../../src/db/definitions';
import type { User } from '../../../src/generated/prisma/client';
import { aPublicPlayer, aScoreImport } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let rival: User;
let token: string;

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const db = s.db.prisma;
  const def = (title: string, v: number) => ({
    title,
    difficulty: '4',
    wr: 1900,
    avg: 1600,
    notes: 1000,
    bpm: '150',
    textage: `${v}/x.html`,
    difficultyLevel: '12',
    dpLevel: '0',
    coef: 1,
  });
  await importDefinitions(db, {
    version: 'rival-list-test',
    requireVersion: '0',
    body: [def('Apple', 25), def('Apple Pie', 30), def('Pineapple', 20)],
  });
  await s.app.catalogue.load();
  const ids = (await db.chart.findMany({ select: { id: true } })).map((c) => c.id);
  const viewer = await aPublicPlayer(db, { name: 'rl_viewer' });
  rival = await aPublicPlayer(db, { name: 'rl_rival' });
  await aScoreImport(
    db,
    viewer,
    ids.map((chartId) => ({ chartId, exScore: 1800 })),
  );
  await aScoreImport(
    db,
    rival,
    ids.map((chartId) => ({ chartId, exScore: 1700 })),
  );
  token = await s.tokenFor(viewer.id);
}, 120_000);
afterAll(() => s.close());

const Q = `query($id: ID!, $sort: RivalChartSort, $order: RivalSortOrder, $search: String, $first: Int, $after: String) {
  user(id: $id) { rivalry { charts(sort: $sort, order: $order, search: $search, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { chart { song { title } } } } } } } }`;
const list = async (vars: Record<string, unknown>) =>
  expectNoErrors<any>(await s.gql(Q, { id: rival.id, ...vars }, token)).user.rivalry.charts;
const titles = (c: any) => c.edges.map((e: any) => e.node.chart.song.title);

describe('rival comparison list (issue #33 item 7)', () => {
  it('sorts by released version, descending and ascending', async () => {
    expect(titles(await list({ sort: 'VERSION', order: 'DESC' }))).toEqual(['Apple Pie', 'Apple', 'Pineapple']);
    expect(titles(await list({ sort: 'VERSION', order: 'ASC' }))).toEqual(['Pineapple', 'Apple', 'Apple Pie']);
  });

  it('a search reorders (exact, prefix, the rest) and keeps every row, also across keyset pages', async () => {
    const all = await list({ sort: 'VERSION', order: 'DESC', search: 'APPLE' });
    expect([all.totalCount, titles(all)]).toEqual([3, ['Apple', 'Apple Pie', 'Pineapple']]);
    const p1 = await list({ sort: 'VERSION', order: 'DESC', search: 'apple', first: 1 });
    expect([titles(p1), p1.pageInfo.hasNextPage]).toEqual([['Apple'], true]);
    const p2 = await list({ sort: 'VERSION', order: 'DESC', search: 'apple', first: 1, after: p1.pageInfo.endCursor });
    const p3 = await list({ sort: 'VERSION', order: 'DESC', search: 'apple', first: 1, after: p2.pageInfo.endCursor });
    expect([titles(p2), titles(p3), p3.pageInfo.hasNextPage]).toEqual([['Apple Pie'], ['Pineapple'], false]);
  });
});
