/**
 * Score lists (issue #17 item 1/2): every filter and sort key of User.scores /
 * allDifficultyScores / unplayedCharts with a hand-worked expected order, keyset paging that
 * stays right when rows are added between pages, bad input naming the argument,
 * chartHistoryByVersion and versionComparison's null differences.
 *
 * Fixture (a small definitions file, no demo catalogue), version 33, all SP:
 *
 * | chart | title    | diff | lv | notes | bpm     | rel | radar  | EX   | avg  | wr   | BPI  | lamp  | miss | played (JST)  |
 * |-------|----------|------|----|-------|---------|-----|--------|------|------|------|------|-------|------|---------------|
 * | A     | Alpha    | A    | 12 | 1000  | 150     | 20  | NOTES  | 1800 | 1800 | 1900 |   0  | HARD  | 10   | 2025-01-03    |
 * | B     | Beta     | A    | 11 | 800   | 100-200 | 25  | SOFLAN | 1500 | 1400 | 1500 | 100  | CLEAR | 30   | 2025-01-01    |
 * | C     | Gamma    | H    | 11 | 600   | 180     | 20  | —      | 1100 | 1050 | 1100 | 100  | EXH   | 5    | 2025-01-02    |
 * | D     | alphabet | L    | 12 | 1200  | 200     | 30  | PEAK   | 1000 | 2390 | 2399 | −15  | FAILED| 80   | 2025-01-04    |
 * | E     | Delta    | A    | 12 | 900   | 75~300  | 28  | NOTES  | (unplayed)                                            |
 *
 * BPI: s = kaidenAvg ⇒ 0 (A); s = wr ⇒ 100 (B, C); D far below the average ⇒ floored at −15.
 * Score rate = EX / (2 × notes): A 0.9, B 0.9375, C 0.91667, D 0.41667.
 * Ties: level desc, then title (collation: Alpha < alphabet < Beta < Delta < Gamma), then id.
 */
import { importDefinitions } from '../../../src/db/definitions';
import { importScores } from '../../../src/modules/scores/import.service';
import { aPrivatePlayer, aPublicPlayer } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

const ok = (res: { status: number; body: { data?: any; errors?: any[] } }): any => expectNoErrors(res);

const DEFS = {
  version: 'list-1',
  requireVersion: '0',
  body: [
    {
      title: 'Alpha',
      difficulty: '4',
      notes: 1000,
      bpm: '150',
      textage: '20/alpha.html',
      difficultyLevel: '12',
      dpLevel: '0',
      avg: 1800,
      wr: 1900,
      coef: -1,
    },
    {
      title: 'Beta',
      difficulty: '4',
      notes: 800,
      bpm: '100-200',
      textage: '25/beta.html',
      difficultyLevel: '11',
      dpLevel: '0',
      avg: 1400,
      wr: 1500,
      coef: -1,
    },
    {
      title: 'Gamma',
      difficulty: '3',
      notes: 600,
      bpm: '180',
      textage: '20/gamma.html',
      difficultyLevel: '11',
      dpLevel: '0',
      avg: 1050,
      wr: 1100,
      coef: -1,
    },
    {
      title: 'alphabet',
      difficulty: '10',
      notes: 1200,
      bpm: '200',
      textage: '30/alphabet.html',
      difficultyLevel: '12',
      dpLevel: '0',
      avg: 2390,
      wr: 2399,
      coef: -1,
    },
    {
      title: 'Delta',
      difficulty: '4',
      notes: 900,
      bpm: '75~300',
      textage: '28/delta.html',
      difficultyLevel: '12',
      dpLevel: '0',
      avg: 1500,
      wr: 1700,
      coef: -1,
    },
  ],
};

describe('score lists: filters, sort keys, keyset paging', () => {
  let s: TestServer;
  let u: { id: string };
  const T: Record<string, string> = { Alpha: 'A', Beta: 'B', Gamma: 'C', alphabet: 'D', Delta: 'E' };
  const imp = (
    rows: {
      title: string;
      difficulty: 'HYPER' | 'ANOTHER' | 'LEGGENDARIA';
      exScore: number;
      clearLamp: any;
      missCount: number;
      lastPlayed: string;
    }[],
    userId = u.id,
  ) =>
    importScores(
      { db: s.db.prisma, catalogue: s.app.catalogue },
      { userId, version: '33', source: 'ROWS', rows: rows.map((r, i) => ({ line: i + 1, ...r })) },
    );

  beforeAll(async () => {
    s = await startTestServer({ seedDemo: false });
    await importDefinitions(s.db.prisma, DEFS);
    await s.app.catalogue.load();
    const radar = [
      ['Alpha', 'NOTES'],
      ['Beta', 'SOFLAN'],
      ['alphabet', 'PEAK'],
      ['Delta', 'NOTES'],
    ] as const;
    for (const [title, cat] of radar)
      await s.db.prisma.chart.updateMany({ where: { song: { title } }, data: { radarCategory: cat } });
    await s.app.catalogue.load();
    u = await aPublicPlayer(s.db.prisma);
    await imp([
      {
        title: 'Alpha',
        difficulty: 'ANOTHER',
        exScore: 1800,
        clearLamp: 'HARD_CLEAR',
        missCount: 10,
        lastPlayed: '2025-01-03 20:00',
      },
      {
        title: 'Beta',
        difficulty: 'ANOTHER',
        exScore: 1500,
        clearLamp: 'CLEAR',
        missCount: 30,
        lastPlayed: '2025-01-01 20:00',
      },
      {
        title: 'Gamma',
        difficulty: 'HYPER',
        exScore: 1100,
        clearLamp: 'EX_HARD_CLEAR',
        missCount: 5,
        lastPlayed: '2025-01-02 20:00',
      },
      {
        title: 'alphabet',
        difficulty: 'LEGGENDARIA',
        exScore: 1000,
        clearLamp: 'FAILED',
        missCount: 80,
        lastPlayed: '2025-01-04 20:00',
      },
    ]);
  });
  afterAll(() => s.close());

  const list = async (field: 'scores' | 'unplayedCharts' | 'allDifficultyScores', args: string, userId = u.id) => {
    const v = field === 'allDifficultyScores' ? '' : 'version: "33", ';
    const q = `query($id: ID!) { user(id: $id) { ${field}(${v}${args}) { totalCount edges { cursor node { title ${field === 'unplayedCharts' ? '' : 'bpi'} } } pageInfo { hasNextPage endCursor } } } }`;
    return ok(await s.gql(q, { id: userId })).user[field];
  };
  const order = async (args: string, field: 'scores' | 'unplayedCharts' | 'allDifficultyScores' = 'scores') =>
    (await list(field, args)).edges.map((e: any) => T[e.node.title]).join('');

  it('has the hand-worked BPIs', async () => {
    const r = await list('scores', '');
    expect(Object.fromEntries(r.edges.map((e: any) => [T[e.node.title], e.node.bpi]))).toEqual({
      A: 0,
      B: 100,
      C: 100,
      D: -15,
    });
  });

  it('sorts by every key, both orders (ties: level desc, title, id)', async () => {
    expect(await order('')).toBe('ADBC'); // LEVEL desc: 12 (Alpha, alphabet), 11 (Beta, Gamma)
    expect(await order('sort: LEVEL, order: ASC')).toBe('BCAD'); // 11 first; ties still by title
    expect(await order('sort: TITLE, order: ASC')).toBe('ADBC'); // Alpha < alphabet < Beta < Gamma
    expect(await order('sort: TITLE, order: DESC')).toBe('CBDA');
    expect(await order('sort: BPI, order: DESC')).toBe('BCAD'); // 100 (B, C: level 11, title), 0, −15
    expect(await order('sort: BPI, order: ASC')).toBe('DABC');
    expect(await order('sort: EX_SCORE, order: DESC')).toBe('ABCD'); // 1800, 1500, 1100, 1000
    expect(await order('sort: NOTES, order: ASC')).toBe('CBAD'); // 600, 800, 1000, 1200
    expect(await order('sort: BPM, order: DESC')).toBe('DBCA'); // 200 (D lv12, B lv11), 180, 150
    expect(await order('sort: UPDATED_AT, order: DESC')).toBe('DACB'); // 01-04, 01-03, 01-02, 01-01
    expect(await order('sort: VERSION, order: ASC')).toBe('ACBD'); // 20 (A lv12, C lv11), 25, 30
    expect(await order('sort: SCORE_RATE, order: DESC')).toBe('BCAD'); // 0.9375, 0.9167, 0.9, 0.4167
    expect(await order('sort: CLEAR_LAMP, order: DESC')).toBe('CABD'); // EXH, HARD, CLEAR, FAILED
    expect(await order('sort: MISS_COUNT, order: ASC')).toBe('CABD'); // 5, 10, 30, 80
  });

  it('filters: lamps, BPI, BPM, soflan, notes, search (exact and prefix first), release version, radar, level, difficulty', async () => {
    expect(await order('clearLamps: [HARD_CLEAR, EX_HARD_CLEAR]')).toBe('AC');
    expect(await order('bpiMin: 50')).toBe('BC');
    expect(await order('bpiMax: 0')).toBe('AD');
    expect(await order('bpmMin: 180, bpmMax: 199')).toBe('C');
    expect(await order('bpmMin: 190')).toBe('DB'); // max BPM 200 both; level desc
    expect(await order('soflan: true')).toBe('B');
    expect(await order('soflan: false')).toBe('ADC');
    expect(await order('notesMin: 800, notesMax: 1000')).toBe('AB');
    expect(await order('search: "alpha"')).toBe('AD'); // "Alpha" exact (0), "alphabet" prefix (1)
    expect(await order('search: "ALPHA", sort: EX_SCORE, order: ASC')).toBe('AD'); // the boost comes before the sort
    expect(await order('search: "a", sort: EX_SCORE, order: ASC')).toBe('DACB'); // prefix group (D 1000, A 1800), then the other matches ascending (C 1100, B 1500)
    expect(await order('releasedVersions: [20]')).toBe('AC');
    expect(await order('radarCategories: [SOFLAN, PEAK]')).toBe('DB');
    expect(await order('levels: [11], difficulties: [ANOTHER]')).toBe('B');
    expect((await list('scores', 'search: "zzz"')).totalCount).toBe(0);
  });

  it('unplayed charts take the same filters and sorts; a lamp filter other than NO_PLAY empties them', async () => {
    expect(await order('', 'unplayedCharts')).toBe('E');
    expect(await order('soflan: true, radarCategories: [NOTES]', 'unplayedCharts')).toBe('E'); // "75~300" is soflan
    expect(await order('clearLamps: [CLEAR]', 'unplayedCharts')).toBe('');
    expect(await order('clearLamps: [NO_PLAY]', 'unplayedCharts')).toBe('E');
    expect(await order('bpiMax: -15', 'unplayedCharts')).toBe('E'); // unplayed = −15
    expect(await order('sort: TITLE, order: ASC, releasedVersions: [28]', 'unplayedCharts')).toBe('E');
  });

  it('all-difficulty list: same filters and sorts', async () => {
    expect(await order('sort: EX_SCORE, order: ASC', 'allDifficultyScores')).toBe('DCBA');
    expect(
      await order('difficulties: [HYPER, LEGGENDARIA], sort: MISS_COUNT, order: DESC', 'allDifficultyScores'),
    ).toBe('DC');
  });

  it('keyset pages: every sort pages to the same order as one page; a row added between pages is placed, not skipped or repeated', async () => {
    for (const [sort, expected] of [
      ['EX_SCORE, order: DESC', 'ABCD'],
      ['BPI, order: DESC', 'BCAD'],
      ['TITLE, order: ASC', 'ADBC'],
      ['UPDATED_AT, order: DESC', 'DACB'],
    ] as const) {
      let after: string | null = null;
      let seen = '';
      for (let i = 0; i < 5; i++) {
        const page: any = await list('scores', `sort: ${sort}, first: 1${after ? `, after: "${after}"` : ''}`);
        seen += page.edges.map((e: any) => T[e.node.title]).join('');
        expect(page.totalCount).toBe(4);
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(seen).toBe(expected);
    }
    // a second player: page 1 of EX desc, then a best on Delta (EX 1700) arrives, then page 2
    const v = await aPublicPlayer(s.db.prisma);
    await imp(
      [
        {
          title: 'Alpha',
          difficulty: 'ANOTHER',
          exScore: 1800,
          clearLamp: 'CLEAR',
          missCount: 1,
          lastPlayed: '2025-01-01 10:00',
        },
        {
          title: 'Beta',
          difficulty: 'ANOTHER',
          exScore: 1500,
          clearLamp: 'CLEAR',
          missCount: 1,
          lastPlayed: '2025-01-01 10:00',
        },
      ],
      v.id,
    );
    const p1 = await list('scores', 'sort: EX_SCORE, order: DESC, first: 1', v.id);
    expect(p1.edges.map((e: any) => T[e.node.title]).join('')).toBe('A');
    await imp(
      [
        {
          title: 'Delta',
          difficulty: 'ANOTHER',
          exScore: 1700,
          clearLamp: 'CLEAR',
          missCount: 1,
          lastPlayed: '2025-01-02 10:00',
        },
      ],
      v.id,
    );
    const p2 = await list('scores', `sort: EX_SCORE, order: DESC, first: 5, after: "${p1.pageInfo.endCursor}"`, v.id);
    expect(p2.edges.map((e: any) => T[e.node.title]).join('')).toBe('EB'); // 1700 after 1800, then 1500
    expect(p2.pageInfo.hasNextPage).toBe(false);
  });

  it('bad input names the argument (BAD_USER_INPUT)', async () => {
    const err = async (args: string) => {
      const r = await s.gql(`query($id: ID!) { user(id: $id) { scores(${args}) { totalCount } } }`, { id: u.id });
      expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      return r.body.errors[0].extensions.issues?.[0]?.path?.[0] ?? r.body.errors[0].message;
    };
    expect(await err('levels: [13]')).toBe('levels');
    expect(await err('bpiMin: 50, bpiMax: 10')).toBe('bpiMin');
    expect(await err('notesMin: -1')).toBe('notesMin');
    expect(await err('bpmMax: -5')).toBe('bpmMax');
    expect(await err(`search: "${'x'.repeat(101)}"`)).toBe('search');
    expect(await err('releasedVersions: [0]')).toBe('releasedVersions');
    const page = await list('scores', 'sort: BPI, first: 1');
    expect(await err(`sort: EX_SCORE, after: "${page.pageInfo.endCursor}"`)).toBe('after'); // a cursor of another sort
    // an unknown enum value (as a variable) is refused before any resolver runs, naming the variable
    const bad = await s.gql(`query($id: ID!, $k: ScoreSortKey) { user(id: $id) { scores(sort: $k) { totalCount } } }`, {
      id: u.id,
      k: 'RIVAL_GAP',
    });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors[0].message).toContain('$k');
  });

  it('chartHistoryByVersion groups plays by version; versionComparison answers null differences when one side is missing', async () => {
    const w = await aPublicPlayer(s.db.prisma);
    const run = (version: string, title: string, ex: number, at: string) =>
      importScores(
        { db: s.db.prisma, catalogue: s.app.catalogue },
        {
          userId: w.id,
          version,
          source: 'ROWS',
          rows: [
            {
              line: 1,
              title,
              difficulty: title === 'Gamma' ? 'HYPER' : 'ANOTHER',
              exScore: ex,
              clearLamp: 'CLEAR',
              missCount: 1,
              lastPlayed: at,
            },
          ],
        },
      );
    await run('32', 'Alpha', 1700, '2024-05-01 10:00');
    await run('33', 'Alpha', 1750, '2025-01-01 10:00');
    await run('33', 'Alpha', 1800, '2025-01-05 10:00');
    await run('33', 'Beta', 1500, '2025-01-05 10:00');
    await run('32', 'Gamma', 1000, '2024-05-01 10:00');
    const alpha = s.app.catalogue.find('Alpha', 'SP', 'ANOTHER')!;
    const q = ok(
      await s.gql(
        `query($id: ID!) { user(id: $id) {
      chartHistoryByVersion(chartId: ${alpha.id}) { version plays { exScore } }
      versionComparison(currentVersion: "33", targetVersion: "32") { title exDiff bpiDiff current { exScore } previous { exScore } }
    } }`,
        { id: w.id },
      ),
    ).user;
    expect(q.chartHistoryByVersion).toEqual([
      { version: '32', plays: [{ exScore: 1700 }] },
      { version: '33', plays: [{ exScore: 1800 }, { exScore: 1750 }] },
    ]);
    const byTitle = Object.fromEntries(q.versionComparison.map((e: any) => [e.title, e]));
    // Alpha: both sides: 1800 − 1700 = 100; BPI 0 (1800 = avg) − BPI(1700) (< 0, ≥ −15) > 0
    expect(byTitle.Alpha.exDiff).toBe(100);
    expect(byTitle.Alpha.bpiDiff).toBeGreaterThan(0);
    expect(byTitle.Beta).toMatchObject({ exDiff: null, bpiDiff: null, previous: null, current: { exScore: 1500 } });
    expect(byTitle.Gamma).toMatchObject({ exDiff: null, bpiDiff: null, current: null, previous: { exScore: 1000 } });
    // a private player's lists stay masked for strangers
    const p = await aPrivatePlayer(s.db.prisma);
    const masked = await s.gql(
      `query($id: ID!) { user(id: $id) { scores { totalCount } chartHistoryByVersion(chartId: ${alpha.id}) { version } } }`,
      { id: p.id },
    );
    expect(masked.body.data?.user?.scores ?? null).toBeNull();
  });
});
