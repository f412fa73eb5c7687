/**
 * Tachi BATCH-MANUAL through the ordinary import (importScoresCsv): detected by content, good
 * scores stored (judgements kept on the play), bad ones reported by index, a malformed document
 * refused whole with nothing written. Demo catalogue (seeded): "Aurora Drive" and "Binary Drive"
 * are songs 0 and 1 (SP HYPER, ANOTHER); EX maxima are ≥ 1700 (HYPER) and ≥ 2300 (ANOTHER).
 */
import fs from 'node:fs';
import { importDefinitions } from '../../../src/db/definitions';
import { aPublicPlayer } from '../../helpers/factories';
import { describeWithShared, sharedFile } from '../../helpers/shared-data';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

const ok = (res: { status: number; body: { data?: any; errors?: any[] } }): any => expectNoErrors(res);

export const IMPORT = `mutation($u: ID!, $v: GameVersion!, $csv: String!) {
  importScoresCsv(userId: $u, version: $v, csv: $csv) {
    batchId upToDate format rowCount updatedCount skipped newTotalBpi
    notFound { line title difficulty } problems { line column value reason severity }
  }
}`;

/** Written by hand after Tachi's BATCH-MANUAL documentation (its example first, then ours). */
const DOC = {
  meta: { game: 'iidx', playtype: 'SP', service: 'My Service' },
  scores: [
    {
      score: 500,
      lamp: 'HARD CLEAR',
      matchType: 'songTitle',
      identifier: '5.1.1.',
      artist: 'dj nagureo',
      difficulty: 'ANOTHER',
    },
    {
      score: 123,
      lamp: 'FAILED',
      matchType: 'tachiSongID',
      identifier: '1',
      difficulty: 'HYPER',
      comment: 'This score sucked!',
      optional: { bp: 5 },
    },
    {
      score: 1500,
      lamp: 'EASY CLEAR',
      matchType: 'songTitle',
      identifier: 'Aurora Drive',
      difficulty: 'ANOTHER',
      timeAchieved: Date.UTC(2025, 5, 1, 12, 0, 0),
      judgements: { pgreat: 600, great: 300 },
      optional: { bp: 40 },
    },
    {
      score: 1400,
      lamp: 'FULL COMBO',
      matchType: 'songTitle',
      identifier: 'Aurora Drive',
      difficulty: 'ANOTHER',
      timeAchieved: Date.UTC(2025, 5, 2, 12, 0, 0),
      optional: { bp: 0 },
    },
    {
      score: 900,
      lamp: 'CLEAR',
      matchType: 'songTitle',
      identifier: 'Binary Drive',
      difficulty: 'HYPER',
      timeAchieved: Date.UTC(2025, 5, 1, 13, 0, 0),
    },
    { score: 950, lamp: 'PERFECT', matchType: 'songTitle', identifier: 'Binary Drive', difficulty: 'HYPER' },
    { score: 0, lamp: 'NO PLAY', matchType: 'songTitle', identifier: 'Binary Drive', difficulty: 'ANOTHER' },
  ],
};

describe('BATCH-MANUAL import', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const bests = async (userId: string) =>
    (
      await s.db.prisma.bestScore.findMany({
        where: { userId },
        include: { chart: { include: { song: true } } },
        orderBy: { chartId: 'asc' },
      })
    ).map((b) => ({
      title: b.chart.song.title,
      difficulty: b.chart.difficulty,
      exScore: b.exScore,
      clearLamp: b.clearLamp,
      missCount: b.missCount,
    }));

  it('stores the hand-worked bests, reports bad scores by index, keeps judgements', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const r = ok(await s.gql(IMPORT, { u: u.id, v: '33', csv: JSON.stringify(DOC, null, 2) }, token)).importScoresCsv;
    expect(r.format).toBe('batch_manual');
    expect(r.rowCount).toBe(4); // scores 0, 2, 3, 4 pass the parser; 1 and 5 are problems, 6 is unplayed
    expect(r.skipped).toBe(1);
    expect(r.notFound).toEqual([{ line: 1, title: '5.1.1.', difficulty: 'ANOTHER' }]);
    expect(r.problems.map((p: any) => [p.line, p.column, p.severity])).toEqual([
      [2, 'scores[1].identifier', 'error'],
      [6, 'scores[5].lamp', 'error'],
    ]);
    // plays: Aurora 1500 EC (new), Aurora 1400 FC bp 0 (better lamp and misses), Binary 900 CLEAR (new) = 3
    expect(r.updatedCount).toBe(3);
    // Bests per field: Aurora ANOTHER: EX max(1500, 1400) = 1500, lamp FC (> EASY), misses min(40, 0) = 0.
    const got = await bests(u.id);
    expect(got).toEqual(
      expect.arrayContaining([
        { title: 'Aurora Drive', difficulty: 'ANOTHER', exScore: 1500, clearLamp: 'FULLCOMBO_CLEAR', missCount: 0 },
        { title: 'Binary Drive', difficulty: 'HYPER', exScore: 900, clearLamp: 'CLEAR', missCount: null },
      ]),
    );
    expect(got).toHaveLength(2);
    const plays = await s.db.prisma.score.findMany({ where: { userId: u.id }, orderBy: { id: 'asc' } });
    expect(plays.map((p) => [p.exScore, p.pgreat, p.great, p.playedAt.toISOString()])).toEqual([
      [1500, 600, 300, '2025-06-01T12:00:00.000Z'],
      [1400, null, null, '2025-06-02T12:00:00.000Z'],
      [900, null, null, '2025-06-01T13:00:00.000Z'],
    ]);
    expect((await s.db.prisma.importBatch.findFirst({ where: { userId: u.id } }))?.source).toBe('BATCH_MANUAL');
  });

  it('refuses a malformed document whole (first problem named), and a document of another version; nothing written', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const bad = { ...DOC, meta: { ...DOC.meta, playtype: 'Single' } };
    const res = await s.gql(IMPORT, { u: u.id, v: '33', csv: JSON.stringify(bad) }, token);
    expect(res.body.errors?.[0]).toMatchObject({
      message: 'BATCH-MANUAL: meta.playtype: expected "SP" or "DP"',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const other = { ...DOC, meta: { ...DOC.meta, version: '32' } };
    const res2 = await s.gql(IMPORT, { u: u.id, v: '33', csv: JSON.stringify(other) }, token);
    expect(res2.body.errors?.[0]?.message).toMatch(/version 32 \(meta\.version\): import them with version 32, not 33/);
    expect(await s.db.prisma.score.count({ where: { userId: u.id } })).toBe(0);
  });
});

/** Bests as comparable rows (chart, EX, lamp, misses) and the version's total BPI. */
async function snapshot(s: TestServer, userId: string, version: string) {
  const rows = await s.db.prisma.bestScore.findMany({ where: { userId, version }, orderBy: { chartId: 'asc' } });
  const status = await s.db.prisma.playerVersionStatus.findUnique({ where: { userId_version: { userId, version } } });
  return {
    bests: rows.map((b) => [b.chartId, b.exScore, b.clearLamp, b.missCount]),
    totalBpi: status?.totalBpi ?? null,
  };
}

describe('score export → import round trip (demo catalogue)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('BATCH-MANUAL and CSV exports import into an empty account with the same bests and total BPI', async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const ta = await s.tokenFor(a.id);
    ok(await s.gql(IMPORT, { u: a.id, v: '33', csv: JSON.stringify(DOC) }, ta));
    const before = await snapshot(s, a.id, '33');
    expect(before.bests).toHaveLength(2);

    const res = await s.get(`/api/v1/users/${a.id}/scores/export`, ta);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="bpigraph-33-SP-bests.json"');
    expect(res.body.meta).toEqual({ game: 'iidx', playtype: 'SP', service: 'bpigraph', version: '33' });
    const aurora = res.body.scores.find((x: any) => x.identifier === 'Aurora Drive');
    // the best: EX 1500 (its play's judgements 600/300), lamp FC, misses 0, time of the latest contributing play
    expect(aurora).toMatchObject({
      score: 1500,
      lamp: 'FULL COMBO',
      matchType: 'songTitle',
      difficulty: 'ANOTHER',
      judgements: { pgreat: 600, great: 300 },
      optional: { bp: 0 },
      timeAchieved: Date.UTC(2025, 5, 2, 12, 0, 0),
    });
    expect(typeof aurora.optional.bpi === 'number' || aurora.optional.bpi === undefined).toBe(true);

    const b = await aPublicPlayer(s.db.prisma);
    const tb = await s.tokenFor(b.id);
    const back = ok(await s.gql(IMPORT, { u: b.id, v: '33', csv: JSON.stringify(res.body) }, tb)).importScoresCsv;
    expect(back).toMatchObject({ format: 'batch_manual', updatedCount: 2, problems: [], notFound: [] });
    const after = await snapshot(s, b.id, '33');
    expect(after).toEqual(before);

    const csv = await s.get(`/api/v1/users/${a.id}/scores/export?format=csv`, ta);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const c = await aPublicPlayer(s.db.prisma);
    const tc = await s.tokenFor(c.id);
    const fromCsv = ok(await s.gql(IMPORT, { u: c.id, v: '33', csv: csv.body }, tc)).importScoresCsv;
    expect(fromCsv).toMatchObject({ format: 'official', updatedCount: 2, problems: [], notFound: [] });
    expect((await snapshot(s, c.id, '33')).bests).toEqual(before.bests);
    expect((await snapshot(s, c.id, '33')).totalBpi).toEqual(before.totalBpi);

    // history: the 3 plays, in import order
    const hist = await s.get(`/api/v1/users/${a.id}/scores/export?history=true&bpi=false`, ta);
    expect(hist.body.scores.map((x: any) => [x.identifier, x.score, x.lamp])).toEqual([
      ['Aurora Drive', 1500, 'EASY CLEAR'],
      ['Aurora Drive', 1400, 'FULL COMBO'],
      ['Binary Drive', 900, 'CLEAR'],
    ]);
    expect(hist.body.scores.some((x: any) => x.optional && 'bpi' in x.optional)).toBe(false);
  });

  it("is the owner's (or an administrator's) only, public player or not; bad parameters are 400", async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const other = await aPublicPlayer(s.db.prisma);
    const url = `/api/v1/users/${a.id}/scores/export`;
    expect((await s.get(url)).status).toBe(401);
    expect((await s.get(url, await s.tokenFor(other.id))).status).toBe(403);
    const bad = await s.get(`${url}?format=xml`, await s.tokenFor(a.id));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^format:/);
    const csvHistory = await s.get(`${url}?format=csv&history=true`, await s.tokenFor(a.id));
    expect(csvHistory.status).toBe(400);
    expect((await s.get(`${url}?version=99`, await s.tokenFor(a.id))).status).toBe(400);
    // an empty account exports an empty document
    const empty = await s.get(url, await s.tokenFor(a.id));
    expect(empty.body.scores).toEqual([]);
  });
});

describeWithShared(
  'data/eamusement/score-sample-pre-leggendaria.csv',
  'score export → import round trip (real export, real definitions)',
  (sample) => {
    let s: TestServer;
    const defs = sharedFile('data/definitions/definitions-202509156.json');
    beforeAll(async () => {
      const corrections = sharedFile('data/eamusement/title-corrections.json');
      s = await startTestServer({ env: corrections ? { TITLE_CORRECTIONS_FILE: corrections } : {} });
      if (defs) await importDefinitions(s.db.prisma, JSON.parse(fs.readFileSync(defs, 'utf8')));
      await s.app.catalogue.load();
    }, 120_000);
    afterAll(() => s.close());

    it('the real official sample → BATCH-MANUAL and CSV exports → an empty account: same bests, same total BPI', async () => {
      const a = await aPublicPlayer(s.db.prisma);
      const ta = await s.tokenFor(a.id);
      ok(await s.gql(IMPORT, { u: a.id, v: '27', csv: fs.readFileSync(sample, 'utf8') }, ta));
      const before = await snapshot(s, a.id, '27');
      expect(before.bests.length).toBeGreaterThan(100);
      expect(before.totalBpi).not.toBeNull();

      const json = await s.get(`/api/v1/users/${a.id}/scores/export?version=27`, ta);
      expect(json.status).toBe(200);
      expect(json.body.scores).toHaveLength(before.bests.length);
      const b = await aPublicPlayer(s.db.prisma);
      const r = ok(
        await s.gql(IMPORT, { u: b.id, v: '27', csv: JSON.stringify(json.body) }, await s.tokenFor(b.id)),
      ).importScoresCsv;
      expect(r.notFound).toEqual([]);
      expect(r.problems.filter((p: any) => p.severity === 'error')).toEqual([]);
      expect(await snapshot(s, b.id, '27')).toEqual(before);

      const csv = await s.get(`/api/v1/users/${a.id}/scores/export?version=27&format=csv`, ta);
      const c = await aPublicPlayer(s.db.prisma);
      ok(await s.gql(IMPORT, { u: c.id, v: '27', csv: csv.body }, await s.tokenFor(c.id)));
      expect(await snapshot(s, c.id, '27')).toEqual(before);
    });
  },
);
