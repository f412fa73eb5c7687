import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { aPrivatePlayer, aPublicPlayer, aSongBestScore, anAdmin, follows } from '../../helpers/factories';
import type { Chart, User } from '../../../src/generated/prisma/client';
import { safeBpi } from '../../../src/domain/bpi';
import { runCliInProcess } from '../../helpers/cli';

let s: TestServer;
let chart12: Chart;
let chart11: Chart;
let pub1: User; // 1900
let pub2: User; // 1800 (tie with priv1)
let priv1: User; // 1800
let priv2: User; // 1700
let follower: User; // approved follower of priv2, 1600
let stranger: User; // no score

const RANKING = `query($c: ID!, $v: GameVersion, $first: Int, $after: String) { songRanking(chartId: $c, version: $v, first: $first, after: $after) {
  totalCount version selfRank pageInfo { hasNextPage endCursor }
  edges { node { rank exScore bpi isSelf anonymous player { id: databaseId name } } } } }`;
const USER_RANKING = `query($u: ID!, $c: ID!) { userSongRanking(userId: $u, chartId: $c) { selfRank edges { node { rank isSelf anonymous player { id: databaseId } } } } }`;

beforeAll(async () => {
  s = await startTestServer();
  const db = s.db.prisma;
  chart12 = await db.chart.findFirstOrThrow({ where: { level: 12 }, orderBy: { id: 'asc' } });
  chart11 = await db.chart.findFirstOrThrow({ where: { level: 11 }, orderBy: { id: 'asc' } });
  pub1 = await aPublicPlayer(db);
  pub2 = await aPublicPlayer(db);
  priv1 = await aPrivatePlayer(db);
  priv2 = await aPrivatePlayer(db);
  follower = await aPublicPlayer(db);
  stranger = await aPublicPlayer(db);
  await follows(db, follower, priv2, { approved: true });
  await follows(db, stranger, priv1, { approved: false }); // a bare follow is no grant
  await aSongBestScore(db, pub1, chart12.id, 1900);
  await aSongBestScore(db, pub2, chart12.id, 1800);
  await aSongBestScore(db, priv1, chart12.id, 1800);
  await aSongBestScore(db, priv2, chart12.id, 1700);
  await aSongBestScore(db, follower, chart12.id, 1600);
  await aSongBestScore(db, pub1, chart12.id, 1000, { version: '32' });
});
afterAll(() => s.close());

/** A best's BPI: its EX score under the chart's current definition (the domain formula). */
const bpiOf = (chart: Chart, ex: number) => {
  const def = s.app.catalogue.chart(chart.id)?.definition;
  return def ? safeBpi(ex, def) : null;
};

describe('per-song ranking', () => {
  it('orders by EX desc with shared ranks for ties and anonymises players the caller may not see', async () => {
    const d = expectNoErrors(await s.gql(RANKING, { c: String(chart12.id) }, await s.tokenFor(stranger.id))) as any;
    const r = d.songRanking;
    expect(r).toMatchObject({ totalCount: 5, version: '33', selfRank: null });
    expect(r.edges.map((e: any) => [e.node.rank, e.node.exScore])).toEqual([
      [1, 1900],
      [2, 1800],
      [2, 1800],
      [4, 1700],
      [5, 1600],
    ]);
    const byScore = r.edges.map((e: any) => e.node);
    expect(byScore[0]).toMatchObject({ anonymous: false, player: { id: pub1.id, name: pub1.name }, isSelf: false });
    expect(bpiOf(chart12, 1900)).toEqual(expect.any(Number));
    expect(byScore.map((n: any) => n.bpi)).toEqual(byScore.map((n: any) => bpiOf(chart12, n.exScore)));
    const privRows = byScore.filter((n: any) => n.anonymous);
    expect(privRows).toHaveLength(2);
    expect(privRows.every((n: any) => n.player === null)).toBe(true);
    const body = JSON.stringify(d);
    for (const u of [priv1, priv2]) {
      expect(body).not.toContain(u.id);
      expect(body).not.toContain(u.name);
    }
  });

  it('shows a private player to themself, to an approved follower and to an admin; not to the anonymous caller', async () => {
    const anon = expectNoErrors(await s.gql(RANKING, { c: String(chart12.id) })) as any;
    expect(anon.songRanking.edges.filter((e: any) => e.node.anonymous)).toHaveLength(2);
    const self = expectNoErrors(await s.gql(RANKING, { c: String(chart12.id) }, await s.tokenFor(priv1.id))) as any;
    const own = self.songRanking.edges.find((e: any) => e.node.isSelf).node;
    expect(own).toMatchObject({ anonymous: false, player: { id: priv1.id }, rank: 2 });
    expect(self.songRanking.selfRank).toBe(2);
    // priv2 stays hidden from priv1
    expect(self.songRanking.edges.find((e: any) => e.node.exScore === 1700).node.anonymous).toBe(true);
    const fol = expectNoErrors(await s.gql(RANKING, { c: String(chart12.id) }, await s.tokenFor(follower.id))) as any;
    expect(fol.songRanking.edges.find((e: any) => e.node.exScore === 1700).node.player).toEqual({
      id: priv2.id,
      name: priv2.name,
    });
    expect(fol.songRanking.edges.find((e: any) => e.node.player === null)?.node.exScore).toBe(1800);
    expect(fol.songRanking.selfRank).toBe(5);
    const admin = await anAdmin(s.db.prisma);
    const adm = expectNoErrors(await s.gql(RANKING, { c: String(chart12.id) }, await s.tokenFor(admin.id))) as any;
    expect(adm.songRanking.edges.every((e: any) => !e.node.anonymous)).toBe(true);
  });

  it('pages with stable order and ranks that continue across pages', async () => {
    const p1 = expectNoErrors(await s.gql(RANKING, { c: String(chart12.id), first: 2 })) as any;
    expect(p1.songRanking.edges.map((e: any) => e.node.rank)).toEqual([1, 2]);
    expect(p1.songRanking.pageInfo.hasNextPage).toBe(true);
    const p2 = expectNoErrors(
      await s.gql(RANKING, { c: String(chart12.id), first: 2, after: p1.songRanking.pageInfo.endCursor }),
    ) as any;
    expect(p2.songRanking.edges.map((e: any) => e.node.rank)).toEqual([2, 4]);
    const p3 = expectNoErrors(
      await s.gql(RANKING, { c: String(chart12.id), first: 2, after: p2.songRanking.pageInfo.endCursor }),
    ) as any;
    expect(p3.songRanking.edges.map((e: any) => e.node.rank)).toEqual([5]);
    expect(p3.songRanking.pageInfo.hasNextPage).toBe(false);
  });

  it('reads the requested version; refuses unknown versions and charts below level 11', async () => {
    const v32 = expectNoErrors(await s.gql(RANKING, { c: String(chart12.id), v: '32' })) as any;
    expect(v32.songRanking).toMatchObject({ version: '32', totalCount: 1 });
    expect(v32.songRanking.edges[0].node).toMatchObject({ rank: 1, exScore: 1000 });
    const bad = await s.gql(RANKING, { c: String(chart12.id), v: '99' });
    expect(bad.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const empty11 = expectNoErrors(await s.gql(RANKING, { c: String(chart11.id) })) as any;
    expect(empty11.songRanking).toMatchObject({ totalCount: 0, edges: [] });
    // Charts below level 11 are ranked too (docs/domain/stats.md#rankings): 700 > 650 → ranks 1, 2.
    const low = await s.db.prisma.chart.create({
      data: { songId: chart12.songId, playStyle: 'SP', difficulty: 'NORMAL', level: 7, notes: 700 },
    });
    const [p1, p2] = [await aPublicPlayer(s.db.prisma), await aPublicPlayer(s.db.prisma)];
    await aSongBestScore(s.db.prisma, p1, low.id, 650);
    await aSongBestScore(s.db.prisma, p2, low.id, 700);
    const lowRanking = expectNoErrors(await s.gql(RANKING, { c: String(low.id) })) as any;
    expect(lowRanking.songRanking.edges.map((e: any) => [e.node.rank, e.node.exScore])).toEqual([
      [1, 700],
      [2, 650],
    ]);
    const missing = await s.gql(RANKING, { c: '99999999' });
    expect(missing.body.errors![0].extensions.code).toBe('NOT_FOUND');
  });

  it('checks visibility with a constant number of statements, whatever the page size', async () => {
    const extra = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? aPrivatePlayer(s.db.prisma) : aPublicPlayer(s.db.prisma))),
    );
    for (const [i, u] of extra.entries()) await aSongBestScore(s.db.prisma, u, chart11.id, 1000 + i);
    const token = await s.tokenFor(follower.id);
    s.sql.reset();
    expectNoErrors(await s.gql(RANKING, { c: String(chart11.id), first: 2 }, token));
    const small = s.sql.count;
    s.sql.reset();
    expectNoErrors(await s.gql(RANKING, { c: String(chart11.id), first: 8 }, token));
    expect(s.sql.count).toBe(small);
  });

  it('profile variant: VISIBLE rule on userId; isSelf / selfRank refer to that user', async () => {
    const strangerToken = await s.tokenFor(stranger.id);
    const denied = await s.gql(USER_RANKING, { u: priv2.id, c: String(chart12.id) }, strangerToken);
    expect(denied.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const anonDenied = await s.gql(USER_RANKING, { u: priv2.id, c: String(chart12.id) });
    expect(anonDenied.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const ok = expectNoErrors(
      await s.gql(USER_RANKING, { u: priv2.id, c: String(chart12.id) }, await s.tokenFor(follower.id)),
    ) as any;
    expect(ok.userSongRanking.selfRank).toBe(4);
    const selfRow = ok.userSongRanking.edges.find((e: any) => e.node.isSelf).node;
    expect(selfRow).toMatchObject({ rank: 4, anonymous: false, player: { id: priv2.id } });
    const pub = expectNoErrors(await s.gql(USER_RANKING, { u: pub2.id, c: String(chart12.id) })) as any;
    expect(pub.userSongRanking.selfRank).toBe(2);
    expect(pub.userSongRanking.edges.filter((e: any) => e.node.isSelf)).toHaveLength(1);
  });
});

describe('similar songs and chart attributes', () => {
  const IMPORT = `mutation($e: [ChartAttributesInput!]!) { importChartAttributes(entries: $e) { updated unchanged problems { index title reason } } }`;
  const SIMILAR = `query($c: ID!, $l: Int, $v: GameVersion) { similarSongs(chartId: $c, limit: $l, version: $v) { distance score { exScore } chart { id: databaseId attributes { name value } } } }`;
  let charts: (Chart & { song: { title: string } })[];
  let adminToken: string;

  beforeAll(async () => {
    charts = await s.db.prisma.chart.findMany({
      where: { playStyle: 'SP' },
      include: { song: { select: { title: true } } },
      orderBy: { id: 'asc' },
      take: 6,
    });
    adminToken = await s.tokenFor((await anAdmin(s.db.prisma)).id);
  });

  const entry = (c: Chart & { song: { title: string } }, attrs: Record<string, number>) => ({
    title: c.song.title,
    difficulty: c.difficulty,
    playStyle: c.playStyle,
    attributes: Object.entries(attrs).map(([name, value]) => ({ name, value })),
  });

  it('imports attribute vectors (admins only), reports problems, and is idempotent', async () => {
    const entries = [
      entry(charts[0], { scratch: 0, peak: 0 }),
      entry(charts[1], { scratch: 3, peak: 4 }), // distance 5
      entry(charts[2], { scratch: 1, peak: 1 }), // distance √2
      entry(charts[3], { scratch: 10, peak: 0, soflan: 99 }), // shared keys only: 10
      entry(charts[4], { soflan: 1 }), // no shared key: not comparable
      { title: 'No Such Song', difficulty: 'ANOTHER', playStyle: 'SP', attributes: [{ name: 'x', value: 1 }] },
    ];
    const denied = await s.gql(IMPORT, { e: entries }, await s.tokenFor(pub1.id));
    expect(denied.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const first = expectNoErrors(await s.gql(IMPORT, { e: entries }, adminToken)) as any;
    expect(first.importChartAttributes).toEqual({
      updated: 5,
      unchanged: 0,
      problems: [{ index: 5, title: 'No Such Song', reason: 'no such chart' }],
    });
    const again = expectNoErrors(await s.gql(IMPORT, { e: entries }, adminToken)) as any;
    expect(again.importChartAttributes).toMatchObject({ updated: 0, unchanged: 5 });
    const stored = await s.db.prisma.chart.findUniqueOrThrow({ where: { id: charts[1].id } });
    expect(stored.attributes).toEqual({ peak: 4, scratch: 3 });
  });

  it('ranks by Euclidean distance over shared keys, excludes the chart itself and incomparable charts', async () => {
    const d = expectNoErrors(await s.gql(SIMILAR, { c: String(charts[0].id) })) as any;
    expect(d.similarSongs.map((x: any) => Number(x.chart.id))).toEqual([charts[2].id, charts[1].id, charts[3].id]);
    expect(d.similarSongs.map((x: any) => x.distance)).toEqual([Math.SQRT2, 5, 10]);
    expect(d.similarSongs[0].score).toBeNull();
    expect(d.similarSongs[0].chart.attributes).toEqual([
      { name: 'peak', value: 1 },
      { name: 'scratch', value: 1 },
    ]);
    const one = expectNoErrors(await s.gql(SIMILAR, { c: String(charts[0].id), l: 1 })) as any;
    expect(one.similarSongs).toHaveLength(1);
    const none = expectNoErrors(await s.gql(SIMILAR, { c: String(charts[5].id) })) as any;
    expect(none.similarSongs).toEqual([]);
    for (const l of [0, 51, -3]) {
      const bad = await s.gql(SIMILAR, { c: String(charts[0].id), l });
      expect(bad.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });

  it('leaves out charts that do not exist in the version', async () => {
    await s.db.prisma.chart.update({ where: { id: charts[2].id }, data: { removedInVersion: '30' } });
    const v33 = expectNoErrors(await s.gql(SIMILAR, { c: String(charts[0].id), v: '33' })) as any;
    expect(v33.similarSongs.map((x: any) => Number(x.chart.id))).not.toContain(charts[2].id);
    const v29 = expectNoErrors(await s.gql(SIMILAR, { c: String(charts[0].id), v: '29' })) as any;
    expect(v29.similarSongs.map((x: any) => Number(x.chart.id))).toContain(charts[2].id);
    await s.db.prisma.chart.update({ where: { id: charts[2].id }, data: { removedInVersion: null } });
  });

  it('profile variant attaches the user’s own best score; VISIBLE rule', async () => {
    const owner = await aPrivatePlayer(s.db.prisma);
    await aSongBestScore(s.db.prisma, owner, charts[1].id, 1234);
    const Q = `query($u: ID!, $c: ID!) { userSimilarSongs(userId: $u, chartId: $c) { chart { id: databaseId } score { exScore version } } }`;
    const denied = await s.gql(Q, { u: owner.id, c: String(charts[0].id) }, await s.tokenFor(stranger.id));
    expect(denied.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const d = expectNoErrors(
      await s.gql(Q, { u: owner.id, c: String(charts[0].id) }, await s.tokenFor(owner.id)),
    ) as any;
    const row = d.userSimilarSongs.find((x: any) => Number(x.chart.id) === charts[1].id);
    expect(row.score).toEqual({ exScore: 1234, version: '33' });
    expect(d.userSimilarSongs.filter((x: any) => x.score)).toHaveLength(1);
  });
});

describe('popular charts and the profile song list', () => {
  it('counts players per chart in the version, MOST and FEWEST, with level filter and pages', async () => {
    const Q = `query($o: ChartPopularityOrder, $l: Int, $first: Int, $after: String, $v: GameVersion) { popularCharts(order: $o, level: $l, first: $first, after: $after, version: $v) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { playerCount chart { id: databaseId level } } } } }`;
    const counts = await s.db.prisma.bestScore.groupBy({
      by: ['chartId'],
      where: { version: '33' },
      _count: { _all: true },
    });
    const most = expectNoErrors(await s.gql(Q, { o: 'MOST' })) as any;
    expect(most.popularCharts.totalCount).toBe(counts.length);
    const got = most.popularCharts.edges.map((e: any) => [Number(e.node.chart.id), e.node.playerCount]);
    const want = counts.map((c) => [c.chartId, c._count._all]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    expect(got).toEqual(want);
    const fewest = expectNoErrors(await s.gql(Q, { o: 'FEWEST' })) as any;
    const fewCounts = fewest.popularCharts.edges.map((e: any) => e.node.playerCount);
    expect([...fewCounts].sort((a: number, b: number) => a - b)).toEqual(fewCounts);
    const lvl12 = expectNoErrors(await s.gql(Q, { l: 12 })) as any;
    expect(lvl12.popularCharts.edges.every((e: any) => e.node.chart.level === 12)).toBe(true);
    const p1 = expectNoErrors(await s.gql(Q, { first: 1 })) as any;
    const p2 = expectNoErrors(await s.gql(Q, { first: 1, after: p1.popularCharts.pageInfo.endCursor })) as any;
    expect([...p1.popularCharts.edges, ...p2.popularCharts.edges].map((e: any) => Number(e.node.chart.id))).toEqual(
      got.slice(0, 2).map((x: number[]) => x[0]),
    );
    const v32 = expectNoErrors(await s.gql(Q, { v: '32' })) as any;
    expect(v32.popularCharts.edges.map((e: any) => [Number(e.node.chart.id), e.node.playerCount])).toEqual([
      [chart12.id, 1],
    ]);
  });

  it('userSongs: BPI charts of the version with the user’s best scores; VISIBLE rule', async () => {
    const Q = `query($u: ID!, $first: Int, $after: String, $v: GameVersion) { userSongs(userId: $u, first: $first, after: $after, version: $v) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { chart { id: databaseId level difficulty song { title } } score { exScore bpi } } } } }`;
    const denied = await s.gql(Q, { u: priv1.id }, await s.tokenFor(stranger.id));
    expect(denied.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const all: any[] = [];
    let after: string | null = null;
    for (;;) {
      const p = expectNoErrors(await s.gql(Q, { u: pub1.id, first: 100, after })) as any;
      all.push(...p.userSongs.edges.map((e: any) => e.node));
      if (!p.userSongs.pageInfo.hasNextPage) {
        expect(all).toHaveLength(p.userSongs.totalCount);
        break;
      }
      after = p.userSongs.pageInfo.endCursor;
    }
    expect(
      all.every((n) => n.chart.level >= 11 && ['HYPER', 'ANOTHER', 'LEGGENDARIA'].includes(n.chart.difficulty)),
    ).toBe(true);
    const titles = all.map((n) => n.chart.song.title);
    expect([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(titles);
    expect(all.filter((n) => n.score)).toEqual([
      expect.objectContaining({
        chart: expect.objectContaining({ id: chart12.id }),
        score: { exScore: 1900, bpi: bpiOf(chart12, 1900) },
      }),
    ]);
    const v32 = expectNoErrors(await s.gql(Q, { u: pub1.id, first: 100, v: '32' })) as any;
    expect(v32.userSongs.edges.find((e: any) => e.node.score)?.node.score.exScore).toBe(1000);
  });
});

describe('charts import-attributes (CLI)', () => {
  // usage errors only: no command below reaches a database
  const env = { ...process.env, DATABASE_URL: '', DATA_DIR: path.join(os.tmpdir(), 'bpigraph-cli-usage') };
  const cli = ['charts', 'import-attributes'];

  it('prints its usage without a file, names a missing file and refuses a non-array document', async () => {
    const noArg = await runCliInProcess(cli, env);
    expect(noArg.code).toBe(2);
    expect(noArg.stderr).toContain('usage: npm run cli -- charts import-attributes <file|url>');
    const missing = await runCliInProcess([...cli, '/nonexistent/attributes.json'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No such file: /nonexistent/attributes.json');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'attrs-')), 'attributes.json');
    fs.writeFileSync(file, JSON.stringify({ title: 'not an array' }));
    const notArray = await runCliInProcess([...cli, file], env);
    expect(notArray.code).toBe(2);
    expect(notArray.stderr).toContain('expected a JSON array');
  });
});
