/**
 * Provisional charts (issue #28 item 3, docs/imports-provisional.md): charts learned from a
 * player's export hold that player's scores and show in that player's own lists only — never in
 * `songs`, `song`/`chart` by id, the song's chart list, rankings or other players' views — until a
 * definitions import lists them or an administrator adopts them; new titles are capped per import
 * and per player and day (rows past the caps are problems, the rest of the import is kept); a
 * batch deletion removes the provisional charts no one holds any more; the migration merges
 * earlier duplicates into the chart they missed; concurrent imports learning one title make one chart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { importScores, type ImportRow } from '../../../src/modules/scores/import.service';
import { updateDefinitions } from '../../../src/modules/catalogue/definitions.service';
import { aPublicPlayer, anAdmin, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { describeIf } from '../../helpers/skip';

const ok = (res: { status: number; body: { data?: any; errors?: any[] } }): any => expectNoErrors(res);

/** A row of a chart the export names with its level (learned when the catalogue lacks it). */
const row = (line: number, title: string, exScore: number, difficulty: ImportRow['difficulty'] = 'ANOTHER') => ({
  line,
  title,
  playStyle: 'SP' as const,
  difficulty,
  level: 10,
  exScore,
  clearLamp: 'CLEAR' as const,
  missCount: 5,
  lastPlayed: '2025-06-01 21:30',
});

describe('provisional charts', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const deps = (newTitles = { perImport: 200, perDay: 500 }) => ({
    db: s.db.prisma,
    catalogue: s.app.catalogue,
    caches: s.app.caches,
    config: { newTitles },
  });
  const importRows = (userId: string, rows: ImportRow[], limits?: { perImport: number; perDay: number }) =>
    importScores(deps(limits), { userId, version: '33', source: 'ROWS', rows });
  const songsTitled = async (title: string) =>
    ok(await s.gql(`query($t: String) { songs(filter: { title: $t }) { totalCount } }`, { t: title })).songs.totalCount;
  const ownList = async (userId: string, token?: string) =>
    ok(
      await s.gql(
        `query($id: ID!) { user(id: $id) { allDifficultyScores(first: 50) { edges { node { title } } } } }`,
        { id: userId },
        token,
      ),
    ).user.allDifficultyScores.edges.map((e: any) => e.node.title);

  it("holds its player's scores in that player's own lists only; a second player's rows meet the same chart", async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const b = await aPublicPlayer(s.db.prisma);
    const chartCount = s.app.catalogue.size;
    const r = await importRows(a.id, [row(1, 'Only Learned Tune', 1500)]);
    expect(r).toMatchObject({ updatedCount: 1, learnedCharts: 1, problems: [] });
    const chart = s.app.catalogue.find('Only Learned Tune', 'SP', 'ANOTHER')!;
    expect(chart.provisional).toBe(true);
    // not public: no song in the catalogue, no chart by id, no public chart counted
    expect(await songsTitled('Only Learned Tune')).toBe(0);
    expect(ok(await s.gql(`{ chart(id: "${chart.id}") { databaseId } }`)).chart).toBeNull();
    expect(ok(await s.gql(`{ song(id: "${chart.songId}") { databaseId } }`)).song).toBeNull();
    expect(ok(await s.gql(`{ serverInfo { chartCount } }`)).serverInfo.chartCount).toBe(chartCount);
    // no ranking of it
    const ranking = await s.gql(`{ songRanking(chartId: "${chart.id}", first: 5) { __typename } }`);
    expect(ranking.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // the player's own view lists it; another viewer's does not
    expect(await ownList(a.id, await s.tokenFor(a.id))).toEqual(['Only Learned Tune']);
    expect(await ownList(a.id, await s.tokenFor(b.id))).toEqual([]);
    // B's export names the same title with other spacing ("Only  Learned Tune "): same chart, nothing learned
    const rb = await importRows(b.id, [row(1, 'Only  Learned Tune ', 1400)]);
    expect(rb).toMatchObject({ updatedCount: 1, learnedCharts: 0, problems: [] });
    const bBest = await s.db.prisma.bestScore.findFirstOrThrow({ where: { userId: b.id } });
    expect(bBest.chartId).toBe(chart.id);
    expect(await s.db.prisma.song.count({ where: { title: { startsWith: 'Only' } } })).toBe(1);
  });

  it("another player's play on a provisional chart stays out of a follower's timeline (unless the follower holds it)", async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const b = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, b, a);
    const bpi = [...s.app.catalogue.charts()].find((c) => c.definition && c.difficulty === 'HYPER')!;
    await importRows(a.id, [
      row(1, 'Timeline Secret', 1000),
      { ...row(2, bpi.title, 100), difficulty: bpi.difficulty, level: bpi.level },
    ]);
    const secret = s.app.catalogue.find('Timeline Secret', 'SP', 'ANOTHER')!.id;
    const timeline = async () =>
      ok(
        await s.gql(
          `query($o: ID!) { timeline(userId: $o, first: 20) { edges { node { chartId } } } }`,
          { o: b.id },
          await s.tokenFor(b.id),
        ),
      ).timeline.edges.map((e: any) => Number(e.node.chartId));
    expect(await timeline()).toEqual([bpi.id]);
    // once B holds the chart too, A's play on it shows
    await importRows(b.id, [row(1, 'Timeline Secret', 900)]);
    expect((await timeline()).sort((x: number, y: number) => x - y)).toEqual([bpi.id, secret].sort((x, y) => x - y));
  });

  it('caps new titles per import and per player in 24 hours; rows past them are problems, the rest is kept', async () => {
    const p = await aPublicPlayer(s.db.prisma);
    const bpi = [...s.app.catalogue.charts()].find((c) => c.definition && c.difficulty === 'ANOTHER')!;
    const limits = { perImport: 2, perDay: 3 };
    // import 1: T1, T2, T3 new (one row each) + one BPI chart row. Cap per import 2: T1 and T2
    // taken, T3 refused (line 4); the BPI row is kept → 3 plays stored.
    const r1 = await importRows(
      p.id,
      [
        row(1, 'Cap T1', 1000),
        row(2, 'Cap T2', 1000),
        { ...row(3, bpi.title, 100), difficulty: bpi.difficulty, level: bpi.level },
        row(4, 'Cap T3', 1000),
      ],
      limits,
    );
    expect(r1).toMatchObject({ updatedCount: 3, learnedCharts: 2 });
    expect(r1.problems).toEqual([
      expect.objectContaining({
        line: 4,
        title: 'Cap T3',
        severity: 'error',
        reason: 'new title not taken: at most 2 new titles per import',
      }),
    ]);
    // import 2, same day: T1 again (held: not new), T3 and T4 new. The day has 3 − 2 = 1 left:
    // T3 taken (first in file order), T4 refused (line 3); T1's better score is kept → 2 plays.
    const r2 = await importRows(p.id, [row(1, 'Cap T1', 1200), row(2, 'Cap T3', 900), row(3, 'Cap T4', 900)], limits);
    expect(r2).toMatchObject({ updatedCount: 2, learnedCharts: 1 });
    expect(r2.problems).toEqual([
      expect.objectContaining({
        line: 3,
        title: 'Cap T4',
        reason: 'new title not taken: at most 3 new titles per player in 24 hours (2 already)',
      }),
    ]);
    expect(s.app.catalogue.find('Cap T4', 'SP', 'ANOTHER')).toBeUndefined();
    expect(await s.db.prisma.song.count({ where: { title: { startsWith: 'Cap T' } } })).toBe(3);
  });

  it('a batch deletion removes the provisional charts no one else holds', async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const b = await aPublicPlayer(s.db.prisma);
    const ra = await importRows(a.id, [row(1, 'Del Shared', 1000), row(2, 'Del Mine', 1000)]);
    const ra2 = await importRows(a.id, [row(1, 'Del Twice', 1000)]);
    const ra3 = await importRows(a.id, [row(1, 'Del Twice', 1100)]);
    const rb = await importRows(b.id, [row(1, 'Del Shared', 900)]);
    const id = (t: string) => s.app.catalogue.find(t, 'SP', 'ANOTHER')!.id;
    const [shared, mine, twice] = [id('Del Shared'), id('Del Mine'), id('Del Twice')];
    const token = await s.tokenFor(a.id);
    const exists = async (chartId: number) => (await s.db.prisma.chart.count({ where: { id: chartId } })) === 1;
    ok(
      await s.gql(
        `mutation($u: ID!, $b: ID!) { deleteBatch(userId: $u, batchId: $b) { batchId } }`,
        { u: a.id, b: ra.batchId },
        token,
      ),
    );
    // Del Mine: A's only → gone (song too); Del Shared: B still holds it → kept
    expect(await exists(mine)).toBe(false);
    expect(await s.db.prisma.song.count({ where: { title: 'Del Mine' } })).toBe(0);
    expect(await exists(shared)).toBe(true);
    expect(s.app.catalogue.chart(mine)).toBeUndefined();
    // Del Twice: another batch of A still holds it → kept; deleting that one too removes it
    ok(
      await s.gql(
        `mutation($u: ID!, $b: ID!) { deleteBatch(userId: $u, batchId: $b) { batchId } }`,
        { u: a.id, b: ra3.batchId },
        token,
      ),
    );
    expect(await exists(twice)).toBe(true);
    ok(
      await s.gql(
        `mutation($u: ID!, $b: ID!) { deleteBatch(userId: $u, batchId: $b) { batchId } }`,
        { u: a.id, b: ra2.batchId },
        token,
      ),
    );
    expect(await exists(twice)).toBe(false);
    ok(
      await s.gql(
        `mutation($u: ID!, $b: ID!) { deleteBatch(userId: $u, batchId: $b) { batchId } }`,
        { u: b.id, b: rb.batchId },
        await s.tokenFor(b.id),
      ),
    );
    expect(await exists(shared)).toBe(false);
  });

  it('an administrator lists, adopts (scores kept, public from then on) and purges them; other ids are refused', async () => {
    const p = await aPublicPlayer(s.db.prisma);
    const admin = await s.tokenFor((await anAdmin(s.db.prisma)).id);
    await importRows(p.id, [row(1, 'Adopt Me', 1000), row(2, 'Purge Me', 1000)]);
    const adopt = s.app.catalogue.find('Adopt Me', 'SP', 'ANOTHER')!.id;
    const purge = s.app.catalogue.find('Purge Me', 'SP', 'ANOTHER')!.id;
    const listed = ok(
      await s.gql(`{ provisionalCharts(limit: 1000) { chartId title holders } }`, {}, admin),
    ).provisionalCharts;
    expect(listed).toEqual(
      expect.arrayContaining([
        { chartId: adopt, title: 'Adopt Me', holders: 1 },
        { chartId: purge, title: 'Purge Me', holders: 1 },
      ]),
    );
    // a player is refused
    const refused = await s.gql(`{ provisionalCharts { chartId } }`, {}, await s.tokenFor(p.id));
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    // a non-provisional id in the list: nothing changes
    const bpi = [...s.app.catalogue.charts()][0];
    const bad = await s.gql(
      `mutation($ids: [ID!]!) { adoptProvisionalCharts(chartIds: $ids) { count } }`,
      { ids: [String(adopt), String(bpi.id)] },
      admin,
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors[0].message).toBe(`Not provisional charts: ${bpi.id}`);
    expect(await songsTitled('Adopt Me')).toBe(0);

    const adopted = ok(
      await s.gql(
        `mutation($ids: [ID!]!) { adoptProvisionalCharts(chartIds: $ids) { chartIds count } }`,
        { ids: [String(adopt)] },
        admin,
      ),
    ).adoptProvisionalCharts;
    expect(adopted).toEqual({ chartIds: [adopt], count: 1 });
    expect(await songsTitled('Adopt Me')).toBe(1);
    expect(s.app.catalogue.chart(adopt)?.provisional).toBe(false);
    expect(await s.db.prisma.bestScore.count({ where: { chartId: adopt, userId: p.id } })).toBe(1);

    const purged = ok(
      await s.gql(
        `mutation($ids: [ID!]!) { purgeProvisionalCharts(chartIds: $ids) { chartIds count } }`,
        { ids: [String(purge)] },
        admin,
      ),
    ).purgeProvisionalCharts;
    expect(purged).toEqual({ chartIds: [purge], count: 1 });
    expect(await s.db.prisma.score.count({ where: { chartId: purge } })).toBe(0);
    expect(await s.db.prisma.song.count({ where: { title: 'Purge Me' } })).toBe(0);
    expect(s.app.catalogue.chart(purge)).toBeUndefined();
  });

  it('a definitions import that lists a provisional chart (other spacing) makes it ordinary, keeping its scores', async () => {
    const p = await aPublicPlayer(s.db.prisma);
    await importRows(p.id, [row(1, 'Listed Later', 1000)]);
    const learned = s.app.catalogue.find('Listed Later', 'SP', 'ANOTHER')!;
    // a demo-prefixed release: listed charts only, the demo catalogue stays (src/db/definitions.ts)
    const { report } = await updateDefinitions(s.app, {
      version: 'demo-2',
      body: [{ title: 'Listed  Later ', difficulty: '4', wr: 2000, avg: 1500, notes: 1100, difficultyLevel: '11' }],
    });
    expect(report).toMatchObject({ chartsAdopted: 1, songsCreated: 0, chartsCreated: 0 });
    const now = s.app.catalogue.chart(learned.id)!;
    expect(now).toMatchObject({ provisional: false, notes: 1100 });
    expect(now.definition).not.toBeNull();
    expect(await songsTitled('Listed')).toBe(1);
    expect(await s.db.prisma.bestScore.count({ where: { chartId: learned.id, userId: p.id } })).toBe(1);
  });

  it('the migration merges a duplicate learned before titles were normalised into the chart it missed', async () => {
    const db = s.db.prisma;
    const p = await aPublicPlayer(db);
    const q = await aPublicPlayer(db);
    // pre-migration shape: the definitions' song "Merge Me " (ordinary SP ANOTHER) and a learned
    // duplicate "Merge Me" (provisional SP ANOTHER and SP NORMAL)
    const real = await db.song.create({ data: { title: 'Merge Me ' } });
    const realA = await db.chart.create({
      data: { songId: real.id, playStyle: 'SP', difficulty: 'ANOTHER', level: 12, notes: 1000 },
    });
    const dup = await db.song.create({ data: { title: 'Merge Me', provisional: true } });
    const dupA = await db.chart.create({
      data: { songId: dup.id, playStyle: 'SP', difficulty: 'ANOTHER', level: 12, provisional: true },
    });
    const dupN = await db.chart.create({
      data: { songId: dup.id, playStyle: 'SP', difficulty: 'NORMAL', level: 5, provisional: true },
    });
    const batch = async (userId: string) =>
      db.importBatch.create({ data: { userId, version: '33', source: 'ROWS', rowCount: 1 } });
    const play = async (
      userId: string,
      chartId: number,
      exScore: number,
      clearLamp: 'CLEAR' | 'EASY_CLEAR',
      missCount: number,
      at: string,
    ) => {
      const b = await batch(userId);
      const sc = await db.score.create({
        data: { userId, chartId, version: '33', batchId: b.id, exScore, clearLamp, missCount, playedAt: new Date(at) },
      });
      await db.bestScore.create({
        data: {
          userId,
          version: '33',
          chartId,
          exScore,
          exScoreId: sc.id,
          clearLamp,
          clearLampId: sc.id,
          missCount,
          missCountId: sc.id,
          playedAt: sc.playedAt,
        },
      });
      return sc.id;
    };
    // P on the real chart: EX 1400, CLEAR, 10 misses (06-01); on the duplicate: EX 1500, EASY_CLEAR, 3 misses (06-02)
    const r1 = await play(p.id, realA.id, 1400, 'CLEAR', 10, '2025-06-01T12:00:00Z');
    const d1 = await play(p.id, dupA.id, 1500, 'EASY_CLEAR', 3, '2025-06-02T12:00:00Z');
    // Q on the duplicate only
    const q1 = await play(q.id, dupA.id, 1200, 'CLEAR', 20, '2025-06-03T12:00:00Z');
    await play(q.id, dupN.id, 800, 'CLEAR', 2, '2025-06-03T12:00:00Z');

    const sql = fs.readFileSync(
      path.resolve(__dirname, '../../../prisma/migrations/20261127034600_merge_learned_duplicates/migration.sql'),
      'utf8',
    );
    await db.$executeRawUnsafe(sql);

    // P's bests merged field by field: EX 1500 (dup play d1) > 1400; lamp CLEAR (real play r1) > EASY_CLEAR;
    // misses 3 (d1) < 10; play time the later one, 06-02
    const pb = await db.bestScore.findMany({ where: { userId: p.id } });
    expect(pb).toHaveLength(1);
    expect(pb[0]).toMatchObject({
      chartId: realA.id,
      exScore: 1500,
      exScoreId: d1,
      clearLamp: 'CLEAR',
      clearLampId: r1,
      missCount: 3,
      missCountId: d1,
      playedAt: new Date('2025-06-02T12:00:00Z'),
    });
    // Q's best moves as it is; the NORMAL chart the real song lacked moves to it (still provisional)
    const qb = await db.bestScore.findMany({ where: { userId: q.id }, orderBy: { exScore: 'desc' } });
    expect(qb.map((b) => [b.chartId, b.exScore, b.exScoreId])).toEqual([
      [realA.id, 1200, q1],
      [dupN.id, 800, expect.any(Number)],
    ]);
    expect(await db.chart.findUnique({ where: { id: dupN.id } })).toMatchObject({ songId: real.id, provisional: true });
    // every play on the duplicate ANOTHER is now on the real chart (P's two, Q's one); the duplicate is gone
    expect(await db.score.count({ where: { chartId: realA.id } })).toBe(3);
    expect(await db.chart.count({ where: { id: dupA.id } })).toBe(0);
    expect(await db.song.count({ where: { id: dup.id } })).toBe(0);
    // a second run finds nothing to merge
    await db.$executeRawUnsafe(sql);
    expect(await db.score.count({ where: { chartId: realA.id } })).toBe(3);
  });
});

const onPostgres = !!process.env.DATABASE_URL;
describeIf(onPostgres, 'true concurrency needs PostgreSQL (PGlite runs one transaction at a time)')(
  'provisional charts under concurrent imports (PostgreSQL)',
  () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer();
    });
    afterAll(() => s.close());

    it('imports of one and of different players learning one title at once make one chart and all succeed', async () => {
      const [a, b, c] = [
        await aPublicPlayer(s.db.prisma),
        await aPublicPlayer(s.db.prisma),
        await aPublicPlayer(s.db.prisma),
      ];
      const deps = { db: s.db.prisma, catalogue: s.app.catalogue, caches: s.app.caches };
      const imp = (userId: string, ex: number) =>
        importScores(deps, { userId, version: '33', source: 'ROWS', rows: [row(1, 'Race Title', ex)] });
      // A twice (serialised by the player's lock), B and C in parallel with A: 4 imports at once
      const reports = await Promise.all([imp(a.id, 1000), imp(a.id, 1100), imp(b.id, 900), imp(c.id, 800)]);
      expect(reports.every((r) => r.problems.length === 0)).toBe(true);
      const charts = await s.db.prisma.chart.findMany({ where: { song: { title: 'Race Title' } } });
      expect(charts).toHaveLength(1);
      expect(charts[0].provisional).toBe(true);
      expect(reports.reduce((n, r) => n + r.learnedCharts, 0)).toBe(1);
      const bests = await s.db.prisma.bestScore.findMany({
        where: { chartId: charts[0].id },
        orderBy: { exScore: 'desc' },
      });
      // A's best is the higher of its two imports (1100), whatever order they ran in
      expect(bests.map((x) => [x.userId, x.exScore])).toEqual([
        [a.id, 1100],
        [b.id, 900],
        [c.id, 800],
      ]);
    });
  },
);
