/**
 * Tachi BATCH-MANUAL through the ordinary import (importScoresCsv): detected by content, good
 * scores stored (judgements kept on the play), bad ones reported by index, a malformed document
 * refused whole with nothing written. Demo catalogue (seeded): "Aurora Drive" and "Binary Drive"
 * are songs 0 and 1 (SP HYPER, ANOTHER); EX maxima are ≥ 1700 (HYPER) and ≥ 2300 (ANOTHER).
 */
import { aPublicPlayer } from '../../helpers/factories';
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
    { score: 500, lamp: 'HARD CLEAR', matchType: 'songTitle', identifier: '5.1.1.', artist: 'dj nagureo', difficulty: 'ANOTHER' },
    { score: 123, lamp: 'FAILED', matchType: 'tachiSongID', identifier: '1', difficulty: 'HYPER', comment: 'This score sucked!', optional: { bp: 5 } },
    {
      score: 1500, lamp: 'EASY CLEAR', matchType: 'songTitle', identifier: 'Aurora Drive', difficulty: 'ANOTHER',
      timeAchieved: Date.UTC(2025, 5, 1, 12, 0, 0), judgements: { pgreat: 600, great: 300 }, optional: { bp: 40 },
    },
    {
      score: 1400, lamp: 'FULL COMBO', matchType: 'songTitle', identifier: 'Aurora Drive', difficulty: 'ANOTHER',
      timeAchieved: Date.UTC(2025, 5, 2, 12, 0, 0), optional: { bp: 0 },
    },
    { score: 900, lamp: 'CLEAR', matchType: 'songTitle', identifier: 'Binary Drive', difficulty: 'HYPER', timeAchieved: Date.UTC(2025, 5, 1, 13, 0, 0) },
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
    (await s.db.prisma.bestScore.findMany({ where: { userId }, include: { chart: { include: { song: true } } }, orderBy: { chartId: 'asc' } })).map((b) => ({
      title: b.chart.song.title, difficulty: b.chart.difficulty, exScore: b.exScore, clearLamp: b.clearLamp, missCount: b.missCount,
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
    expect(got).toEqual(expect.arrayContaining([
      { title: 'Aurora Drive', difficulty: 'ANOTHER', exScore: 1500, clearLamp: 'FULLCOMBO_CLEAR', missCount: 0 },
      { title: 'Binary Drive', difficulty: 'HYPER', exScore: 900, clearLamp: 'CLEAR', missCount: null },
    ]));
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
