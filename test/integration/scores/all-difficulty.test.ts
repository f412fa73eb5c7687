/**
 * All-difficulty import (issue #17 item 1): an official CSV's played charts of every level and
 * difficulty are stored — charts the BPI definitions lack are learned from the export (title,
 * difficulty, level; no BPI) — and listed by User.allDifficultyScores; SP and DP exports match by
 * play style; problems carry the offending value; a first batch differs by 0.
 * Demo catalogue (seeded): 36 songs, SP HYPER/ANOTHER (+ some LEGGENDARIA) and DP ANOTHER, levels 11–12.
 */
import { Catalogue } from '../../../src/modules/catalogue/catalogue';
import { aPublicPlayer } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { OFFICIAL_HEADER } from '../../../src/domain/csv/official-writer';

const ok = (res: { status: number; body: { data?: any; errors?: any[] } }): any => expectNoErrors(res);

const DIFFS = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'] as const;
type D = (typeof DIFFS)[number];
const HEADER = OFFICIAL_HEADER;
type Cell = { level: number; ex: number | string; lamp: string; miss?: number };
function officialCsv(songs: [string, Partial<Record<D, Cell>>][], lastPlayed = '2025-06-01 21:30'): string {
  const lines = [HEADER];
  for (const [title, cells] of songs) {
    const groups = DIFFS.map((x) => {
      const c = cells[x];
      return c
        ? [c.level, c.ex, 0, 0, c.miss ?? '---', c.lamp, 'A'].join(',')
        : [0, 0, 0, 0, '---', 'NO PLAY', '---'].join(',');
    });
    lines.push(['33 Sparkle Shower', title, 'GENRE', 'ARTIST', 1, ...groups, lastPlayed].join(','));
  }
  return '\ufeff' + lines.join('\r\n') + '\r\n';
}

const IMPORT = `mutation($u: ID!, $v: GameVersion!, $csv: String!, $ps: PlayStyle) {
  importScoresCsv(userId: $u, version: $v, csv: $csv, playStyle: $ps) {
    batchId upToDate updatedCount bpiUpdatedCount learnedCharts previousTotalBpi newTotalBpi
    notFound { title playStyle difficulty } problems { line column value reason severity }
  }
}`;

describe('all-difficulty import: charts learned from the export', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const demo = () => [...s.app.catalogue.charts()].filter((c) => c.definition);

  it('stores BEGINNER/NORMAL and levels 1–10 (new song too), lists them with BPI null, teaches the catalogue, first batch diff 0', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const hyper = demo().find((c) => c.playStyle === 'SP' && c.difficulty === 'HYPER')!;
    // Row 2: a demo song — its HYPER (a BPI chart) and its BEGINNER (level 2) / NORMAL (level 5), unknown to the catalogue.
    // Row 3: a song no catalogue has, ANOTHER level 10.
    const csv = officialCsv([
      [
        hyper.title,
        {
          BEGINNER: { level: 2, ex: 400, lamp: 'FULLCOMBO CLEAR', miss: 0 },
          NORMAL: { level: 5, ex: 900, lamp: 'HARD CLEAR', miss: 3 },
          HYPER: { level: hyper.level, ex: hyper.notes, lamp: 'CLEAR', miss: 20 },
        },
      ],
      ['Brand New Tune', { ANOTHER: { level: 10, ex: 1500, lamp: 'EASY CLEAR', miss: 40 } }],
    ]);
    const before = s.app.catalogue.size;
    // another process's catalogue, loaded before the import
    const other = new Catalogue(s.db.prisma);
    await other.load();

    const r = ok(await s.gql(IMPORT, { u: u.id, v: '33', csv }, token)).importScoresCsv;
    // 4 played cells: 1 BPI chart + 3 learned (BEGINNER 2, NORMAL 5, ANOTHER 10 of a new song)
    expect(r).toMatchObject({
      upToDate: false,
      updatedCount: 4,
      bpiUpdatedCount: 1,
      learnedCharts: 3,
      notFound: [],
      problems: [],
    });
    // first batch of the version: no previous total → difference 0 (not total + 15)
    expect(r.previousTotalBpi).toBe(-15);
    // learned charts are provisional: the catalogue holds them (3 more charts in all) but none is public
    expect(s.app.catalogue.size).toBe(before);
    expect([...s.app.catalogue.allCharts()].filter((c) => c.provisional)).toHaveLength(3);
    const newSong = s.app.catalogue.find('Brand New Tune', 'SP', 'ANOTHER')!;
    expect(newSong).toMatchObject({ level: 10, definition: null });
    const row = await s.db.prisma.chart.findUniqueOrThrow({ where: { id: newSong.id }, include: { song: true } });
    expect(row).toMatchObject({
      level: 10,
      notes: null,
      provisional: true,
      song: { title: 'Brand New Tune', genre: 'GENRE', artist: 'ARTIST', provisional: true },
    });
    const normal = s.app.catalogue.find(hyper.title, 'SP', 'NORMAL')!;
    expect(normal).toMatchObject({ level: 5, songId: hyper.songId });

    // the other process learns the charts when it meets their ids
    expect(other.chart(newSong.id)).toBeUndefined();
    await other.ensureCharts([newSong.id]);
    expect(other.chart(newSong.id)).toMatchObject({ title: 'Brand New Tune', level: 10 });

    const q = ok(
      await s.gql(
        `query($id: ID!) { user(id: $id) {
         allDifficultyScores(first: 10) { totalCount edges { node { title difficulty level notes exScore bpi clearLamp } } }
         batches(version: "33") { edges { node { totalBpi previousTotalBpi diff } } }
         chart: chartHistory(chartId: ${newSong.id}) { exScore }
       } }`,
        { id: u.id },
        token,
      ),
    ).user;
    // another viewer (anonymous) sees the player's BPI chart only: provisional charts are the player's own
    const seen = ok(
      await s.gql(
        `query($id: ID!) { user(id: $id) { allDifficultyScores(first: 10) { edges { node { difficulty } } } } }`,
        { id: u.id },
      ),
    ).user.allDifficultyScores.edges.map((e: any) => e.node.difficulty);
    expect(seen).toEqual(['HYPER']);
    // default order: level desc, then title
    expect(
      q.allDifficultyScores.edges.map((e: any) => [
        e.node.difficulty,
        e.node.level,
        e.node.exScore,
        e.node.bpi,
        e.node.notes,
      ]),
    ).toEqual([
      ['HYPER', hyper.level, hyper.notes, expect.any(Number), hyper.notes],
      ['ANOTHER', 10, 1500, null, null],
      ['NORMAL', 5, 900, null, null],
      ['BEGINNER', 2, 400, null, null],
    ]);
    expect(q.batches.edges[0].node.diff).toBe(0);
    expect(q.chart).toEqual([{ exScore: 1500 }]);

    // re-import: nothing new, nothing learned; a second improving batch differs by total − previous
    const again = ok(await s.gql(IMPORT, { u: u.id, v: '33', csv }, token)).importScoresCsv;
    expect(again).toMatchObject({ upToDate: true, learnedCharts: 0, notFound: [] });
    const better = officialCsv(
      [[hyper.title, { HYPER: { level: hyper.level, ex: hyper.notes + 100, lamp: 'CLEAR', miss: 10 } }]],
      '2025-06-02 21:30',
    );
    const r2 = ok(await s.gql(IMPORT, { u: u.id, v: '33', csv: better }, token)).importScoresCsv;
    const b = ok(
      await s.gql(
        `query($id: ID!) { user(id: $id) { batches(version: "33") { edges { node { totalBpi previousTotalBpi diff } } } } }`,
        { id: u.id },
      ),
    ).user.batches.edges;
    expect(b[0].node.previousTotalBpi).toBe(r.newTotalBpi);
    expect(b[0].node.diff).toBeCloseTo(r2.newTotalBpi - r.newTotalBpi, 2);
    expect(b[1].node.diff).toBe(0);
  });

  it('matches rows by play style: an official CSV downloaded for DP goes to the DP charts', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const dp = demo().find((c) => c.playStyle === 'DP' && c.difficulty === 'ANOTHER')!;
    const sp = s.app.catalogue.find(dp.title, 'SP', 'ANOTHER')!;
    const csv = officialCsv([[dp.title, { ANOTHER: { level: dp.level, ex: dp.notes, lamp: 'CLEAR' } }]]);
    const r = ok(await s.gql(IMPORT, { u: u.id, v: '33', csv, ps: 'DP' }, token)).importScoresCsv;
    expect(r).toMatchObject({ updatedCount: 1, bpiUpdatedCount: 1, learnedCharts: 0 });
    const bests = await s.db.prisma.bestScore.findMany({ where: { userId: u.id } });
    expect(bests.map((x) => x.chartId)).toEqual([dp.id]);
    expect(bests[0].chartId).not.toBe(sp.id);
    // a Reflux TSV names the style per column group: SPA and DPA of one song, each to its chart
    const reflux = [
      ['title', 'SPA Lamp', 'SPA EX Score', 'SPA Miss Count', 'DPA Lamp', 'DPA EX Score', 'DPA Miss Count'].join('\t'),
      [dp.title, 'HC', String(sp.notes), '5', 'EXH', String(dp.notes + 1), '4'].join('\t'),
    ].join('\n');
    const r2 = ok(await s.gql(IMPORT, { u: u.id, v: 'INF', csv: reflux }, token)).importScoresCsv;
    expect(r2).toMatchObject({ updatedCount: 2, notFound: [] });
    const inf = await s.db.prisma.bestScore.findMany({
      where: { userId: u.id, version: 'INF' },
      orderBy: { chartId: 'asc' },
    });
    expect(inf.map((x) => [x.chartId, x.exScore])).toEqual(
      [
        [sp.id, sp.notes],
        [dp.id, dp.notes + 1],
      ].sort((a, b) => a[0] - b[0]),
    );
  });

  it("reports a bad cell with its row, column and value; the row's other charts are kept; failures learn nothing", async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const [a] = demo().filter((c) => c.playStyle === 'SP' && c.difficulty === 'ANOTHER');
    const over = a.notes * 2 + 1;
    const csv = officialCsv([
      [
        a.title,
        {
          NORMAL: { level: 4, ex: 'abc', lamp: 'CLEAR' },
          ANOTHER: { level: a.level, ex: over, lamp: 'CLEAR' },
          HYPER: { level: 9, ex: 700, lamp: 'SUPER CLEAR' },
          BEGINNER: { level: 1, ex: 300, lamp: 'CLEAR' },
        },
      ],
    ]);
    const r = ok(await s.gql(IMPORT, { u: u.id, v: '33', csv }, token)).importScoresCsv;
    // BEGINNER (level 1) is learned and stored; NORMAL (not a number), HYPER (unknown lamp) and ANOTHER (over the maximum) are problems
    expect(r.updatedCount).toBe(1);
    expect(r.problems.map((p: any) => [p.line, p.column, p.value])).toEqual(
      expect.arrayContaining([
        [2, 'NORMAL スコア', 'abc'],
        [2, 'HYPER クリアタイプ', 'SUPER CLEAR'],
        [2, 'ANOTHER スコア', String(over)],
      ]),
    );
    expect(r.problems).toHaveLength(3);
  });

  it('a failed import creates no chart (one transaction)', async () => {
    const { importScores } = await import('../../../src/modules/scores/import.service');
    const u = await aPublicPlayer(s.db.prisma);
    const rows = [
      {
        line: 2,
        title: 'Rolled Back Song',
        difficulty: 'NORMAL' as const,
        level: 3,
        exScore: 500,
        clearLamp: 'CLEAR' as const,
        missCount: null,
        lastPlayed: null,
      },
    ];
    await expect(
      importScores(
        { db: s.db.prisma, catalogue: s.app.catalogue },
        {
          userId: u.id,
          version: '33',
          source: 'ROWS',
          rows,
          afterPlaysInserted: () => {
            throw new Error('injected');
          },
        },
      ),
    ).rejects.toThrow('injected');
    expect(await s.db.prisma.song.count({ where: { title: 'Rolled Back Song' } })).toBe(0);
    // rows without a level cannot be learned: not found
    const r = await importScores(
      { db: s.db.prisma, catalogue: s.app.catalogue },
      { userId: u.id, version: '33', source: 'ROWS', rows: [{ ...rows[0], level: null }] },
    );
    expect(r.notFound).toEqual([{ line: 2, title: 'Rolled Back Song', playStyle: 'SP', difficulty: 'NORMAL' }]);
  });
});
