import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { importDefinitions } from '../../../src/db/definitions';
import { importScores } from '../../../src/modules/scores/import.service';
import { safeBpi } from '../../../src/domain/bpi';
import { recomputeAll, totalSetIds } from '../../../src/modules/scores/totals.service';
import { totalOverSet } from '../../../src/domain/totals';
import { aPrivatePlayer, aPublicPlayer, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { describeIf } from '../../helpers/skip';
import { OFFICIAL_HEADER } from '../../../src/domain/csv/official-writer';

/** expectNoErrors, typed loosely for test assertions on arbitrary selections. */
const ok = (res: { status: number; body: { data?: any; errors?: any[] } }): any => expectNoErrors(res);

const SHARED = path.resolve(__dirname, '../../../../shared/data');
const DEFS = path.join(SHARED, 'definitions/definitions-202509156.json');
const SAMPLE = path.join(SHARED, 'eamusement/score-sample-pre-leggendaria.csv');
const CORRECTIONS = path.join(SHARED, 'eamusement/title-corrections.json');
const haveShared = [DEFS, SAMPLE, CORRECTIONS].every((f) => fs.existsSync(f));
const d = describeIf(haveShared, `${SHARED} not found (real data lives in ../shared)`);

const DIFFS = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'] as const;
const HEADER = OFFICIAL_HEADER;

type Cell = { ex: number; lamp: string; miss: number | null };
/** A current-layout official CSV (BOM, CRLF) built from catalogue charts. */
export function currentLayoutCsv(
  songs: Map<string, Partial<Record<(typeof DIFFS)[number], Cell>>>,
  lastPlayed = '2025-06-01 21:30',
): string {
  const lines = [HEADER];
  for (const [title, cells] of songs) {
    const groups = DIFFS.map((x) => {
      const c = cells[x];
      return c
        ? [12, c.ex, 0, 0, c.miss ?? '---', c.lamp, 'AA'].join(',')
        : [0, 0, 0, 0, '---', 'NO PLAY', '---'].join(',');
    });
    lines.push(['33 Sparkle Shower', title, 'GENRE', 'ARTIST', 1, ...groups, lastPlayed].join(','));
  }
  return '\ufeff' + lines.join('\r\n') + '\r\n';
}

const IMPORT_CSV = `mutation($userId: ID!, $version: GameVersion!, $csv: String!) {
  importScoresCsv(userId: $userId, version: $version, csv: $csv) {
    batchId upToDate message format rowCount updatedCount bpiUpdatedCount previousTotalBpi newTotalBpi skipped learnedCharts
    notFound { line title difficulty } problems { line column reason severity }
  }
}`;

d('score import and reads (real definitions)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { TITLE_CORRECTIONS_FILE: CORRECTIONS } });
    await importDefinitions(s.db.prisma, JSON.parse(fs.readFileSync(DEFS, 'utf8')));
    await s.app.catalogue.load();
  });
  afterAll(() => s.close());

  const charts = () =>
    [...s.app.catalogue.charts()].filter(
      (c) => c.playStyle === 'SP' && c.definition && c.definition.definitionsVersion !== 'demo-1',
    );
  const counts = async (userId: string) => ({
    scores: await s.db.prisma.score.count({ where: { userId } }),
    batches: await s.db.prisma.importBatch.count({ where: { userId } }),
    bests: await s.db.prisma.bestScore.count({ where: { userId } }),
  });

  it('imports the real older-layout sample: counts, not-found report, JST → UTC, idempotent re-import', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const csv = fs.readFileSync(SAMPLE, 'utf8');
    const r = ok(await s.gql(IMPORT_CSV, { userId: u.id, version: '27', csv }, token)).importScoresCsv;
    expect(r).toMatchObject({ format: 'official', upToDate: false, problems: [] });
    // every parsed play is stored: charts not in the BPI definitions (NORMAL, levels ≤ 10) are
    // learned from the export (its level column), stored without BPI
    expect(r.notFound).toEqual([]);
    expect(r.updatedCount).toBe(r.rowCount);
    expect(r.learnedCharts).toBeGreaterThan(0);
    expect(await s.db.prisma.score.count({ where: { userId: u.id, chart: { difficulty: 'NORMAL' } } })).toBeGreaterThan(
      0,
    );
    expect(r.bpiUpdatedCount).toBeLessThan(r.updatedCount);
    expect(r.bpiUpdatedCount).toBeGreaterThan(20);
    expect(r.newTotalBpi).toBeGreaterThanOrEqual(-15);
    const c = await counts(u.id);
    expect(c).toEqual({ scores: r.updatedCount, batches: 1, bests: r.updatedCount });
    // "5.1.1." ANOTHER is level 10 (not in the BPI catalogue); find one that matched and check the time
    const anyScore = await s.db.prisma.score.findFirst({
      where: { userId: u.id },
      include: { chart: { include: { song: true } } },
    });
    const line = csv.split(/\r?\n/).find((l) => l.split(',')[1] === anyScore!.chart.song.title)!;
    const jst = line.split(',').at(-1)!;
    expect(anyScore!.playedAt.toISOString()).toBe(new Date(`${jst.replace(' ', 'T')}:00+09:00`).toISOString());
    const status = await s.db.prisma.playerVersionStatus.findUnique({
      where: { userId_version: { userId: u.id, version: '27' } },
    });
    expect(status?.totalBpi).toBe(r.newTotalBpi);

    const again = ok(await s.gql(IMPORT_CSV, { userId: u.id, version: '27', csv }, token)).importScoresCsv;
    expect(again).toMatchObject({ batchId: null, upToDate: true, updatedCount: 0, newTotalBpi: r.newTotalBpi });
    expect(again.message).toMatch(/up to date/i);
    expect(await counts(u.id)).toEqual(c);
  });

  it('imports a synthetic current-layout CSV of real charts, keeps bests per field', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const anothers = charts()
      .filter((c) => c.difficulty === 'ANOTHER' && c.level === 12)
      .slice(0, 40);
    const songs = new Map(
      anothers.map((c) => [c.title, { ANOTHER: { ex: Math.floor(c.notes * 1.6), lamp: 'CLEAR', miss: 20 } }]),
    );
    // a chart the catalogue lacks (BEGINNER) is learned from the export (its level), not lost
    songs.set(anothers[0].title, {
      ...songs.get(anothers[0].title)!,
      BEGINNER: { ex: 300, lamp: 'FULLCOMBO CLEAR', miss: 0 },
    } as any);
    const r1 = ok(
      await s.gql(IMPORT_CSV, { userId: u.id, version: '33', csv: currentLayoutCsv(songs) }, token),
    ).importScoresCsv;
    expect(r1).toMatchObject({ updatedCount: 41, bpiUpdatedCount: 40, rowCount: 41, learnedCharts: 1 });
    expect(r1.notFound).toEqual([]);

    // lamp improves with a lower EX and more misses: EX and misses stay, lamp moves
    const first = anothers[0];
    const lower = new Map([
      [first.title, { ANOTHER: { ex: Math.floor(first.notes * 1.5), lamp: 'HARD CLEAR', miss: 25 } }],
    ]);
    const r2 = ok(
      await s.gql(IMPORT_CSV, { userId: u.id, version: '33', csv: currentLayoutCsv(lower, '2025-06-02 10:00') }, token),
    ).importScoresCsv;
    expect(r2).toMatchObject({ updatedCount: 1, upToDate: false });
    const best = await s.db.prisma.bestScore.findUniqueOrThrow({
      where: { userId_version_chartId: { userId: u.id, version: '33', chartId: first.id } },
    });
    expect(best).toMatchObject({ exScore: Math.floor(first.notes * 1.6), clearLamp: 'HARD_CLEAR', missCount: 20 });
    expect(best.clearLampId).not.toBe(best.exScoreId);
    expect(best.missCountId).toBe(best.exScoreId);

    // reads: scores connection, batches, one batch, history, recommended, unplayed
    const q = ok(
      await s.gql(
        `query($id: ID!) { user(id: $id) {
           scores(version: "33", first: 5) { totalCount edges { node { chartId exScore clearLamp clearState missCount bpi } } pageInfo { hasNextPage } }
           batches(version: "33") { totalCount edges { node { id songCount totalBpi previousTotalBpi diff topScores { title bpi clearLamp playedAt } } } }
           playDays(version: "33") { totalCount edges { node { date songCount totalBpi } } }
           chartHistory(chartId: ${first.id}) { exScore clearLamp version }
           unplayedCharts(version: "33", first: 1) { totalCount }
           totalBpiHistory(version: "33") { date totalBpi count updated }
           recommended(version: "33", limit: 3) { totalBpi weapons { total data { title bpiDiff } } potential { total data { bpiDiff } } }
         } }`,
        { id: u.id },
      ),
    ).user;
    expect(q.scores.totalCount).toBe(40);
    expect(q.scores.pageInfo.hasNextPage).toBe(true);
    expect(q.batches.totalCount).toBe(2);
    expect(q.batches.edges[0].node).toMatchObject({
      songCount: 1,
      previousTotalBpi: r1.newTotalBpi,
      totalBpi: r2.newTotalBpi,
    });
    const top = q.batches.edges[1].node.topScores;
    expect(top).toHaveLength(5);
    expect(top.map((t: any) => t.bpi)).toEqual([...top.map((t: any) => t.bpi)].sort((x: number, y: number) => y - x));
    expect(top[0]).toMatchObject({ clearLamp: 'CLEAR', playedAt: '2025-06-01T12:30:00.000Z' });
    expect(q.playDays.edges.map((e: any) => e.node.date)).toEqual(['2025-06-02', '2025-06-01']);
    expect(q.chartHistory.map((h: any) => h.clearLamp)).toEqual(['HARD_CLEAR', 'CLEAR']);
    expect(q.totalBpiHistory.at(-1).totalBpi).toBe(r2.newTotalBpi);
    expect(q.totalBpiHistory.map((p: any) => [p.date, p.updated])).toEqual([
      ['2025-06-01', 41],
      ['2025-06-02', 1],
    ]); // 40 ANOTHER + the learned BEGINNER
    expect(q.recommended.weapons.total).toBe(40);
    expect(q.recommended.weapons.data[0].bpiDiff).toBeGreaterThanOrEqual(q.recommended.potential.data[0].bpiDiff);
    expect(q.unplayedCharts.totalCount).toBeGreaterThan(100);

    const batchId = q.batches.edges[1].node.id;
    const detail = ok(
      await s.gql(
        `query($id: ID!, $b: ID!) { user(id: $id) { batch(id: $b) { id scores { chartId previous { exScore } current { exScore } } } } }`,
        { id: u.id, b: batchId },
        token,
      ),
    ).user.batch;
    expect(detail.scores).toHaveLength(41); // 40 ANOTHER + the learned BEGINNER
    expect(detail.scores.every((x: any) => x.previous === null)).toBe(true);
  });

  it('refuses more than 10,000 rows and an unknown version before touching the database', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const row = {
      line: 1,
      title: 'x',
      difficulty: 'ANOTHER' as const,
      exScore: 1,
      clearLamp: null,
      missCount: null,
      lastPlayed: null,
    };
    const deps = { db: s.db.prisma, catalogue: s.app.catalogue };
    await expect(
      importScores(deps, { userId: u.id, version: '33', source: 'ROWS', rows: Array(10_001).fill(row) }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(
      importScores(deps, { userId: u.id, version: '35', source: 'ROWS', rows: [row] }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await s.db.prisma.importBatch.count({ where: { userId: u.id } })).toBe(0);
  });

  it('uses a number of SQL statements bounded by chunks, not rows (bulk writes)', async () => {
    const deps = { db: s.db.prisma, catalogue: s.app.catalogue };
    const rowsOf = (n: number) =>
      charts()
        .slice(0, n)
        .map((c, i) => ({
          line: i + 1,
          title: c.title,
          difficulty: c.difficulty,
          exScore: c.notes,
          clearLamp: 'CLEAR' as const,
          missCount: 1,
          lastPlayed: null,
        }));
    const count = async (n: number) => {
      const u = await aPublicPlayer(s.db.prisma);
      s.sql.reset();
      const r = await importScores(deps, { userId: u.id, version: '33', source: 'ROWS', rows: rowsOf(n) });
      expect(r.updatedCount).toBe(n);
      return s.sql.count;
    };
    const small = await count(5);
    const large = await count(500);
    // The plays and the bests are written in chunks sized by their time (src/db/yield.ts ChunkSizer:
    // 100 rows first, never under 10, so PGlite's main thread is let through between them): 5 rows are
    // one chunk each; 500 rows are at most ⌈500 / 10⌉ = 50 chunks each, so at most 2 × (50 − 1) = 98
    // statements more than 5 rows — where a statement per row would be 2 × 500 = 1,000 more.
    expect(small).toBeLessThanOrEqual(13); // 12 + the player's check (FOR KEY SHARE)
    expect(large - small).toBeLessThanOrEqual(98);
  });

  it('rolls back everything when the import fails mid-way', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const c = charts().slice(0, 30);
    const rows = c.map((x, i) => ({
      line: i + 2,
      title: x.title,
      difficulty: x.difficulty,
      exScore: x.notes,
      clearLamp: 'CLEAR' as const,
      missCount: 5,
      lastPlayed: '2025-01-01 12:00',
    }));
    const events: unknown[] = [];
    s.app.events.on('scores.imported', (e) => void events.push(e));
    await expect(
      importScores(
        { db: s.db.prisma, catalogue: s.app.catalogue, events: s.app.events },
        {
          userId: u.id,
          version: '33',
          source: 'ROWS',
          rows,
          afterPlaysInserted: () => {
            throw new Error('injected failure');
          },
        },
      ),
    ).rejects.toThrow('injected failure');
    expect(await counts(u.id)).toEqual({ scores: 0, batches: 0, bests: 0 });
    expect(await s.db.prisma.playerVersionStatus.count({ where: { userId: u.id } })).toBe(0);
    expect(events).toHaveLength(0);
    const ok = await importScores(
      { db: s.db.prisma, catalogue: s.app.catalogue, events: s.app.events },
      { userId: u.id, version: '33', source: 'ROWS', rows },
    );
    expect(ok.updatedCount).toBe(30);
    expect(events).toEqual([
      { userId: u.id, version: '33', batchId: ok.batchId, chartIds: expect.any(Array), exSteps: expect.any(Array) },
    ]);
  });

  it('imports every tool format (Reflux with title corrections, daken counter, result techo) and normalized rows', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const voidA = s.app.catalogue.find('VOID', 'SP', 'ANOTHER')!;
    const other = charts().find((c) => c.difficulty === 'HYPER')!;
    const third = charts().find((c) => c.difficulty === 'ANOTHER' && c.id !== voidA.id)!;
    const reflux = [
      [
        'title',
        'Type',
        'Label',
        'SPH Lamp',
        'SPH EX Score',
        'SPH Miss Count',
        'SPA Lamp',
        'SPA EX Score',
        'SPA Miss Count',
      ].join('\t'),
      ['VØID', 'x', 'y', 'NP', '0', '-', 'HC', String(voidA.notes), '7'].join('\t'),
    ].join('\n');
    const r = ok(await s.gql(IMPORT_CSV, { userId: u.id, version: 'INF', csv: reflux }, token)).importScoresCsv;
    expect(r).toMatchObject({ format: 'reflux', updatedCount: 1, notFound: [] });
    const daken = [
      'LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),Last Played',
      `${other.level},"${other.title.replace(/"/g, '""')}",SPH,F-COMBO,${other.notes},50,0,x,y,2024-05-06 07:08`,
    ].join('\n');
    expect(
      ok(await s.gql(IMPORT_CSV, { userId: u.id, version: 'INF', csv: daken }, token)).importScoresCsv,
    ).toMatchObject({ format: 'daken_counter', updatedCount: 1 });
    const techo = [
      'バージョン,曲名,難易度,クリアタイプ,スコア,ミスカウント,最終プレイ日時',
      `INFINITAS,"${third.title.replace(/"/g, '""')}",ANOTHER,EXH-CLEAR,${third.notes},3,20240102-030405`,
    ].join('\n');
    expect(
      ok(await s.gql(IMPORT_CSV, { userId: u.id, version: 'INF', csv: techo }, token)).importScoresCsv,
    ).toMatchObject({ format: 'result_techo', updatedCount: 1 });
    const rows = ok(
      await s.gql(
        `mutation($u: ID!, $rows: [ScoreRowInput!]!) { importScores(userId: $u, version: "INF", rows: $rows) { updatedCount notFound { title } problems { line column reason } } }`,
        {
          u: u.id,
          rows: [
            {
              title: third.title,
              difficulty: 'ANOTHER',
              exScore: third.notes + 10,
              clearState: 'EX HARD CLEAR',
              missCount: 2,
              lastPlayed: '2024-02-01 00:00',
            },
            { title: 'No Such Song', difficulty: 'ANOTHER', exScore: 100, clearState: 'CLEAR' },
            { title: third.title, difficulty: 'ANOTHER', exScore: third.notes * 2 + 1, clearState: 'CLEAR' },
            { title: third.title, difficulty: 'ANOTHER', exScore: 1, clearState: 'SUPER' },
          ],
        },
        token,
      ),
    ).importScores;
    expect(rows.updatedCount).toBe(1);
    expect(rows.notFound).toEqual([{ title: 'No Such Song' }]);
    expect(rows.problems.map((p: any) => [p.line, p.column])).toEqual([
      [4, 'clearState'],
      [3, 'exScore'],
    ]);
    const bests = await s.db.prisma.bestScore.findMany({ where: { userId: u.id, version: 'INF' } });
    expect(bests.map((b) => b.chartId).sort()).toEqual([voidA.id, other.id, third.id].sort());
  });

  it('refuses writes for another user and unknown formats', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const v = await aPublicPlayer(s.db.prisma);
    const res = await s.gql(IMPORT_CSV, { userId: u.id, version: '33', csv: 'x' }, await s.tokenFor(v.id));
    expect(res.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const bad = await s.gql(IMPORT_CSV, { userId: u.id, version: '33', csv: 'a,b\n1,2' }, await s.tokenFor(u.id));
    expect(bad.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const badV = await s.gql(IMPORT_CSV, { userId: u.id, version: '99', csv: 'a,b\n1,2' }, await s.tokenFor(u.id));
    expect(badV.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const mismatch = await s.gql(
      IMPORT_CSV,
      { userId: u.id, version: 'INF', csv: fs.readFileSync(SAMPLE, 'utf8') },
      await s.tokenFor(u.id),
    );
    expect(mismatch.body.errors![0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
      message: expect.stringContaining('INF takes Reflux'),
    });
    expect(await s.db.prisma.importBatch.count({ where: { userId: u.id } })).toBe(0);
  });

  it('deleting a batch recomputes bests and the totals of later batches', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const set = charts()
      .filter((c) => c.level === 12 && c.difficulty === 'ANOTHER')
      .slice(0, 10);
    const csv1 = currentLayoutCsv(
      new Map(set.map((c) => [c.title, { ANOTHER: { ex: Math.floor(c.notes * 1.5), lamp: 'CLEAR', miss: 30 } }])),
      '2025-03-01 10:00',
    );
    const csv2 = currentLayoutCsv(
      new Map(
        set
          .slice(0, 5)
          .map((c) => [c.title, { ANOTHER: { ex: Math.floor(c.notes * 1.7), lamp: 'HARD CLEAR', miss: 10 } }]),
      ),
      '2025-03-02 10:00',
    );
    const b1 = ok(await s.gql(IMPORT_CSV, { userId: u.id, version: '33', csv: csv1 }, token)).importScoresCsv;
    const b2 = ok(await s.gql(IMPORT_CSV, { userId: u.id, version: '33', csv: csv2 }, token)).importScoresCsv;
    expect(b2.previousTotalBpi).toBe(b1.newTotalBpi);
    const del = await s.gql(
      `mutation($u: ID!, $b: ID!) { deleteBatch(userId: $u, batchId: $b) { batchId message } }`,
      { u: u.id, b: b1.batchId },
      token,
    );
    expect(ok(del).deleteBatch.message).toBe('Batch deleted successfully.');
    const later = await s.db.prisma.importBatch.findUniqueOrThrow({ where: { id: b2.batchId } });
    expect(later.previousTotalBpi).toBeNull(); // now the first batch: no previous total
    expect(later.totalBpi).toBeLessThanOrEqual(b2.newTotalBpi);
    expect(await s.db.prisma.bestScore.count({ where: { userId: u.id } })).toBe(5);
    const status = await s.db.prisma.playerVersionStatus.findUniqueOrThrow({
      where: { userId_version: { userId: u.id, version: '33' } },
    });
    expect(status).toMatchObject({ totalBpi: later.totalBpi, playedCount: 5 });
    // recomputeAll (definitions job) agrees with the incremental totals
    await recomputeAll(s.db.prisma, s.app.catalogue, '33');
    expect(
      (
        await s.db.prisma.playerVersionStatus.findUniqueOrThrow({
          where: { userId_version: { userId: u.id, version: '33' } },
        })
      ).totalBpi,
    ).toBe(later.totalBpi);
  });

  it('migrates the legacy export idempotently', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const [a, b] = charts()
      .filter((c) => c.difficulty === 'ANOTHER')
      .slice(0, 2);
    const data = JSON.stringify({
      '32': {
        scoresHistory: [
          { title: a.title, difficulty: 'another', exScore: a.notes, updatedAt: '2024-01-01T10:00:00Z' },
          { title: a.title, difficulty: 'another', exScore: a.notes + 50, updatedAt: '2024-01-05T10:00:00Z' },
          { title: b.title, difficulty: 'another', exScore: b.notes, updatedAt: '2024-01-05T11:00:00Z' },
          { title: 'Gone', difficulty: 'another', exScore: 100, updatedAt: '2024-01-05T11:00:00Z' },
        ],
        scores: { x: { title: a.title, difficulty: 'another', clearState: 4, missCount: 9 } },
      },
    });
    const m = `mutation($u: ID!, $d: String!) { migrateLegacyScores(userId: $u, data: $d) { importedVersions totalProcessed batchCount notFound } }`;
    const r1 = ok(await s.gql(m, { u: u.id, d: data }, token)).migrateLegacyScores;
    expect(r1).toEqual({ importedVersions: ['32'], totalProcessed: 3, batchCount: 2, notFound: 1 });
    const snapshot = async () =>
      (await s.db.prisma.bestScore.findMany({ where: { userId: u.id }, orderBy: { chartId: 'asc' } })).map((x) => [
        x.chartId,
        x.exScore,
        x.clearLamp,
        x.missCount,
      ]);
    const before = await snapshot();
    expect(before).toContainEqual([a.id, a.notes + 50, 'HARD_CLEAR', 9]);
    expect(ok(await s.gql(m, { u: u.id, d: data }, token)).migrateLegacyScores).toEqual(r1);
    expect(await snapshot()).toEqual(before);
    expect(await s.db.prisma.score.count({ where: { userId: u.id } })).toBe(3);
    // daily trend: every calendar day from the first to the last play (JST), gaps carry the total
    const h = ok(
      await s.gql(
        `query($id: ID!) { user(id: $id) { totalBpiHistory(version: "32") { date updated totalBpi } weekly: totalBpiHistory(version: "32", groupBy: "week") { date updated } } }`,
        { id: u.id },
      ),
    ).user;
    expect(h.totalBpiHistory.map((p: any) => [p.date, p.updated])).toEqual([
      ['2024-01-01', 1],
      ['2024-01-02', 0],
      ['2024-01-03', 0],
      ['2024-01-04', 0],
      ['2024-01-05', 2],
    ]);
    expect(h.totalBpiHistory[1].totalBpi).toBe(h.totalBpiHistory[0].totalBpi);
    expect(h.weekly).toEqual([{ date: '2024-01-01', updated: 3 }]);
  });

  it('serves the other reads: as-of, all difficulties, song history, best ever, version comparison and summary, period details', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    await s.tokenFor(u.id);
    const [a, b] = charts().filter((c) => c.difficulty === 'ANOTHER' && c.level === 12);
    const imp = (version: string, ex: number, at: string, list = [a]) =>
      importScores(
        { db: s.db.prisma, catalogue: s.app.catalogue },
        {
          userId: u.id,
          version,
          source: 'ROWS',
          rows: list.map((c, i) => ({
            line: i + 1,
            title: c.title,
            difficulty: c.difficulty,
            exScore: Math.floor(c.notes * ex),
            clearLamp: 'CLEAR' as const,
            missCount: 10,
            lastPlayed: at,
          })),
        },
      );
    await imp('32', 1.8, '2024-05-01 12:00');
    const first33 = await imp('33', 1.5, '2025-05-01 23:30', [a, b]); // JST 2025-05-01
    const cut = new Date();
    await new Promise((r) => setTimeout(r, 20));
    await imp('33', 1.6, '2025-05-02 08:00');
    const q = ok(
      await s.gql(
        `query($id: ID!, $asOf: DateTimeISO, $song: ID!) { user(id: $id) {
         now: scores(version: "33") { totalCount edges { node { chartId exScore } } }
         then: scores(version: "33", asOf: $asOf) { edges { node { chartId exScore } } }
         allDifficultyScores { totalCount edges { node { chartId version } } }
         songHistory(songId: $song) { version exScore }
         bestEver(currentVersion: "33") { chartId bestExScore bestVersion }
         bestEverExcl: bestEver(currentVersion: "33", excludeCurrent: true) { chartId bestVersion }
         versionComparison(currentVersion: "33", targetVersion: "32") { chartId exDiff current { exScore } previous { exScore } }
         versionSummary(version: "33") { compareVersion compareVersionLabel entries { chartId } }
         day: scoreDetails(version: "33", date: "2025-05-02", unit: "day", groupedBy: "playedAt") { scores { chartId exDiff previous { exScore } current { exScore } } totalBpi }
         month: scoreDetails(version: "33", date: "2025-05-15", unit: "month", groupedBy: "playedAt") { scores { chartId previous { exScore } } }
       } }`,
        { id: u.id, asOf: cut.toISOString(), song: a.songId },
      ),
    ).user;
    const exOf = (list: any[], id: number) => list.find((e: any) => e.node.chartId === id)?.node.exScore;
    expect(q.now.totalCount).toBe(2);
    expect(exOf(q.now.edges, a.id)).toBe(Math.floor(a.notes * 1.6));
    expect(exOf(q.then.edges, a.id)).toBe(Math.floor(a.notes * 1.5));
    expect(q.allDifficultyScores.totalCount).toBe(2);
    expect(q.songHistory.map((h: any) => h.version)).toEqual(expect.arrayContaining(['32', '33']));
    expect(q.bestEver.find((e: any) => e.chartId === a.id)).toMatchObject({
      bestExScore: Math.floor(a.notes * 1.8),
      bestVersion: '32',
    });
    expect(q.bestEverExcl.find((e: any) => e.chartId === b.id)).toBeUndefined();
    expect(q.versionComparison.find((e: any) => e.chartId === a.id)).toMatchObject({
      exDiff: Math.floor(a.notes * 1.6) - Math.floor(a.notes * 1.8),
    });
    expect(q.versionComparison.find((e: any) => e.chartId === b.id)).toMatchObject({ previous: null, exDiff: null }); // one side missing: null (the reference omits the difference)
    expect(q.versionSummary).toMatchObject({ compareVersion: '32', compareVersionLabel: '32 Pinky Crush' });
    expect(q.day.scores).toEqual([
      {
        chartId: a.id,
        exDiff: Math.floor(a.notes * 1.6) - Math.floor(a.notes * 1.5),
        previous: { exScore: Math.floor(a.notes * 1.5) },
        current: { exScore: Math.floor(a.notes * 1.6) },
      },
    ]);
    expect(q.month.scores.map((e: any) => [e.chartId, e.previous])).toEqual(
      expect.arrayContaining([
        [a.id, null],
        [b.id, null],
      ]),
    );
    expect(first33.batchId).toEqual(expect.any(String));
    const bad = await s.gql(`query($id: ID!) { user(id: $id) { scoreDetails(date: "2025-13-40") { label } } }`, {
      id: u.id,
    });
    expect(bad.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('reports rivals overtaken in a batch to the owner only', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const rival = await aPublicPlayer(s.db.prisma);
    const hidden = await aPrivatePlayer(s.db.prisma); // followed without approval: not a rival
    await follows(s.db.prisma, me, rival);
    await follows(s.db.prisma, me, hidden);
    const [c] = charts().filter((x) => x.difficulty === 'ANOTHER' && x.level === 12);
    const row = (ex: number) => [
      {
        line: 1,
        title: c.title,
        difficulty: c.difficulty,
        exScore: ex,
        clearLamp: 'CLEAR' as const,
        missCount: null,
        lastPlayed: null,
      },
    ];
    const deps = { db: s.db.prisma, catalogue: s.app.catalogue };
    await importScores(deps, { userId: rival.id, version: '33', source: 'ROWS', rows: row(c.notes + 100) });
    await importScores(deps, { userId: hidden.id, version: '33', source: 'ROWS', rows: row(c.notes + 100) });
    await importScores(deps, { userId: me.id, version: '33', source: 'ROWS', rows: row(c.notes) });
    const up = await importScores(deps, { userId: me.id, version: '33', source: 'ROWS', rows: row(c.notes + 200) });
    const q = `query($id: ID!, $b: ID!) { user(id: $id) { batch(id: $b) { rivalsOvertaken { rivalUserId count } scores { overtaken { rivalUserId rivalScore myNewScore myOldScore } } } } }`;
    const own = ok(await s.gql(q, { id: me.id, b: up.batchId }, await s.tokenFor(me.id))).user.batch;
    expect(own.rivalsOvertaken).toEqual([{ rivalUserId: rival.id, count: 1 }]);
    expect(own.scores[0].overtaken).toEqual([
      { rivalUserId: rival.id, rivalScore: c.notes + 100, myNewScore: c.notes + 200, myOldScore: c.notes },
    ]);
    const other = ok(await s.gql(q, { id: me.id, b: up.batchId }, await s.tokenFor(rival.id))).user.batch;
    expect(other.rivalsOvertaken).toEqual([]);
  });

  it("hides a private player's scores from strangers, shows them to approved followers", async () => {
    const p = await aPrivatePlayer(s.db.prisma);
    const stranger = await aPublicPlayer(s.db.prisma);
    const fan = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, fan, p, { approved: true });
    const q = `query($id: ID!) { user(id: $id) { scores { totalCount } batches { totalCount } } }`;
    const denied = await s.gql(q, { id: p.id }, await s.tokenFor(stranger.id));
    expect(denied.body.errors![0].extensions.code).toBe('FORBIDDEN');
    expect(JSON.stringify(denied.body.data ?? {})).not.toContain('totalCount');
    expect(ok(await s.gql(q, { id: p.id }, await s.tokenFor(fan.id))).user).toEqual({
      scores: { totalCount: 0 },
      batches: { totalCount: 0 },
    });
  });

  it('serialises concurrent imports of one player (per-field bests stay right)', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const [c] = charts().filter((x) => x.difficulty === 'HYPER');
    const deps = { db: s.db.prisma, catalogue: s.app.catalogue };
    const row = (ex: number, lamp: 'CLEAR' | 'HARD_CLEAR', miss: number) => [
      {
        line: 1,
        title: c.title,
        difficulty: c.difficulty,
        exScore: ex,
        clearLamp: lamp,
        missCount: miss,
        lastPlayed: null,
      },
    ];
    await Promise.all([
      importScores(deps, { userId: u.id, version: '33', source: 'ROWS', rows: row(c.notes + 10, 'CLEAR', 30) }),
      importScores(deps, { userId: u.id, version: '33', source: 'ROWS', rows: row(c.notes, 'HARD_CLEAR', 20) }),
    ]);
    const best = await s.db.prisma.bestScore.findUniqueOrThrow({
      where: { userId_version_chartId: { userId: u.id, version: '33', chartId: c.id } },
    });
    expect(best).toMatchObject({ exScore: c.notes + 10, clearLamp: 'HARD_CLEAR', missCount: 20 });
  });

  it('recomputeAll re-derives the totals from changed definitions; a best’s BPI follows the catalogue', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const c = charts().find(
      (x) => x.level === 12 && x.definition?.wr && x.definition.kaidenAvg && x.difficulty === 'ANOTHER',
    )!;
    const ex = Math.floor((c.definition!.kaidenAvg! + c.definition!.wr!) / 2); // between the anchors: BPI in (0, 100)
    await importScores(
      { db: s.db.prisma, catalogue: s.app.catalogue },
      {
        userId: u.id,
        version: '33',
        source: 'ROWS',
        rows: [
          {
            line: 1,
            title: c.title,
            difficulty: c.difficulty,
            exScore: ex,
            clearLamp: 'CLEAR',
            missCount: null,
            lastPlayed: null,
          },
        ],
      },
    );
    const BEST = `query($u: ID!) { user(id: $u) { scores(version: "33", first: 100) { edges { node { chartId bpi } } } } }`;
    const shownBpi = async () =>
      (expectNoErrors(await s.gql(BEST, { u: u.id })) as any).user.scores.edges.find(
        (e: any) => e.node.chartId === c.id,
      ).node.bpi;
    const before = await shownBpi();
    expect(before).toBe(safeBpi(ex, c.definition!));
    const total0 = (
      await s.db.prisma.playerVersionStatus.findUniqueOrThrow({
        where: { userId_version: { userId: u.id, version: '33' } },
      })
    ).totalBpi;
    const def = c.definition!;
    try {
      // a new release raises the kaiden average: the same EX is worth less
      await s.db.prisma.chartDefinition.update({
        where: { id: def.id },
        data: { kaidenAvg: Math.floor((def.kaidenAvg! + ex) / 2) },
      });
      await s.app.catalogue.load();
      const after = await shownBpi();
      expect(after).toBeLessThan(before);
      expect(after).toBe(safeBpi(ex, s.app.catalogue.chart(c.id)!.definition!));
      const progress: number[] = [];
      const r = await recomputeAll(s.db.prisma, s.app.catalogue, '33', (done) => void progress.push(done));
      expect(r.batches).toBeGreaterThanOrEqual(1);
      expect(progress.at(-1)).toBe(r.users);
      const total1 = (
        await s.db.prisma.playerVersionStatus.findUniqueOrThrow({
          where: { userId_version: { userId: u.id, version: '33' } },
        })
      ).totalBpi;
      expect(total1).toBeLessThanOrEqual(total0);
      // the stored total is the one the import path computes from the current BPIs
      const setIds = totalSetIds(s.app.catalogue, '33');
      expect(total1).toBe(totalOverSet(setIds, new Map([[c.id, after]])).totalBpi);
      // the play keeps the BPI it had when it was imported
      expect((await s.db.prisma.score.findFirstOrThrow({ where: { userId: u.id } })).bpi).toBe(before);
    } finally {
      await s.db.prisma.chartDefinition.update({ where: { id: def.id }, data: { kaidenAvg: def.kaidenAvg } });
      await s.app.catalogue.load();
    }
  });

  describe('REST GET /api/v1/users/{userId}/stats/recommended', () => {
    const entry = {
      type: 'object',
      additionalProperties: false,
      required: [
        'songId',
        'title',
        'notes',
        'bpm',
        'difficulty',
        'difficultyLevel',
        'releasedVersion',
        'logId',
        'exScore',
        'bpi',
        'clearState',
        'missCount',
        'scoreAt',
        'wrScore',
        'kaidenAvg',
        'coef',
      ],
      properties: {
        songId: { type: 'integer' },
        title: { type: 'string' },
        notes: { type: 'integer' },
        bpm: { type: 'string' },
        difficulty: { enum: ['HYPER', 'ANOTHER', 'LEGGENDARIA'] },
        difficultyLevel: { type: 'integer' },
        releasedVersion: { type: ['integer', 'null'] }, // null: the definitions do not say
        logId: { type: 'integer' },
        exScore: { type: 'integer' },
        bpi: { type: 'number' },
        clearState: {
          enum: [
            'FAILED',
            'ASSIST CLEAR',
            'EASY CLEAR',
            'CLEAR',
            'HARD CLEAR',
            'EX HARD CLEAR',
            'FULLCOMBO CLEAR',
            null,
          ],
        }, // null: lamp unknown
        missCount: { type: ['integer', 'null'] },
        scoreAt: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' },
        wrScore: { type: ['integer', 'null'] }, // null: the definition marks it unknown (-1)
        kaidenAvg: { type: ['number', 'null'] },
        coef: { type: 'number' },
      },
    };
    const listSchema = {
      type: 'object',
      additionalProperties: false,
      required: ['data', 'total'],
      properties: { data: { type: 'array', items: entry }, total: { type: 'integer' } },
    };
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['weapons', 'potential'],
      properties: { weapons: listSchema, potential: listSchema },
    };
    const validate = new Ajv({ allErrors: true }).compile(schema);

    it('answers the seed shape (JSON schema), ordered weapons/potential, paged', async () => {
      const u = await aPublicPlayer(s.db.prisma);
      const set = charts()
        .filter((c) => c.level === 12 && c.definition?.wr && c.definition.kaidenAvg)
        .slice(0, 12);
      const csv = currentLayoutCsv(
        new Map(
          set.map((c, i) => [
            c.title,
            { [c.difficulty]: { ex: Math.floor(c.notes * (1.4 + i * 0.03)), lamp: 'HARD CLEAR', miss: i } },
          ]),
        ),
      );
      ok(await s.gql(IMPORT_CSV, { userId: u.id, version: '33', csv }, await s.tokenFor(u.id)));
      const res = await s.get(
        `/api/v1/users/${u.id}/stats/recommended?version=33&level=12&limit=5&offset=0`,
        await s.tokenFor(u.id),
      );
      expect(res.status).toBe(200);
      expect(validate(res.body)).toBe(true);
      expect(validate.errors ?? []).toEqual([]);
      expect(res.body.weapons.total).toBe(12);
      expect(res.body.weapons.data).toHaveLength(5);
      const w = res.body.weapons.data.map((e: any) => e.bpi);
      expect([...w].sort((a: number, b: number) => b - a)).toEqual(w);
      const p = res.body.potential.data.map((e: any) => e.bpi);
      expect([...p].sort((a: number, b: number) => a - b)).toEqual(p);
      expect(p[0]).toBeLessThanOrEqual(w[w.length - 1]);
      expect(res.body.weapons.data[0].clearState).toBe('HARD CLEAR');
      const page2 = await s.get(`/api/v1/users/${u.id}/stats/recommended?version=33&limit=5&offset=10`);
      expect(page2.body.weapons.data).toHaveLength(2);
      // the GraphQL field gives the same numbers
      const g = ok(
        await s.gql(
          `query($id: ID!) { user(id: $id) { recommended(version: "33", level: [12], limit: 5) { weapons { data { chartId } } } } }`,
          { id: u.id },
        ),
      ).user;
      expect(g.recommended.weapons.data.map((e: any) => e.chartId)).toEqual(
        res.body.weapons.data.map((e: any) => e.songId),
      );
    });

    it('403 for a private profile, 400 for out-of-range paging and a bad version, 405 for other methods', async () => {
      const p = await aPrivatePlayer(s.db.prisma);
      const stranger = await aPublicPlayer(s.db.prisma);
      const res = await s.get(`/api/v1/users/${p.id}/stats/recommended`, await s.tokenFor(stranger.id));
      expect(res).toMatchObject({ status: 403, body: { message: 'This profile is set as a private.' } });
      const follower = await aPublicPlayer(s.db.prisma);
      await follows(s.db.prisma, follower, p, { approved: true });
      expect((await s.get(`/api/v1/users/${p.id}/stats/recommended`, await s.tokenFor(follower.id))).status).toBe(200);
      expect((await s.get(`/api/v1/users/${p.id}/stats/recommended`, await s.tokenFor(p.id))).body).toEqual({
        weapons: { data: [], total: 0 },
        potential: { data: [], total: 0 },
      });
      for (const qs of [
        'limit=0',
        'limit=101',
        'offset=-1',
        'limit=abc',
        'version=99',
        'level=10',
        'difficulty=NORMAL',
      ]) {
        const r = await s.get(`/api/v1/users/${stranger.id}/stats/recommended?${qs}`);
        expect([qs, r.status]).toEqual([qs, 400]);
        expect(r.body.message).toEqual(expect.any(String));
        expect(r.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.any(Array) })]));
      }
      const post = await fetch(`${s.url}/api/v1/users/${stranger.id}/stats/recommended`, { method: 'POST' });
      expect(post.status).toBe(405);
    });
  });
});
