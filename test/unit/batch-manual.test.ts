/**
 * Tachi BATCH-MANUAL (docs/portability.md): detection by content, the pure parser (whole document
 * validated, bad scores reported by index, good ones kept) and the writer (Tachi's names).
 */
import {
  batchManualHead,
  batchManualScore,
  BATCH_MANUAL_TAIL,
  CsvFormatError,
  detectFormat,
  msToJstWallClock,
  parseBatchManual,
  parseScoreExport,
} from '../../src/domain/csv';
import { ClearLamp, Difficulty, PlayStyle } from '../../src/domain/constants';

const NOW = new Date('2026-01-01T00:00:00Z');

/** The example of Tachi's BATCH-MANUAL documentation (meta/scores keys), plus scores of our own. */
const TACHI_DOC = {
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
      scoreMeta: { random: 'MIRROR' },
    },
    {
      score: 1500,
      lamp: 'EASY CLEAR',
      matchType: 'songTitle',
      identifier: 'Aurora Drive',
      difficulty: 'ANOTHER',
      timeAchieved: 1624324467489,
      judgements: { pgreat: 600, great: 300, bad: 10, poor: 30 },
    },
    {
      score: 1400,
      lamp: 'FULL COMBO',
      matchType: 'songTitle',
      identifier: 'Aurora Drive',
      difficulty: 'ANOTHER',
      optional: { bp: 0 },
    },
    { score: 900, lamp: 'PERFECT', matchType: 'songTitle', identifier: 'Binary Drive', difficulty: 'HYPER' },
    { score: -3, lamp: 'CLEAR', matchType: 'songTitle', identifier: 'Binary Drive', difficulty: 'HYPER' },
    { score: 700, lamp: 'CLEAR', matchType: 'inGameID', identifier: '1001', difficulty: 'HYPER' },
    { score: 0, lamp: 'NO PLAY', matchType: 'songTitle', identifier: 'Binary Drive', difficulty: 'ANOTHER' },
    {
      score: 800,
      lamp: 'CLEAR',
      matchType: 'songTitle',
      identifier: 'Binary Drive',
      difficulty: 'All Scratch ANOTHER',
    },
  ],
};

describe('BATCH-MANUAL parser', () => {
  it('is detected by content (a JSON object), whitespace and BOM before it allowed', () => {
    expect(detectFormat(JSON.stringify(TACHI_DOC))).toBe('batch_manual');
    expect(detectFormat('\ufeff\n  {"meta": {}}')).toBe('batch_manual');
    expect(detectFormat('タイトル,ジャンル')).toBe('official');
  });

  it('keeps the good scores, reports every bad one with its index and reason, ignores unknown fields', () => {
    const r = parseScoreExport(JSON.stringify(TACHI_DOC), { now: NOW });
    expect(r.format).toBe('batch_manual');
    // good: 0 (5.1.1., matched later), 2 and 3 (Aurora Drive); 7 is NO PLAY with score 0 (skipped)
    expect(r.rows.map((x) => [x.line, x.title, x.difficulty, x.exScore, x.clearLamp, x.missCount])).toEqual([
      [1, '5.1.1.', 'ANOTHER', 500, ClearLamp.HARD_CLEAR, null],
      // bp from bad + poor = 10 + 30 = 40
      [3, 'Aurora Drive', 'ANOTHER', 1500, ClearLamp.EASY_CLEAR, 40],
      [4, 'Aurora Drive', 'ANOTHER', 1400, ClearLamp.FULLCOMBO_CLEAR, 0],
    ]);
    // 1624324467489 ms = 2021-06-22T01:14:27.489Z → JST (+9 h) 2021-06-22 10:14:27
    expect(r.rows[1].lastPlayed).toBe('2021-06-22 10:14:27');
    expect(r.rows[2].lastPlayed).toBeNull();
    // 600 × 2 + 300 = 1500 = the EX score: kept
    expect(r.rows[1].judgements).toEqual({ pgreat: 600, great: 300 });
    expect(r.skipped).toBe(1);
    expect(r.issues.map((i) => [i.column, i.severity])).toEqual([
      ['scores[1].identifier', 'error'],
      ['scores[4].lamp', 'error'],
      ['scores[5].score', 'error'],
      ['scores[6].matchType', 'error'],
      ['scores[8].difficulty', 'error'],
    ]);
    expect(r.issues[0].reason).toMatch(/^scores\[1\]: no mapping from Tachi song id "1"/);
    expect(r.issues[1].reason).toMatch(/unknown lamp "PERFECT"/);
    expect(r.issues[2]).toMatchObject({ line: 6, value: '-3' });
  });

  it('maps tachiSongID through a configured mapping, and DP documents to DP rows', () => {
    const doc = { ...TACHI_DOC, meta: { ...TACHI_DOC.meta, playtype: 'DP' }, scores: [TACHI_DOC.scores[1]] };
    const r = parseBatchManual(JSON.stringify(doc), {
      playStyles: [PlayStyle.SP, PlayStyle.DP],
      now: NOW,
      tachiSongTitle: (id) => (id === '1' ? 'Aurora Drive' : undefined),
    });
    expect(r.rows).toMatchObject([
      { title: 'Aurora Drive', playStyle: 'DP', difficulty: 'HYPER', exScore: 123, clearLamp: 'FAILED', missCount: 5 },
    ]);
    expect(r.issues).toEqual([]);
  });

  it('drops judgements that disagree with the EX score (a warning) and keeps the score', () => {
    const doc = { ...TACHI_DOC, scores: [{ ...TACHI_DOC.scores[2], judgements: { pgreat: 600, great: 200 } }] };
    const r = parseBatchManual(JSON.stringify(doc), { now: NOW });
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0].judgements).toBeUndefined();
    // 600 × 2 + 200 = 1400 ≠ 1500
    expect(r.issues[0]).toMatchObject({
      severity: 'warning',
      reason: expect.stringMatching(/= 1400, not the EX score 1500/),
    });
  });

  it('refuses a malformed document with one error naming the first problem', () => {
    const err = (text: string) => {
      try {
        parseBatchManual(text);
      } catch (e) {
        expect(e).toBeInstanceOf(CsvFormatError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(err('{"meta": ')).toMatch(/^BATCH-MANUAL: not valid JSON/);
    expect(err('{"meta": {"game": "sdvx", "playtype": "Single", "service": "x"}, "scores": []}')).toBe(
      'BATCH-MANUAL: meta.game: expected "iidx" (this server tracks beatmania IIDX)',
    );
    expect(err('{"meta": {"game": "iidx", "playtype": "SP", "service": "x"}, "scores": {}}')).toBe(
      'BATCH-MANUAL: scores: expected an array of scores',
    );
    expect(err('{"scores": []}')).toMatch(/^BATCH-MANUAL: meta: expected an object/);
  });

  it('names the document version when it is one of ours (Tachi spells INFINITAS "inf")', () => {
    const doc = (version: string) => JSON.stringify({ ...TACHI_DOC, meta: { ...TACHI_DOC.meta, version }, scores: [] });
    expect(parseBatchManual(doc('inf')).documentVersion).toBe('INF');
    expect(parseBatchManual(doc('33')).documentVersion).toBe('33');
    expect(parseBatchManual(doc('27-omni')).documentVersion).toBeUndefined();
  });
});

describe('BATCH-MANUAL writer', () => {
  it('writes Tachi names, unix ms, judgements, bp and (optionally) BPI; the document parses back', () => {
    const playedAt = new Date('2025-06-01T12:30:00.000Z');
    const src = {
      title: 'Aurora Drive',
      difficulty: Difficulty.ANOTHER,
      exScore: 1500,
      clearLamp: ClearLamp.FULLCOMBO_CLEAR,
      missCount: 0,
      playedAt,
      pgreat: 600,
      great: 300,
      bpi: 41.5,
    };
    expect(batchManualScore(src, true)).toEqual({
      score: 1500,
      lamp: 'FULL COMBO',
      matchType: 'songTitle',
      identifier: 'Aurora Drive',
      difficulty: 'ANOTHER',
      timeAchieved: playedAt.getTime(),
      judgements: { pgreat: 600, great: 300 },
      optional: { bp: 0, bpi: 41.5 },
    });
    expect(batchManualScore({ ...src, missCount: null, pgreat: null, great: null }, false)).not.toHaveProperty(
      'optional',
    );
    const text = batchManualHead(PlayStyle.SP, 'INF') + JSON.stringify(batchManualScore(src, true)) + BATCH_MANUAL_TAIL;
    const back = parseBatchManual(text, { now: NOW });
    expect(back.documentVersion).toBe('INF');
    // 12:30 UTC = 21:30 JST
    expect(back.rows).toMatchObject([
      {
        title: 'Aurora Drive',
        exScore: 1500,
        clearLamp: 'FULLCOMBO_CLEAR',
        missCount: 0,
        lastPlayed: '2025-06-01 21:30:00',
        judgements: { pgreat: 600, great: 300 },
      },
    ]);
    expect(msToJstWallClock(Date.UTC(2025, 0, 1, 15, 0, 0))).toBe('2025-01-02 00:00:00');
  });
});
