import fs from 'node:fs';
import path from 'node:path';
import {
  correctTitle,
  detectFormat,
  formatFitsVersion,
  jstToUtc,
  parseScoreExport,
  parseTitleCorrections,
  splitFields,
  type ParsedRow,
} from '../../src/domain/csv';
import { applyPlay, improvements } from '../../src/domain/scores';
import { availableIn, inTotalSet } from '../../src/domain/totals';
import { itIf } from '../helpers/skip';
import { OFFICIAL_HEADER } from '../../src/domain/csv/official-writer';

const SHARED = path.resolve(__dirname, '../../../shared/data/eamusement');
const SAMPLE = path.join(SHARED, 'score-sample-pre-leggendaria.csv');
const CORRECTIONS = path.join(SHARED, 'title-corrections.json');
const haveShared = fs.existsSync(SAMPLE) && fs.existsSync(CORRECTIONS);
const itShared = itIf(haveShared, `${SHARED} not found (real data lives in ../shared)`);

const DIFFS = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'];
const CURRENT_HEADER = OFFICIAL_HEADER;

const cells = (level: number, ex: number, miss: string, lamp: string) => [level, ex, 0, 0, miss, lamp, '---'].join(',');
const NONE = cells(0, 0, '---', 'NO PLAY');

describe('official CSV', () => {
  it('parses the current 41-column layout, every difficulty, with BOM and CRLF', () => {
    const line = [
      '33 Sparkle Shower',
      'Song A',
      'G',
      'Art',
      '3',
      cells(3, 400, '2', 'FULLCOMBO CLEAR'),
      cells(6, 900, '10', 'CLEAR'),
      cells(10, 1500, '---', 'HARD CLEAR'),
      cells(12, 2500, '20', 'EX HARD CLEAR'),
      cells(12, 2600, '5', 'FAILED'),
      '2025-01-02 03:04',
    ].join(',');
    const text = '\ufeff' + CURRENT_HEADER + '\r\n' + line + '\r\n';
    expect(CURRENT_HEADER.split(',')).toHaveLength(41);
    expect(detectFormat(text)).toBe('official');
    const r = parseScoreExport(text);
    expect(r.issues).toEqual([]);
    expect(r.rows.map((x) => x.difficulty)).toEqual(DIFFS);
    expect(r.rows[2]).toEqual<ParsedRow>({
      line: 2,
      title: 'Song A',
      playStyle: 'SP',
      difficulty: 'HYPER',
      level: 10,
      notes: null,
      exScore: 1500,
      clearLamp: 'HARD_CLEAR',
      missCount: null,
      lastPlayed: '2025-01-02 03:04:00',
      genre: 'G',
      artist: 'Art',
    });
    expect(r.rows.map((x) => x.level)).toEqual([3, 6, 10, 12, 12]);
    expect(r.rows[4]).toMatchObject({ difficulty: 'LEGGENDARIA', exScore: 2600, clearLamp: 'FAILED', missCount: 5 });
  });

  it('reports a malformed row and cell precisely (line, column, reason) and keeps the rest', () => {
    const good = [
      'v',
      'Good',
      'G',
      'A',
      '1',
      NONE,
      NONE,
      NONE,
      cells(12, 2000, '3', 'CLEAR'),
      NONE,
      '2025-01-02 03:04',
    ].join(',');
    const short = 'v,Short,G,A';
    const badScore = [
      'v',
      'Bad',
      'G',
      'A',
      '1',
      NONE,
      NONE,
      NONE,
      cells(12, 'abc' as unknown as number, '3', 'CLEAR'),
      NONE,
      '2025-01-02 03:04',
    ].join(',');
    const badLamp = [
      'v',
      'Lamp',
      'G',
      'A',
      '1',
      NONE,
      NONE,
      NONE,
      cells(12, 100, '3', 'SUPER CLEAR'),
      NONE,
      'yesterday',
    ].join(',');
    const r = parseScoreExport([CURRENT_HEADER, good, short, badScore, badLamp].join('\n'));
    expect(r.rows).toHaveLength(1);
    expect(r.issues).toEqual([
      { line: 3, reason: 'expected 41 fields, found 4; the line is skipped', severity: 'error' },
      {
        line: 4,
        column: 'ANOTHER スコア',
        value: 'abc',
        title: 'Bad',
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        reason: 'EX score "abc" is not a non-negative integer; the chart is skipped',
        severity: 'error',
      },
      {
        line: 5,
        column: 'ANOTHER クリアタイプ',
        value: 'SUPER CLEAR',
        title: 'Lamp',
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        reason: 'unknown clear type "SUPER CLEAR"; the chart is skipped',
        severity: 'error',
      },
    ]);
    // NONE blocks have level 0: charts that do not exist in the song, not unplayed charts
    expect(r.skipped).toBe(0);
    expect(r.absent).toBe(4 + 4 + 4);
  });

  it('repairs an unquoted title containing a comma when the catalogue knows the title', () => {
    const row = [
      'v',
      'Blind Justice ～Torn souls',
      ' Hurt Faiths ～',
      'G',
      'A',
      '1',
      NONE,
      NONE,
      NONE,
      cells(12, 2000, '3', 'CLEAR'),
      NONE,
      '2025-01-02 03:04',
    ].join(',');
    const known = (t: string) => t === 'Blind Justice ～Torn souls, Hurt Faiths ～';
    expect(parseScoreExport([CURRENT_HEADER, row].join('\n'), { knownTitle: known }).rows[0].title).toBe(
      'Blind Justice ～Torn souls, Hurt Faiths ～',
    );
    expect(parseScoreExport([CURRENT_HEADER, row].join('\n')).issues[0]).toMatchObject({
      line: 2,
      reason: expect.stringMatching(/^expected 41 fields, found 42: /),
    });
  });

  itShared('parses the real older-layout sample (no BEGINNER/LEGGENDARIA, "EXスコア", unescaped quotes)', () => {
    const text = fs.readFileSync(SAMPLE, 'utf8');
    const r = parseScoreExport(text, { now: new Date('2025-01-01T00:00:00Z') });
    expect(r.format).toBe('official');
    expect(r.issues).toEqual([]);
    const dataLines = text.split(/\r?\n/).filter((l) => l.trim()).length - 1;
    // every (row, difficulty) block is a play, a counted skip (no play) or an absent chart (level 0)
    expect(r.rows.length + r.skipped + r.absent).toBe(dataLines * 3);
    expect(r.rows.find((x) => x.title === '5.1.1.')).toEqual({
      line: 2,
      title: '5.1.1.',
      playStyle: 'SP',
      difficulty: 'ANOTHER',
      level: 10,
      notes: null,
      exScore: 1362,
      clearLamp: 'EX_HARD_CLEAR',
      missCount: 5,
      lastPlayed: '2019-10-28 14:05:00',
      genre: 'PIANO AMBIENT',
      artist: 'dj nagureo',
      // PGreat 605, Great 152: 605 × 2 + 152 = 1362 = the EX score, so the judgements are kept
      judgements: { pgreat: 605, great: 152 },
    });
    // line 72 "reunion": ANOTHER (level 12) has EX 2122 (845 PG × 2 + 432 GR) with the lamp NO PLAY — skipped as
    // the reference does (issue #33 item 11, docs/domain/imports.md); its HYPER (level 11) is an ordinary play
    expect(
      r.rows
        .filter((x) => x.title === 'reunion')
        .map((x) => [x.difficulty, x.level, x.exScore, x.clearLamp, x.missCount]),
    ).toEqual([['HYPER', 11, 2070, 'HARD_CLEAR', 25]]);
    // line 6 "THE SAFARI" has no ANOTHER (level 0): absent, not a skipped play
    expect(r.rows.filter((x) => x.title === 'THE SAFARI').map((x) => x.difficulty)).toEqual(['HYPER']);
    // played charts of every level are kept: NORMAL level 6 of line 146
    expect(r.rows.find((x) => x.line === 146)).toMatchObject({
      title: '金野火織の金色提言',
      difficulty: 'NORMAL',
      level: 6,
      exScore: 1156,
    });
    expect(r.rows.some((x) => x.title === `You'll say "Now!"`)).toBe(true);
    expect(new Set(r.rows.map((x) => x.difficulty))).toEqual(new Set(['NORMAL', 'HYPER', 'ANOTHER']));
  });
});

describe('tool formats', () => {
  const corrections = parseTitleCorrections({ VØID: 'VOID' });

  it('Reflux TSV: prefixes, lamp abbreviations (incl. spelled-out FAILED), corrections', () => {
    const header = [
      'title',
      'Type',
      'Label',
      'Cost Normal',
      'SPN Lamp',
      'SPN EX Score',
      'SPN Miss Count',
      'SPA Lamp',
      'SPA EX Score',
      'SPA Miss Count',
      'SPL Lamp',
      'SPL EX Score',
      'SPL Miss Count',
    ].join('\t');
    const text = [
      header,
      ['VØID', 'x', 'y', '0', 'HC', '900', '4', 'FAILED', '1800', '-', 'NP', '0', '-'].join('\t'),
      ['Other', 'x', 'y', '0', 'FC', '500', '0', 'EXH', '2100', '12', 'F', '1900', '---'].join('\t'),
    ].join('\r\n');
    expect(detectFormat(text)).toBe('reflux');
    const r = parseScoreExport(text, { corrections });
    expect(r.issues).toEqual([]);
    expect(r.rows.map((x) => [x.title, x.difficulty, x.exScore, x.clearLamp, x.missCount, x.lastPlayed])).toEqual([
      ['VOID', 'NORMAL', 900, 'HARD_CLEAR', 4, null],
      ['VOID', 'ANOTHER', 1800, 'FAILED', null, null],
      ['Other', 'NORMAL', 500, 'FULLCOMBO_CLEAR', 0, null],
      ['Other', 'ANOTHER', 2100, 'EX_HARD_CLEAR', 12, null],
      ['Other', 'LEGGENDARIA', 1900, 'FAILED', null, null],
    ]);
    expect(r.skipped).toBe(1);
  });

  it('daken counter CSV: modes, lamps, BP "?", epoch dates, DP skipped, quoted titles', () => {
    const text = [
      'LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),Last Played',
      '12,"Title, with comma",SPA,EXH-CLEAR,2500,88.1,12,x,y,2024-05-06 07:08',
      '11,Other,SPH,F-COMBO,2000,90,?,x,y,1970-01-01 09:00',
      '12,Other,DPA,CLEAR,2000,90,3,x,y,2024-05-06 07:08',
      '12,Other,SPL,NO PLAY,0,0,---,x,y,',
      '12,Bad,SPX,CLEAR,2000,90,3,x,y,',
    ].join('\n');
    expect(detectFormat(text)).toBe('daken_counter');
    const r = parseScoreExport(text);
    expect(r.rows).toEqual([
      {
        line: 2,
        title: 'Title, with comma',
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        level: 12,
        notes: null,
        exScore: 2500,
        clearLamp: 'EX_HARD_CLEAR',
        missCount: 12,
        lastPlayed: '2024-05-06 07:08:00',
      },
      {
        line: 3,
        title: 'Other',
        playStyle: 'SP',
        difficulty: 'HYPER',
        level: 11,
        notes: null,
        exScore: 2000,
        clearLamp: 'FULLCOMBO_CLEAR',
        missCount: null,
        lastPlayed: null,
      },
    ]);
    expect(r.skipped).toBe(2); // the DP chart (DP not asked for) and the NO PLAY chart
    expect(r.issues).toEqual([
      {
        line: 6,
        column: 'mode',
        value: 'SPX',
        title: 'Bad',
        reason: 'unknown mode "SPX"; the chart is skipped',
        severity: 'error',
      },
    ]);
  });

  it('result techo CSV: compact date-times, difficulty words', () => {
    const text = [
      'バージョン,曲名,ジャンル,アーティスト,難易度,レベル,クリアタイプ,DJ LEVEL,スコア,ミスカウント,最終プレイ日時',
      'INFINITAS,Song T,g,a,ANOTHER,12,H-CLEAR,AA,2400,15,20240102-030405',
      'INFINITAS,Song T,g,a,HYPER,10,A-CLEAR,A,1500,---,garbage',
    ].join('\r\n');
    expect(detectFormat(text)).toBe('result_techo');
    const r = parseScoreExport(text);
    expect(r.rows).toEqual([
      {
        line: 2,
        title: 'Song T',
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        level: 12,
        notes: null,
        exScore: 2400,
        clearLamp: 'HARD_CLEAR',
        missCount: 15,
        lastPlayed: '2024-01-02 03:04:05',
      },
      {
        line: 3,
        title: 'Song T',
        playStyle: 'SP',
        difficulty: 'HYPER',
        level: 10,
        notes: null,
        exScore: 1500,
        clearLamp: 'ASSIST_CLEAR',
        missCount: null,
        lastPlayed: null,
      },
    ]);
    expect(r.issues).toEqual([
      {
        line: 3,
        column: '最終プレイ日時',
        value: 'garbage',
        title: 'Song T',
        playStyle: 'SP',
        difficulty: 'HYPER',
        reason: 'last played "garbage" is not a date-time; the import time is used',
        severity: 'warning',
      },
    ]);
  });

  it('fits formats to versions: tool exports are INF, the official CSV is arcade', () => {
    expect(formatFitsVersion('official', '33')).toBe(true);
    expect(formatFitsVersion('official', 'INF')).toBe(false);
    expect(formatFitsVersion('reflux', 'INF')).toBe(true);
    expect(formatFitsVersion('daken_counter', '33')).toBe(false);
  });

  it('refuses an unknown format with a clear error', () => {
    expect(detectFormat('a,b,c\n1,2,3')).toBeUndefined();
    expect(() => parseScoreExport('a,b,c\n1,2,3')).toThrow(/Unsupported format/);
  });

  itShared('loads the real title corrections file as data', () => {
    const map = parseTitleCorrections(JSON.parse(fs.readFileSync(CORRECTIONS, 'utf8')));
    expect(map.size).toBeGreaterThanOrEqual(15);
    expect(correctTitle('VØID', map)).toBe('VOID');
    expect(correctTitle('Unrelated', map)).toBe('Unrelated');
  });
});

describe('text helpers', () => {
  it('splits quoted and unquoted fields', () => {
    expect(splitFields('a,"b,c",d "e",""', ',')).toEqual(['a', 'b,c', 'd "e"', '']);
    expect(splitFields('"x""y",z', ',')).toEqual(['x"y', 'z']);
  });
  it('JST wall clock → UTC', () => {
    expect(jstToUtc('2019-10-28 14:05').toISOString()).toBe('2019-10-28T05:05:00.000Z');
    expect(jstToUtc('2024-01-01 03:00:00').toISOString()).toBe('2023-12-31T18:00:00.000Z');
    expect(() => jstToUtc('2024-02-30 00:00')).toThrow();
  });
});

describe('per-field bests', () => {
  it('a lamp improvement with a lower EX keeps the best EX', () => {
    const t = new Date('2025-01-01T00:00:00Z');
    const b1 = applyPlay(undefined, { id: 1, exScore: 2000, clearLamp: 'CLEAR', missCount: 20, playedAt: t });
    expect(improvements({ exScore: 1900, clearLamp: 'HARD_CLEAR', missCount: 25 }, b1)).toMatchObject({
      ex: false,
      lamp: true,
      miss: false,
      any: true,
    });
    const b2 = applyPlay(b1, {
      id: 2,
      exScore: 1900,
      clearLamp: 'HARD_CLEAR',
      missCount: 25,
      playedAt: new Date('2025-02-01T00:00:00Z'),
    });
    expect(b2).toMatchObject({
      exScore: 2000,
      exScoreId: 1,
      clearLamp: 'HARD_CLEAR',
      clearLampId: 2,
      missCount: 20,
      missCountId: 1,
    });
    expect(improvements({ exScore: 2000, clearLamp: 'CLEAR', missCount: 20 }, b2).any).toBe(false);
  });
});

describe('total set N', () => {
  const chart = {
    playStyle: 'SP',
    level: 12,
    releasedVersion: 30,
    removedInVersion: null as string | null,
    definition: {},
  };
  it('is SP level 12 with a definition, released and not removed in the version', () => {
    expect(inTotalSet(chart, '33')).toBe(true);
    expect(inTotalSet(chart, '29')).toBe(false);
    expect(inTotalSet({ ...chart, removedInVersion: '32' }, '33')).toBe(false);
    expect(inTotalSet({ ...chart, removedInVersion: '32' }, '31')).toBe(true);
    expect(inTotalSet({ ...chart, removedInVersion: 'unknown' }, '31')).toBe(false);
    expect(inTotalSet({ ...chart, definition: null }, '33')).toBe(false);
    expect(inTotalSet({ ...chart, level: 11 }, '33')).toBe(false);
    expect(inTotalSet({ ...chart, playStyle: 'DP' }, '33')).toBe(false);
    expect(availableIn({ releasedVersion: 40, removedInVersion: null }, 'INF')).toBe(true);
  });
});
