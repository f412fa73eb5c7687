/**
 * Stats: the player dashboard (User.dashboard) and the cross-player stats (tower register and
 * ranking, radar-category ranking, site summary), on a five-chart catalogue whose numbers are
 * worked out by hand below, through the real server (GraphQL over HTTP), PGlite and PostgreSQL.
 *
 * Catalogue (SP, released in 20, so available in 33; coef 1 so c = 1):
 *   C1 Alpha   ANOTHER ☆12  notes 1000  WR 1900 kaiden 1600  bpm 150      NOTES
 *   C2 Beta    ANOTHER ☆12  notes 1000  WR 1900 kaiden 1600  bpm 200      PEAK
 *   C3 Gamma   HYPER   ☆11  notes  900  WR 1700 kaiden 1500  bpm 100-200  NOTES
 *   C4 Delta   LEGG.   ☆12  notes 1000  WR 1900 kaiden 1600  bpm 150      CHORD   (never played)
 *   C5 Epsilon ANOTHER ☆12  notes 1000  WR 1900 kaiden 1600  bpm 130      SCRATCH (never played)
 * BPI at EX = kaiden is 0, at EX = WR is 100 (s' = z').
 *
 * Player P (public, game id 11112222), version 33, plays (JST):
 *   2026-01-05 10:00  C1 1600 (stored BPI 0), C3 1500 (0)
 *   2026-01-05 20:00  C1 1900 (100)
 *   2026-01-07 12:00  C2 1600 (0)
 *   2026-02-03 12:00  C2 1900 (100)
 * → bests C1 1900 (BPI 100), C2 1900 (100), C3 1500 (0).
 * The total set (SP ☆12 with a definition, available in 33) is C1, C2, C4, C5: N = 4, so the
 * exponent k = log2 4 = 2 and total = sign(s)·√|s| with s = Σ sign(b)·b² / 4.
 */
import { importDefinitions } from '../../../src/db/definitions';
import type { User } from '../../../src/generated/prisma/client';
import { refreshRadarCache } from '../../../src/modules/stats/radar-cache';
import { aPrivatePlayer, aPublicPlayer, aScoreImport, aVersionStatus, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { expectSameSqlCount, sqlFor } from '../../helpers/sql-count';

let s: TestServer;
let p: User;
let q: User; // private: tower and radar rows masked for strangers
let pToken: string;
let qToken: string;
const ids: Record<string, number> = {};

const jst = (d: string, hm: string) => new Date(`${d}T${hm}:00+09:00`);
const def = (
  title: string,
  difficulty: string,
  level: number,
  notes: number,
  wr: number,
  avg: number,
  bpm: string,
) => ({
  title,
  difficulty,
  wr,
  avg,
  notes,
  bpm,
  textage: `20/${title}.html`,
  difficultyLevel: String(level),
  dpLevel: '0',
  coef: 1,
});

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const db = s.db.prisma;
  await importDefinitions(db, {
    version: 'stats-test',
    requireVersion: '0',
    body: [
      def('Alpha', '4', 12, 1000, 1900, 1600, '150'),
      def('Beta', '4', 12, 1000, 1900, 1600, '200'),
      def('Gamma', '3', 11, 900, 1700, 1500, '100-200'),
      def('Delta', '10', 12, 1000, 1900, 1600, '150'),
      def('Epsilon', '4', 12, 1000, 1900, 1600, '130'),
    ],
  });
  const cats: Record<string, 'NOTES' | 'PEAK' | 'CHORD' | 'SCRATCH'> = {
    Alpha: 'NOTES',
    Beta: 'PEAK',
    Gamma: 'NOTES',
    Delta: 'CHORD',
    Epsilon: 'SCRATCH',
  };
  for (const c of await db.chart.findMany({ include: { song: true } })) {
    ids[c.song.title] = c.id;
    await db.chart.update({ where: { id: c.id }, data: { radarCategory: cats[c.song.title] } });
  }
  await s.app.catalogue.load();

  p = await aPublicPlayer(db, { name: 'dash_p', gameId: '11112222' });
  q = await aPrivatePlayer(db, { name: 'dash_q' });
  await aScoreImport(db, p, [
    { chartId: ids.Alpha, exScore: 1600, bpi: 0, playedAt: jst('2026-01-05', '10:00') },
    { chartId: ids.Gamma, exScore: 1500, bpi: 0, playedAt: jst('2026-01-05', '10:00') },
  ]);
  await aScoreImport(db, p, [{ chartId: ids.Alpha, exScore: 1900, bpi: 100, playedAt: jst('2026-01-05', '20:00') }]);
  await aScoreImport(db, p, [{ chartId: ids.Beta, exScore: 1600, bpi: 0, playedAt: jst('2026-01-07', '12:00') }]);
  await aScoreImport(db, p, [{ chartId: ids.Beta, exScore: 1900, bpi: 100, playedAt: jst('2026-02-03', '12:00') }]);
  await aVersionStatus(db, p, '33', { totalBpi: 69.91 });
  pToken = await s.tokenFor(p.id);
  qToken = await s.tokenFor(q.id);
}, 120_000);

afterAll(async () => s?.close());

const dash = async (sel: string, vars: Record<string, unknown> = {}, token?: string, who: User = p) => {
  const res = await s.gql<{ user: { dashboard: any } }>(
    `query($id: ID!, $v: GameVersion, $l: [Int!], $d: [Difficulty!]) { user(id: $id) { dashboard(version: $v, levels: $l, difficulties: $d) { ${sel} } } }`,
    { id: who.id, v: '33', ...vars },
    token,
  );
  return res;
};
const part = async (sel: string, vars: Record<string, unknown> = {}, token?: string) =>
  expectNoErrors(await dash(sel, vars, token)).user.dashboard;

describe('User.dashboard parts (hand-worked numbers)', () => {
  it('bpiDistribution: BPIs 100, 100, 0 → "100+" 2, "0" 1', async () => {
    const d = await part('bpiDistribution(step: 10) { total step buckets { label count } }');
    expect(d.bpiDistribution.total).toBe(3);
    expect(d.bpiDistribution.buckets).toHaveLength(13); // <-10, -10, 0, 10, …, 90, 100+
    const nonzero = d.bpiDistribution.buckets.filter((b: any) => b.count > 0);
    expect(nonzero).toEqual([
      { label: '0', count: 1 },
      { label: '100+', count: 2 },
    ]);
  });

  it('djRankDistribution: 1900/2000 is MAX- (1900·18 = 34200 ≥ 2000·17 = 34000), 1500/1800 is AA (1500·9 = 13500 ≥ 1800·7 = 12600, < 1800·8 = 14400)', async () => {
    const d = await part('djRankDistribution { total buckets { label count } }');
    expect(d.djRankDistribution.total).toBe(3);
    expect(Object.fromEntries(d.djRankDistribution.buckets.map((b: any) => [b.label, b.count]))).toEqual({
      F: 0,
      E: 0,
      D: 0,
      C: 0,
      B: 0,
      A: 0,
      AA: 1,
      AAA: 0,
      'MAX-': 2,
    });
  });

  it('scoreRateDistribution: 1900/2000 = 95 % → "90" ×2; 1500/1800 = 83.3 % → "80"', async () => {
    const d = await part('scoreRateDistribution(step: 10) { total buckets { label count } }');
    expect(d.scoreRateDistribution.buckets.filter((b: any) => b.count > 0)).toEqual([
      { label: '80', count: 1 },
      { label: '90', count: 2 },
    ]);
  });

  it('aaaTable: borders, their BPIs and the player\u2019s distance', async () => {
    const d = await part(
      'aaaTable { summary { charts aaa maxMinus custom } rows { title chartId chart { id: databaseId } maxScore exScore bpi aaa { exScore bpi diff reached } maxMinus { exScore bpi diff reached } } }',
    );
    const t = d.aaaTable;
    // every chart in scope available in 33: level desc, then title
    expect(t.rows.map((r: any) => r.title)).toEqual(['Alpha', 'Beta', 'Delta', 'Epsilon', 'Gamma']);
    const alpha = t.rows[0];
    // m = 2000: AAA = ceil(2000·8/9) = ceil(1777.8) = 1778; MAX- = ceil(2000·17/18) = ceil(1888.9) = 1889.
    // BPI(1778): g(x) = 0.5/(1 − x/m): g(1778) = 0.5/0.111 = 4.5045, g(K=1600) = 2.5, g(Z=1900) = 10;
    //   100·ln(4.5045/2.5)/ln(10/2.5) = 100·0.58879/1.38629 = 42.47.
    // BPI(1889): g = 0.5/0.0555 = 9.009; 100·ln(3.6036)/ln 4 = 100·1.28193/1.38629 = 92.47.
    expect(alpha).toMatchObject({
      chartId: ids.Alpha,
      chart: { id: ids.Alpha },
      maxScore: 2000,
      exScore: 1900,
      bpi: 100,
    });
    expect(alpha.aaa).toEqual({ exScore: 1778, bpi: 42.47, diff: 1900 - 1778, reached: true });
    expect(alpha.maxMinus).toEqual({ exScore: 1889, bpi: 92.47, diff: 1900 - 1889, reached: true });
    // Gamma m = 1800: AAA = ceil(1600) = 1600; g(1600) = 4.5, g(1500) = 3, g(1700) = 9 → 100·ln 1.5/ln 3 = 100·0.40547/1.09861 = 36.91
    const gamma = t.rows[4];
    expect(gamma.aaa).toEqual({ exScore: 1600, bpi: 36.91, diff: 1500 - 1600, reached: false });
    expect(gamma.maxMinus).toEqual({ exScore: 1700, bpi: 100, diff: -200, reached: false });
    expect(t.rows[2]).toMatchObject({ title: 'Delta', exScore: null, bpi: null, aaa: { diff: -1778, reached: false } });
    expect(t.summary).toEqual({ charts: 5, aaa: 2, maxMinus: 2, custom: null });
  });

  it('aaaTable custom goal: ratio 0.9 of 2000 = 1800, offset −50 → 1750; Alpha reaches it, Gamma (1800·0.9 − 50 = 1570) does not', async () => {
    const d = await part(
      'aaaTable(customGoalRatio: 0.9, customGoalOffset: -50) { summary { custom } rows { title custom { exScore reached } } }',
    );
    const byTitle = Object.fromEntries(d.aaaTable.rows.map((r: any) => [r.title, r.custom]));
    expect(byTitle.Alpha).toEqual({ exScore: 1750, reached: true });
    expect(byTitle.Gamma).toEqual({ exScore: 1570, reached: false });
    expect(d.aaaTable.summary.custom).toBe(2); // Alpha, Beta
  });

  it('bpmBands: 200~ {Beta 100} = 100; 140~160 {Alpha 100, Delta −15}: N = 2, k = 1 → (100 − 15)/2 = 42.5; 120~140 {Epsilon −15}; Soflan {Gamma 0}', async () => {
    const d = await part('bpmBands { label totalBpi chartCount playedCount songs { title bpi exScore } }');
    expect(d.bpmBands.map((b: any) => [b.label, b.totalBpi, b.chartCount, b.playedCount])).toEqual([
      ['200~', 100, 1, 1],
      ['140~160', 42.5, 2, 1],
      ['120~140', -15, 1, 0],
      ['Soflan', 0, 1, 1],
    ]);
    expect(d.bpmBands[1].songs).toEqual([
      { title: 'Alpha', bpi: 100, exScore: 1900 },
      { title: 'Delta', bpi: -15, exScore: null },
    ]);
  });

  it('totalBpi now: (100² + 100² − 15² − 15²)/4 = 19550/4 = 4887.5, √ = 69.91; rank ceil(2699^0.3009) = ceil(10.78) = 11', async () => {
    const d = await part('totalBpi { asOf totalBpi estimatedRank playedCount chartCount }');
    expect(d.totalBpi).toEqual({ asOf: null, totalBpi: 69.91, estimatedRank: 11, playedCount: 2, chartCount: 4 });
  });

  it('totalBpi as of 2026-01-06 (JST): only C1 (stored 100): (10000 − 3·225)/4 = 2331.25, √ = 48.28', async () => {
    const d = await part('totalBpi(asOf: "2026-01-06") { asOf totalBpi playedCount chartCount }');
    expect(d.totalBpi).toEqual({ asOf: '2026-01-06', totalBpi: 48.28, playedCount: 1, chartCount: 4 });
  });

  it('trend by month: Jan ends at (100² + 0 − 2·15²)/4 = 2387.5 → 48.86 with 3 updates; Feb at 69.91 with 1', async () => {
    const d = await part(
      'trend(groupBy: MONTH) { groupBy chartCount points { date totalBpi playedCount updatedCount updates { title prevExScore newExScore prevBpi newBpi chart { id: databaseId } } } }',
    );
    expect(d.trend.groupBy).toBe('MONTH');
    expect(d.trend.chartCount).toBe(4);
    expect(d.trend.points.map((x: any) => [x.date, x.totalBpi, x.playedCount, x.updatedCount])).toEqual([
      ['2026-01', 48.86, 2, 3],
      ['2026-02', 69.91, 2, 1],
    ]);
    // C3 is ☆11: outside the trend's default levels (12). C1 twice on 01-05 (first play, then improved).
    expect(
      d.trend.points[0].updates.map((u: any) => [u.title, u.prevExScore, u.newExScore, u.prevBpi, u.newBpi]),
    ).toEqual([
      ['Alpha', null, 1600, null, 0],
      ['Alpha', 1600, 1900, 0, 100],
      ['Beta', null, 1600, null, 0],
    ]);
  });

  it('trend by day: one point per day from 01-05 to 02-03 (27 + 3 = 30), empty days carry the total', async () => {
    const d = await part('trend { points { date totalBpi updatedCount } }');
    const pts = d.trend.points;
    expect(pts).toHaveLength(30);
    expect(pts[0]).toEqual({ date: '2026-01-05', totalBpi: 48.28, updatedCount: 2 });
    expect(pts[1]).toEqual({ date: '2026-01-06', totalBpi: 48.28, updatedCount: 0 });
    expect(pts[2]).toEqual({ date: '2026-01-07', totalBpi: 48.86, updatedCount: 1 });
    expect(pts[29]).toEqual({ date: '2026-02-03', totalBpi: 69.91, updatedCount: 1 });
  });

  it('trend with levels [11]: N = 1 (Gamma): one update, total 0', async () => {
    const d = await part('trend { chartCount points { date totalBpi } }', { l: [11] });
    expect(d.trend).toEqual({ chartCount: 1, points: [{ date: '2026-01-05', totalBpi: 0 }] });
  });

  it('radar: NOTES {Alpha 100, Gamma 0}, N = 2, k = 1 → 50; PEAK {Beta 100} → 100; unplayed categories −15', async () => {
    const d = await part(
      'radar { values { NOTES CHORD PEAK CHARGE SCRATCH SOFLAN } categories { category totalBpi playedCount chartCount songs { title bpi } } }',
    );
    expect(d.radar.values).toEqual({ NOTES: 50, CHORD: -15, PEAK: 100, CHARGE: -15, SCRATCH: -15, SOFLAN: -15 });
    const notes = d.radar.categories.find((c: any) => c.category === 'NOTES');
    expect(notes).toEqual({
      category: 'NOTES',
      totalBpi: 50,
      playedCount: 2,
      chartCount: 2,
      songs: [
        { title: 'Alpha', bpi: 100 },
        { title: 'Gamma', bpi: 0 },
      ],
    });
    const chord = d.radar.categories.find((c: any) => c.category === 'CHORD');
    expect(chord).toMatchObject({ totalBpi: -15, playedCount: 0, chartCount: 1 });
  });

  it('radar with difficulties [HYPER]: only Gamma (NOTES 0)', async () => {
    const d = await part('radar { values { NOTES PEAK } }', { d: ['HYPER'] });
    expect(d.radar.values).toEqual({ NOTES: 0, PEAK: -15 });
  });

  it('activity: distinct charts per JST day (Alpha twice on 01-05 counts once), level-12 dates', async () => {
    const d = await part('activity { days { date count } activeDays chartDays activeDates }');
    expect(d.activity).toEqual({
      days: [
        { date: '2026-01-05', count: 2 },
        { date: '2026-01-07', count: 1 },
        { date: '2026-02-03', count: 1 },
      ],
      activeDays: 3,
      chartDays: 4,
      activeDates: ['2026-01-05', '2026-01-07', '2026-02-03'],
    });
    const ranged = await part('activity(from: "2026-01-06", to: "2026-01-31") { days { date count } activeDates }');
    expect(ranged.activity).toEqual({ days: [{ date: '2026-01-07', count: 1 }], activeDates: ['2026-01-07'] });
  });

  it('reviewPeriods: months with plays, newest first', async () => {
    const d = await part('reviewPeriods { months years }');
    expect(d.reviewPeriods).toEqual({ months: ['2026-02', '2026-01'], years: ['2026'] });
  });

  it('bad input names the argument', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ v: '99' }, 'totalBpi { totalBpi }', 'version'],
      [{ l: [10] }, 'totalBpi { totalBpi }', 'levels'],
      [{}, 'bpiDistribution(step: 3) { total }', 'step'],
      [{}, 'boxPlot(unit: DAY) { date } activity(from: "2026-02-30") { activeDays }', 'from'],
      [{}, 'totalBpi(asOf: "yesterday") { totalBpi }', 'asOf'],
      [{}, 'aaaTable(customGoalRatio: 1.5) { summary { charts } }', 'customGoalRatio'],
      [{}, 'neighbours(limit: 0) { usedNeighbors }', 'limit'],
    ];
    for (const [vars, sel, arg] of cases) {
      const res = await dash(sel, vars);
      const err = res.body.errors?.[0];
      expect([arg, err?.extensions?.code]).toEqual([arg, 'BAD_USER_INPUT']);
      expect(JSON.stringify(err.extensions)).toContain(`"${arg}"`);
    }
    const res = await dash('review(month: "2026-13") { period }', {}, pToken);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.body.errors[0].extensions)).toContain('"month"');
  });
});

describe('tower: register, box plot efficiency, ranking', () => {
  beforeAll(async () => {
    const reg = `mutation($u: ID!, $rows: [TowerDayInput!]!) { registerTower(userId: $u, version: "33", rows: $rows) { upsertedCount history { totalKeys totalScratches playDays } } }`;
    const r1 = expectNoErrors(
      await s.gql<any>(
        reg,
        {
          u: p.id,
          rows: [
            { playDate: '2026-01-05', keyCount: 3000, scratchCount: 800 },
            { playDate: '2026-01-06', keyCount: 1000, scratchCount: 200 },
          ],
        },
        pToken,
      ),
    );
    expect(r1.registerTower).toEqual({
      upsertedCount: 2,
      history: { totalKeys: 4000, totalScratches: 1000, playDays: 2 },
    });
    expectNoErrors(
      await s.gql<any>(
        reg,
        { u: q.id, rows: [{ playDate: '2026-01-10', keyCount: 5000, scratchCount: 1000 }] },
        qToken,
      ),
    );
  });

  it('registering for someone else is FORBIDDEN; a bad version or date is BAD_USER_INPUT naming it; nothing is written', async () => {
    const reg = `mutation($u: ID!, $v: GameVersion!, $rows: [TowerDayInput!]!) { registerTower(userId: $u, version: $v, rows: $rows) { upsertedCount } }`;
    const row = { playDate: '2026-01-08', keyCount: 1, scratchCount: 1 };
    expect((await s.gql(reg, { u: p.id, v: '33', rows: [row] }, qToken)).body.errors[0].extensions.code).toBe(
      'FORBIDDEN',
    );
    const badV = (await s.gql(reg, { u: p.id, v: 'XX', rows: [row] }, pToken)).body.errors[0];
    expect([badV.extensions.code, JSON.stringify(badV.extensions)]).toEqual([
      'BAD_USER_INPUT',
      expect.stringContaining('"version"'),
    ]);
    const badD = (
      await s.gql(
        reg,
        { u: p.id, v: '33', rows: [row, { playDate: '2026-02-31', keyCount: 1, scratchCount: 1 }] },
        pToken,
      )
    ).body.errors[0];
    expect([badD.extensions.code, JSON.stringify(badD.extensions)]).toEqual([
      'BAD_USER_INPUT',
      expect.stringContaining('"playDate"'),
    ]);
    expect(await s.db.prisma.towerEntry.count({ where: { userId: p.id } })).toBe(2); // the valid first row was not written either
  });

  it('re-registering a day replaces it (one row per player, version and day)', async () => {
    const reg = `mutation($u: ID!, $rows: [TowerDayInput!]!) { registerTower(userId: $u, version: "33", rows: $rows) { history { totalKeys } } }`;
    const r = expectNoErrors(
      await s.gql<any>(reg, { u: p.id, rows: [{ playDate: '2026-01-06', keyCount: 1000, scratchCount: 200 }] }, pToken),
    );
    expect(r.registerTower.history.totalKeys).toBe(4000);
  });

  it('towerHistory on the dashboard: newest first', async () => {
    const d = await part('towerHistory { days { playDate keyCount scratchCount } totalKeys playDays }');
    expect(d.towerHistory).toEqual({
      days: [
        { playDate: '2026-01-06', keyCount: 1000, scratchCount: 200 },
        { playDate: '2026-01-05', keyCount: 3000, scratchCount: 800 },
      ],
      totalKeys: 4000,
      playDays: 2,
    });
  });

  it('boxPlot by day, 2026-01-05: BPIs [0, 100] → p25 25, median 50, p75 75; total (k = 1) 50; top 25 % drops ⌊1.5⌋ = 1 → 100; notes 1000 + 900 = 1900 of 3000 + 800 = 3800 presses → 50 %', async () => {
    const d = await part(
      'boxPlot(unit: DAY) { date min p25 median p75 max count totalBpi totalBpiTop75 totalBpiTop25 registeredNotes totalPhysicalNotes efficiency }',
    );
    expect(d.boxPlot[0]).toEqual({
      date: '2026-01-05',
      min: 0,
      p25: 25,
      median: 50,
      p75: 75,
      max: 100,
      count: 2,
      totalBpi: 50,
      totalBpiTop75: 50,
      totalBpiTop25: 100,
      registeredNotes: 1900,
      totalPhysicalNotes: 3800,
      efficiency: 50,
    });
    expect(d.boxPlot.map((b: any) => b.date)).toEqual(['2026-01-05', '2026-01-07', '2026-02-03']);
  });

  it('boxPlot by week: weeks start on Sunday (issue #33); 2026-01-05 is a Monday, so its week is keyed Sun 01-04 and holds 01-05 and 01-07 (Alpha 100, Gamma 0, Beta 0)', async () => {
    const d = await part('boxPlot(unit: WEEK) { date count median }');
    expect(d.boxPlot[0]).toEqual({ date: '2026-01-04', count: 3, median: 0 });
  });

  it('ranking for January: Q 5000 + 1000 = 6000 first (masked for strangers), P 3000 + 800 + 1000 + 200 = 5000 second', async () => {
    const Q = `query($t: String) { towerRanking(version: "33", period: MONTH, date: $t) { startDate endDate selfRank totalCount edges { node { rank value name isMasked isSelf userId keyCount scratchCount user { name } } } } }`;
    const anon = expectNoErrors(await s.gql<any>(Q, { t: '2026-01-15' })).towerRanking;
    expect([anon.startDate, anon.endDate, anon.totalCount, anon.selfRank]).toEqual([
      '2026-01-01',
      '2026-01-31',
      2,
      null,
    ]);
    expect(anon.edges.map((e: any) => e.node)).toEqual([
      {
        rank: 1,
        value: 6000,
        name: '非公開ユーザー',
        isMasked: true,
        isSelf: false,
        userId: null,
        keyCount: 5000,
        scratchCount: 1000,
        user: null,
      },
      {
        rank: 2,
        value: 5000,
        name: 'dash_p',
        isMasked: false,
        isSelf: false,
        userId: p.id,
        keyCount: 4000,
        scratchCount: 1000,
        user: { name: 'dash_p' },
      },
    ]);
    const self = expectNoErrors(await s.gql<any>(Q, { t: '2026-01-15' }, qToken)).towerRanking;
    expect([self.selfRank, self.edges[0].node.isSelf, self.edges[0].node.name]).toEqual([1, true, 'dash_q']);
    const week = expectNoErrors(
      await s.gql<any>(
        `{ towerRanking(version: "33", period: WEEK, date: "2026-01-07") { startDate endDate totalCount } }`,
      ),
    ).towerRanking;
    expect(week).toEqual({ startDate: '2026-01-05', endDate: '2026-01-11', totalCount: 2 }); // Monday to Sunday
  });
});

describe('arena trend and statsPrivacy', () => {
  beforeAll(async () => {
    const db = s.db.prisma;
    // snapshot 1 (2026-01-10): two A1 players, then P in A2 rank 3 → global rank 2 + 3 = 5
    const s1 = await db.arenaSnapshot.create({
      data: { version: '33', fetchedAt: jst('2026-01-10', '12:00'), entryCount: 3 },
    });
    await db.arenaEntry.createMany({
      data: [
        { snapshotId: s1.id, gameId: '90000001', name: 'X', arenaClass: 'A1', rank: 1 },
        { snapshotId: s1.id, gameId: '90000002', name: 'Y', arenaClass: 'A1', rank: 2 },
        { snapshotId: s1.id, gameId: '11112222', name: 'P', arenaClass: 'A2', rank: 3, wins: 40, a1Continue: 0 },
      ],
    });
    // snapshot 2 (2026-01-20): P in A1 rank 2 → global rank 0 + 2 = 2 (the best point)
    const s2 = await db.arenaSnapshot.create({
      data: { version: '33', fetchedAt: jst('2026-01-20', '12:00'), entryCount: 2 },
    });
    await db.arenaEntry.createMany({
      data: [
        { snapshotId: s2.id, gameId: '90000001', name: 'X', arenaClass: 'A1', rank: 1 },
        { snapshotId: s2.id, gameId: '11112222', name: 'P', arenaClass: 'A1', rank: 2, wins: 55, a1Continue: 3 },
      ],
    });
  });

  it('the owner sees classes and ranks: global rank = players of the same snapshot in better classes + class rank', async () => {
    const d = await part(
      'arenaTrend { points { date arenaClass classRank globalRank players wins a1Continue } best { date } }',
      {},
      pToken,
    );
    expect(d.arenaTrend.points).toEqual([
      { date: '2026-01-10', arenaClass: 'A2', classRank: 3, globalRank: 5, players: 3, wins: 40, a1Continue: 0 },
      { date: '2026-01-20', arenaClass: 'A1', classRank: 2, globalRank: 2, players: 2, wins: 55, a1Continue: 3 },
    ]);
    expect(d.arenaTrend.best).toEqual({ date: '2026-01-20' });
  });

  it('others: the class (showArenaClass on by default) but no ranks (showArenaRank off by default); both off → nothing', async () => {
    const d = await part('arenaTrend { points { arenaClass classRank globalRank wins } }');
    expect(d.arenaTrend.points).toEqual([
      { arenaClass: 'A2', classRank: null, globalRank: null, wins: null },
      { arenaClass: 'A1', classRank: null, globalRank: null, wins: null },
    ]);
    await s.db.prisma.user.update({ where: { id: p.id }, data: { showArenaClass: false } });
    try {
      const hidden = await part('arenaTrend { points { arenaClass } best { date } }');
      expect(hidden.arenaTrend).toEqual({ points: [], best: null });
    } finally {
      await s.db.prisma.user.update({ where: { id: p.id }, data: { showArenaClass: true } });
    }
  });
});

describe('review (owner only)', () => {
  it('January: start −15 (nothing before), after 01-05 48.28, after 01-07 48.86; three updated charts', async () => {
    const d = await part(
      'review(month: "2026-01") { period granularity from to bpi { start end diff chartCount history { date value } } topBpiSongs { title bpi rank chart { id: databaseId } } topImprovedSongs { title } ' +
        'activity { totalKeys totalScratches playDays updatedSongs byWeekday { weekday count } bestKeysDay { date value } towerRanking { keysRank scratchRank totalUsers } } arena { bestClass bestRank maxA1Continue } }',
      {},
      pToken,
    );
    const r = d.review;
    expect([r.period, r.granularity, r.from, r.to]).toEqual(['2026-01', 'month', '2026-01-01', '2026-01-31']);
    expect(r.bpi).toEqual({
      start: -15,
      end: 48.86,
      diff: 63.86,
      chartCount: 4,
      history: [
        { date: '2026-01-05', value: 48.28 },
        { date: '2026-01-07', value: 48.86 },
      ],
    });
    expect(r.topBpiSongs.map((x: any) => [x.title, x.bpi, x.rank])).toEqual([
      ['Alpha', 100, 1],
      ['Beta', 0, 1],
      ['Gamma', 0, 1],
    ]);
    expect(r.topImprovedSongs).toEqual([]); // nothing was played before January
    // plays: Mon 01-05 ×3 (Alpha, Gamma, Alpha), Wed 01-07 ×1
    expect(r.activity.byWeekday.filter((w: any) => w.count > 0)).toEqual([
      { weekday: 1, count: 3 },
      { weekday: 3, count: 1 },
    ]);
    expect(r.activity).toMatchObject({
      totalKeys: 4000,
      totalScratches: 1000,
      playDays: 2,
      updatedSongs: 3,
      bestKeysDay: { date: '2026-01-05', value: 3000 },
    });
    // tower over January: Q 5000 keys / 1000 scratches, P 4000 / 1000 → keys rank 2, scratches tie → 1
    expect(r.activity.towerRanking).toEqual({ keysRank: 2, scratchRank: 1, totalUsers: 2 });
    expect(r.arena).toEqual({ bestClass: 'A1', bestRank: 2, maxA1Continue: 3 });
  });

  it('anyone else gets null and FORBIDDEN (anonymous: UNAUTHENTICATED), the rest of the dashboard stays', async () => {
    const other = await dash('totalBpi { totalBpi } review(month: "2026-01") { period }', {}, qToken);
    expect(other.body.data!.user.dashboard.totalBpi.totalBpi).toBe(69.91);
    expect(other.body.data!.user.dashboard.review).toBeNull();
    expect(other.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const anon = await dash('review(month: "2026") { period }');
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('a private player\u2019s dashboard is null for a stranger', async () => {
    const res = await dash('totalBpi { totalBpi }', {}, pToken, q);
    expect(res.body.data!.user).toBeNull(); // user(id) itself is refused for a private stranger
  });
});

describe('neighbours: only averages, never who', () => {
  it('five neighbours (one private) near 69.91; Alpha played by 3 of them at BPI 0 → diff 100; Beta by 2 → hidden', async () => {
    const db = s.db.prisma;
    const ns: User[] = [];
    for (let i = 0; i < 5; i++) {
      const u =
        i === 0 ? await aPrivatePlayer(db, { name: `nb_secret${i}` }) : await aPublicPlayer(db, { name: `nb_${i}` });
      await aVersionStatus(db, u, '33', { totalBpi: 60 + i });
      ns.push(u);
    }
    for (const u of ns.slice(0, 3))
      await aScoreImport(db, u, [{ chartId: ids.Alpha, exScore: 1600, playedAt: jst('2026-01-01', '12:00') }]);
    for (const u of ns.slice(3))
      await aScoreImport(db, u, [{ chartId: ids.Beta, exScore: 1600, playedAt: jst('2026-01-01', '12:00') }]);
    const d = await part(
      'neighbours { myTotalBpi usedNeighbors minimumNeighbors minimumPerChart weapons { total data { title bpi neighborAvgBpi neighborCount bpiDiff chart { id: databaseId } } } potential { total } }',
    );
    const n = d.neighbours;
    expect([n.myTotalBpi, n.usedNeighbors, n.minimumNeighbors, n.minimumPerChart]).toEqual([69.91, 5, 5, 3]);
    expect(n.weapons.data.map((x: any) => [x.title, x.bpi, x.neighborAvgBpi, x.neighborCount, x.bpiDiff])).toEqual([
      ['Alpha', 100, 0, 3, 100],
    ]);
    expect(n.weapons.total).toBe(1);
    const text = JSON.stringify(d);
    for (const u of ns) {
      expect(text).not.toContain(u.id);
      expect(text).not.toContain(u.name);
    }
  });
});

describe('radar ranking and site summary', () => {
  it('radar ranking by NOTES: Q (cached 60, private) masked for strangers, P 50; the viewer\u2019s own radar beside it', async () => {
    await refreshRadarCache(s.app, [p.id], '33'); // what the scores.imported listener does
    await s.db.prisma.radarCache.create({
      data: { userId: q.id, version: '33', notes: 60, chord: 0, peak: 0, charge: 0, scratch: 0, soflan: 0 },
    });
    const Q = `{ radarRanking(version: "33", category: NOTES) { category selfRank totalCount viewerRadar { NOTES PEAK } edges { node { rank value name isMasked radar { NOTES PEAK } } } } }`;
    const anon = expectNoErrors(await s.gql<any>(Q)).radarRanking;
    expect(anon.edges.map((e: any) => e.node)).toEqual([
      { rank: 1, value: 60, name: '非公開ユーザー', isMasked: true, radar: null },
      { rank: 2, value: 50, name: 'dash_p', isMasked: false, radar: { NOTES: 50, PEAK: 100 } },
    ]);
    expect(anon.viewerRadar).toBeNull();
    const mine = expectNoErrors(await s.gql<any>(Q, {}, pToken)).radarRanking;
    expect([mine.selfRank, mine.viewerRadar]).toEqual([2, { NOTES: 50, PEAK: 100 }]);
    // an approved follower of Q sees Q
    await follows(s.db.prisma, p, q, { approved: true });
    const follower = expectNoErrors(await s.gql<any>(Q, {}, pToken)).radarRanking;
    expect(follower.edges[0].node).toMatchObject({ name: 'dash_q', isMasked: false });
  });

  it('an import keeps the radar cache: R imports Alpha at WR → NOTES {Alpha 100, Gamma −15 unplayed}, k = 1 → (100 − 15)/2 = 42.5', async () => {
    const r = await aPublicPlayer(s.db.prisma, { name: 'dash_r' });
    const token = await s.tokenFor(r.id);
    expectNoErrors(
      await s.gql(
        `mutation($u: ID!) { importScores(userId: $u, version: "33", rows: [{ title: "Alpha", difficulty: ANOTHER, exScore: 1900, clearState: "HARD CLEAR" }]) { __typename } }`,
        { u: r.id },
        token,
      ),
    );
    // the listener runs after the commit, asynchronously: wait for its row
    let row = null;
    for (let i = 0; i < 50 && !row; i++) {
      row = await s.db.prisma.radarCache.findUnique({ where: { userId_version: { userId: r.id, version: '33' } } });
      if (!row) await new Promise((res) => setTimeout(res, 100));
    }
    expect(row).toMatchObject({ notes: 42.5, peak: -15, chord: -15 });
  });

  it('site summary: today is today in JST; a player created yesterday 23:30 JST is not counted as today\u2019s', async () => {
    const db = s.db.prisma;
    const todayJst = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    const yesterday2330 = new Date(Date.parse(`${todayJst}T00:00:00+09:00`) - 30 * 60_000);
    const old = await aPublicPlayer(db, { name: 'site_old' });
    await db.user.update({ where: { id: old.id }, data: { createdAt: yesterday2330 } });
    const users = await db.user.count();
    const batches = await db.importBatch.count();
    const plays = await db.score.count();
    const d = expectNoErrors(
      await s.gql<any>(
        `{ siteSummary { today summary { totalUsers newUsersToday totalBatches newBatchesToday totalPlays newPlaysToday } dailyRegistrations { date users } windows { window hourly { batches } } versionDistribution { name count } } }`,
      ),
    ).siteSummary;
    expect(d.today).toBe(todayJst);
    // every row but site_old was created during this test run, i.e. today (JST) — unless the run straddles JST midnight
    expect(d.summary).toEqual({
      totalUsers: users,
      newUsersToday: users - 1,
      totalBatches: batches,
      newBatchesToday: batches,
      totalPlays: plays,
      newPlaysToday: plays,
    });
    expect(d.dailyRegistrations).toHaveLength(90);
    expect(d.dailyRegistrations[89]).toEqual({ date: todayJst, users: users - 1 });
    expect(d.dailyRegistrations[88].users).toBe(1);
    expect(d.windows.find((w: any) => w.window === 'all').hourly.reduce((n: number, h: any) => n + h.batches, 0)).toBe(
      batches,
    );
    expect(d.versionDistribution).toEqual([{ name: '33', count: plays }]);
  });
});

describe('SVG endpoints GET /api/v1/users/{userId}/charts/{kind}.svg', () => {
  it('serve the same picture as the GraphQL field, with ETag (304 on a match) and Cache-Control', async () => {
    const gql = await part('radarSvg(theme: DARK)');
    const res = await fetch(`${s.url}/api/v1/users/${p.id}/charts/radar.svg?version=33&theme=dark`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const body = await res.text();
    expect(body).toBe(gql.radarSvg);
    expect(body).toContain('dash_p');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${s.url}/api/v1/users/${p.id}/charts/radar.svg?version=33&theme=dark`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    for (const kind of ['trend', 'distribution']) {
      const r = await fetch(`${s.url}/api/v1/users/${p.id}/charts/${kind}.svg?level=12`);
      expect([kind, r.status, (await r.text()).slice(0, 4)]).toEqual([kind, 200, '<svg']);
    }
  });

  it('404 / 403 / 400 as JSON', async () => {
    const unknown = await s.get(`/api/v1/users/00000000-0000-0000-0000-000000000000/charts/radar.svg`);
    expect([unknown.status, typeof unknown.body.message]).toEqual([404, 'string']);
    const kind = await s.get(`/api/v1/users/${p.id}/charts/pie.svg`);
    expect(kind.status).toBe(404);
    const priv = await s.get(`/api/v1/users/${q.id}/charts/radar.svg`);
    expect([priv.status, priv.body.message]).toEqual([403, 'This profile is set as a private.']);
    const self = await fetch(`${s.url}/api/v1/users/${q.id}/charts/radar.svg`, {
      headers: { authorization: `Bearer ${qToken}` },
    });
    expect([self.status, self.headers.get('cache-control')]).toEqual([200, 'private, max-age=300']);
    for (const [qs, arg] of [
      ['theme=blue', 'theme'],
      ['version=99', 'version'],
      ['level=10', 'level'],
      ['step=3', 'step'],
    ]) {
      const kindOf = arg === 'step' ? 'distribution' : 'radar';
      const bad = await s.get(`/api/v1/users/${p.id}/charts/${kindOf}.svg?${qs}`);
      expect([qs, bad.status, JSON.stringify(bad.body.errors)]).toEqual([qs, 400, expect.stringContaining(`"${arg}"`)]);
    }
  });
});

describe('one request for the whole dashboard', () => {
  const ALL = `query($id: ID!) { user(id: $id) { dashboard(version: "33") {
    bpiDistribution { total } djRankDistribution { total } scoreRateDistribution { total } aaaTable { summary { charts } }
    bpmBands { label } totalBpi { totalBpi } asOf: totalBpi(asOf: "2026-01-06") { totalBpi } trend { chartCount } radar { values { NOTES } }
    activity { activeDays } boxPlot(unit: WEEK) { date } arenaTrend { points { date } } reviewPeriods { months }
    review(month: "2026-01") { period } neighbours { usedNeighbors } towerHistory { totalKeys }
    radarSvg trendSvg bpiDistributionSvg(theme: DARK)
  } } }`;

  it('runs a constant number of SQL statements: a player with 4 plays and one with 60 plays over 30 batches', async () => {
    const db = s.db.prisma;
    const big = await aPublicPlayer(db, { name: 'dash_big', gameId: '11112222' });
    const bigToken = await s.tokenFor(big.id);
    for (let i = 0; i < 30; i++) {
      await aScoreImport(db, big, [
        {
          chartId: ids.Alpha,
          exScore: 1500 + i,
          playedAt: jst(`2026-01-${String(1 + (i % 28)).padStart(2, '0')}`, '12:00'),
        },
        {
          chartId: ids.Beta,
          exScore: 1500 + i,
          playedAt: jst(`2026-01-${String(1 + (i % 28)).padStart(2, '0')}`, '13:00'),
        },
      ]);
    }
    await follows(db, big, q, { approved: true });
    await follows(db, big, p);
    const small = await sqlFor(s, ALL, { id: p.id }, pToken);
    const large = await sqlFor(s, ALL, { id: big.id }, bigToken);
    expectSameSqlCount(small, large, 'dashboard');
    expect(small.count).toBeLessThanOrEqual(20);
    expect(large.data.user.dashboard.radarSvg).toMatch(/^<svg/);
  });
});

// Last in the file: it adds a player with a total in 33, which the earlier tests do not expect.
describe('neighbours: n, the neighbourhood size (issue #33 item 4)', () => {
  const sel = (args: string) =>
    `neighbours${args} { usedNeighbors weapons { total data { title neighborCount bpiDiff } } }`;
  it('n picks the n nearest totals; below the privacy minimum 5 nothing is shown; default 20; 0 and 201 refused', async () => {
    // The five of the test above: totals 60, 61, 62 played Alpha, 63 and 64 played Beta, all at EX 1600 = kaiden
    // → BPI 0. One more, "near", total 68, plays Beta at 1600. P's total is 69.91, P's Alpha and Beta are BPI 100.
    const near = await aPublicPlayer(s.db.prisma, { name: 'nb_near' });
    await aVersionStatus(s.db.prisma, near, '33', { totalBpi: 68 });
    await aScoreImport(s.db.prisma, near, [{ chartId: ids.Beta, exScore: 1600, playedAt: jst('2026-01-01', '12:00') }]);
    const rows = (x: any) => x.weapons.data.map((w: any) => [w.title, w.neighborCount, w.bpiDiff]);
    // n = 5: distances |69.91 − t|: 68 → 1.91, 64 → 5.91, 63 → 6.91, 62 → 7.91, 61 → 8.91 (60 → 9.91 left out).
    // Beta: 68, 64, 63 = 3 players (≥ 3) → shown, 100 − avg(0, 0, 0) = 100; Alpha: 62, 61 = 2 → hidden
    const five = (await part(sel('(n: 5)'))).neighbours;
    expect([five.usedNeighbors, rows(five)]).toEqual([5, [['Beta', 3, 100]]]);
    // n = 6 adds 60: Alpha 60, 61, 62 = 3 → shown too, 100 − 0 = 100 (equal diffs: compared sorted)
    const six = (await part(sel('(n: 6)'))).neighbours;
    expect([six.usedNeighbors, rows(six).sort()]).toEqual([
      6,
      [
        ['Alpha', 3, 100],
        ['Beta', 3, 100],
      ],
    ]);
    // n = 4: four neighbours are fewer than the minimum 5 → nothing shown
    const four = (await part(sel('(n: 4)'))).neighbours;
    expect([four.usedNeighbors, four.weapons.total, four.weapons.data]).toEqual([0, 0, []]);
    // the default is 20: the same answer as n: 20
    expect((await part(sel(''))).neighbours).toEqual((await part(sel('(n: 20)'))).neighbours);
    for (const n of [0, 201]) {
      const err = (await dash(`neighbours(n: ${n}) { usedNeighbors }`)).body.errors?.[0];
      expect([err?.extensions?.code, JSON.stringify(err?.extensions)]).toEqual([
        'BAD_USER_INPUT',
        expect.stringContaining('"n"'),
      ]);
    }
  });
});
