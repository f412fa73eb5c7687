/**
 * Issue #17 rules for every import format: imports never drop good data (absent charts ignored
 * whatever their cells hold, a bad value drops its chart alone with line / column / value), the
 * header variants real exports have, every difficulty / level / play style emitted, play dates in
 * a sane range. Expected values are read off the fixtures by hand (see the comments).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  detectFormat,
  parseScoreExport,
  plausiblePlayTime,
  readRows,
  splitFields,
  normalizeWallClock,
  type ParseResult,
} from '../../src/domain/csv';
import { OFFICIAL_HEADER } from '../../src/domain/csv/official-writer';

const FIXTURE = path.join(__dirname, '../fixtures/official-current-layout.csv');
const NOW = new Date('2025-06-01T00:00:00Z');

/** [line, difficulty, level, EX, lamp, misses, last played] of each row */
const brief = (r: ParseResult) =>
  r.rows.map((x) => [x.line, x.difficulty, x.level, x.exScore, x.clearLamp, x.missCount, x.lastPlayed]);

describe('official CSV, current layout: a real-world-shaped file with odd rows (test/fixtures/official-current-layout.csv)', () => {
  const text = fs.readFileSync(FIXTURE, 'utf8');
  const titles = new Set([
    'Alpha Song',
    'Beta Song',
    'Gamma Song',
    'Delta Song',
    'Epsilon Song',
    'Blind Justice ～Torn souls, Hurt Faiths ～',
    `You'll say "Now!"`,
    'Eta Song',
    'Theta Song',
    'Iota Song',
    'Kappa Song',
  ]);
  // the catalogue knows Epsilon Song's ANOTHER: 1,300 notes, so at most 2,600 EX
  const maxExScore = (c: { title: string; difficulty: string }) =>
    c.title === 'Epsilon Song' && c.difficulty === 'ANOTHER' ? 2600 : undefined;
  const r = parseScoreExport(text, { knownTitle: (t) => titles.has(t), maxExScore, now: NOW });

  it('is detected as official (BOM, LF) and every good chart is kept, with its level', () => {
    expect(detectFormat(text)).toBe('official');
    expect(brief(r)).toEqual([
      // line 2: all five difficulties played, levels 2 / 5 / 9 / 11 / 12 (BEGINNER and NORMAL included)
      [2, 'BEGINNER', 2, 420, 'FULLCOMBO_CLEAR', 0, '2025-01-02 03:04:00'],
      [2, 'NORMAL', 5, 800, 'FULLCOMBO_CLEAR', 3, '2025-01-02 03:04:00'],
      [2, 'HYPER', 9, 1400, 'HARD_CLEAR', 12, '2025-01-02 03:04:00'],
      [2, 'ANOTHER', 11, 1900, 'EX_HARD_CLEAR', 25, '2025-01-02 03:04:00'],
      [2, 'LEGGENDARIA', 12, 2100, 'FAILED', 40, '2025-01-02 03:04:00'],
      // line 3: BEGINNER level 0 with "abc" / "???" cells and LEGGENDARIA with an empty level and
      // junk: no such charts, ignored; NORMAL unplayed; HYPER and ANOTHER played
      [3, 'HYPER', 8, 1000, 'CLEAR', 30, '2024-12-31 23:59:00'],
      [3, 'ANOTHER', 10, 1500, 'HARD_CLEAR', 18, '2024-12-31 23:59:00'],
      // line 4: HYPER has an unknown clear type → dropped alone; ANOTHER kept
      [4, 'ANOTHER', 11, 1700, 'CLEAR', 20, '2025-01-03 10:00:00'],
      // line 5: ANOTHER's EX is "12O0" (a letter O) → dropped alone; NORMAL and HYPER kept
      [5, 'NORMAL', 2, 300, 'CLEAR', 2, '2025-01-04 11:00:00'],
      [5, 'HYPER', 6, 700, 'EASY_CLEAR', 8, '2025-01-04 11:00:00'],
      // line 6: ANOTHER's 2,700 EX is over the 2,600 maximum → dropped alone; NORMAL kept
      [6, 'NORMAL', 4, 500, 'FULLCOMBO_CLEAR', 0, '2025-01-05 12:00:00'],
      // line 7: ANOTHER carries EX 2,080 under a NO PLAY lamp: skipped, as the reference (issue #33 item 11)
      // line 8: the unquoted title with a comma, repaired with the known-title predicate
      [8, 'ANOTHER', 12, 2500, 'HARD_CLEAR', 15, '2025-01-06 13:00:00'],
      // line 9: quotes inside unquoted title and artist are literal
      [9, 'ANOTHER', 11, 1600, 'CLEAR', 73, '2019-11-28 21:17:00'],
      // line 10: played 2099-01-01, after now + 1 day → the import time is used (warning)
      [10, 'HYPER', 9, 1234, 'CLEAR', 9, null],
      // line 11: the artist "Artist X, Artist Y" has a comma; the title is known → cells read from the right
      [11, 'ANOTHER', 11, 1800, 'EX_HARD_CLEAR', 14, '2025-01-06 20:00:00'],
      // line 13: truncated (7 fields) → the line alone is reported
      // line 14: HYPER's level is "1O" → dropped alone; ANOTHER kept ("?" misses = unknown)
      [14, 'ANOTHER', 11, 1500, 'CLEAR', null, '2025-01-07 14:00:00'],
    ]);
    expect(r.rows.map((x) => x.title).filter((t, i, a) => a.indexOf(t) === i)).toEqual([
      'Alpha Song',
      'Beta Song',
      'Gamma Song',
      'Delta Song',
      'Epsilon Song',
      'Blind Justice ～Torn souls, Hurt Faiths ～',
      `You'll say "Now!"`,
      'Eta Song',
      'Theta Song',
      'Kappa Song',
    ]);
    expect(new Set(r.rows.map((x) => x.playStyle))).toEqual(new Set(['SP']));
    expect(r.rows[0]).toMatchObject({ genre: 'POP', artist: 'Artist A', notes: null });
    expect(r.rows.find((x) => x.line === 9)).toMatchObject({
      title: `You'll say "Now!"`,
      artist: 'BEMANI Sound Team "HuΣeR"',
    });
    // the split of line 11 is known for the title only: genre and artist are not guessed
    const theta = r.rows.find((x) => x.line === 11)!;
    expect([theta.title, theta.genre, theta.artist]).toEqual(['Theta Song', undefined, undefined]);
  });

  it('reports each bad value with line, column and value, and drops nothing else', () => {
    expect(r.issues).toEqual([
      {
        line: 4,
        column: 'HYPER クリアタイプ',
        value: 'SUPER CLEAR',
        title: 'Gamma Song',
        playStyle: 'SP',
        difficulty: 'HYPER',
        severity: 'error',
        reason: 'unknown clear type "SUPER CLEAR"; the chart is skipped',
      },
      {
        line: 5,
        column: 'ANOTHER スコア',
        value: '12O0',
        title: 'Delta Song',
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        severity: 'error',
        reason: 'EX score "12O0" is not a non-negative integer; the chart is skipped',
      },
      {
        line: 6,
        column: 'ANOTHER スコア',
        value: '2700',
        title: 'Epsilon Song',
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        severity: 'error',
        reason: "EX score 2700 is over the chart's maximum 2600; the chart is skipped",
      },
      {
        line: 10,
        column: '最終プレー日時',
        value: '2099-01-01 00:00',
        title: 'Eta Song',
        playStyle: 'SP',
        difficulty: 'HYPER',
        severity: 'warning',
        reason: 'last played "2099-01-01 00:00" is outside 1999-01-01 … 2025-06-02; the import time is used',
      },
      { line: 13, severity: 'error', reason: 'expected 41 fields, found 7; the line is skipped' },
      {
        line: 14,
        column: 'HYPER 難易度',
        value: '1O',
        title: 'Kappa Song',
        playStyle: 'SP',
        difficulty: 'HYPER',
        severity: 'error',
        reason: 'level "1O" is not a level (1–12); the chart is skipped',
      },
    ]);
  });

  it('accounts for every difficulty block: played, unplayed, absent or reported', () => {
    // 12 well-formed song lines (2–11, 14) × 5 blocks = 55:
    //   16 played (above);
    //   14 unplayed (NO PLAY, 0 EX): line 3 N; 4 N; 6 H; 7 N H; 8 N H; 9 N H; 10 N; 11 N H; 14 N;
    //      and line 7 A (NO PLAY with EX 2,080: not a play);
    //   21 absent (level 0 or empty): B and L of lines 3–9, 11, 14 (9 × 2 = 18) + B, A, L of line 10 (3);
    //    4 bad values: line 4 H, 5 A, 6 A, 14 H.
    expect(r.rows).toHaveLength(16);
    expect(r.skipped).toBe(14);
    expect(r.absent).toBe(21);
    expect(r.issues.filter((i) => i.difficulty).filter((i) => i.severity === 'error')).toHaveLength(4);
    expect(16 + 14 + 21 + 4).toBe(11 * 5);
  });

  it('without the catalogue: the comma in line 8 cannot be placed (the line is reported), the rest is the same', () => {
    const plain = parseScoreExport(text, { maxExScore, now: NOW });
    expect(plain.rows.filter((x) => x.line !== 8 && x.line !== 11)).toEqual(
      r.rows.filter((x) => x.line !== 8 && x.line !== 11),
    );
    expect(plain.issues.filter((i) => i.line === 8 || i.line === 11).map((i) => [i.line, i.reason])).toEqual([
      [
        8,
        'expected 41 fields, found 42: the title, genre or artist holds an unquoted comma and no split of them names a known title; the line is skipped',
      ],
      [
        11,
        'expected 41 fields, found 42: the title, genre or artist holds an unquoted comma and no split of them names a known title; the line is skipped',
      ],
    ]);
  });

  it('a DP download gives the same charts as DP (officialPlayStyle), emitted when DP is asked for', () => {
    const dp = parseScoreExport(text, {
      knownTitle: (t) => titles.has(t),
      now: NOW,
      officialPlayStyle: 'DP',
      playStyles: ['SP', 'DP'],
    });
    expect(dp.rows.map((x) => [x.line, x.difficulty])).toEqual(
      r.rows
        .map((x) => [x.line, x.difficulty])
        .concat([[6, 'ANOTHER']])
        .sort(
          (a, b) =>
            (a[0] as number) - (b[0] as number) ||
            DIFF_ORDER.indexOf(a[1] as string) - DIFF_ORDER.indexOf(b[1] as string),
        ),
    );
    expect(new Set(dp.rows.map((x) => x.playStyle))).toEqual(new Set(['DP']));
    // asked for SP only, a DP file's charts are all skipped (counted), never stored as SP
    const spOnly = parseScoreExport(text, { knownTitle: (t) => titles.has(t), now: NOW, officialPlayStyle: 'DP' });
    expect(spOnly.rows).toEqual([]);
    expect(spOnly.skipped).toBe(16 + 14 + 4); // played + unplayed + those with bad values (not looked at): every block but the 21 absent
  });
});

const DIFF_ORDER = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'];

describe('header variants of the tool exports', () => {
  it('result techo without the バージョン column (and without genre, artist, level) is accepted', () => {
    // the shape of the reference's own test data: 曲名,難易度,クリアタイプ,スコア,ミスカウント,最終プレイ日時
    const text = [
      '曲名,難易度,クリアタイプ,スコア,ミスカウント,最終プレイ日時',
      '冥,ANOTHER,H-CLEAR,2000,15,20250509-211322',
      '冥,HYPER,NO PLAY,0,,',
    ].join('\n');
    expect(detectFormat(text)).toBe('result_techo');
    const r = parseScoreExport(text, { now: NOW });
    expect(r.rows).toEqual([
      {
        line: 2,
        title: '冥',
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        level: null,
        notes: null,
        exScore: 2000,
        clearLamp: 'HARD_CLEAR',
        missCount: 15,
        lastPlayed: '2025-05-09 21:13:22',
      },
    ]);
    expect(r.skipped).toBe(1);
  });

  it('result techo: DP difficulties, level 0 absent, EXスコア / 最終プレー日時 spellings', () => {
    const text = [
      'バージョン,曲名,難易度,レベル,クリアタイプ,EXスコア,ミスカウント,最終プレー日時',
      'INFINITAS,A,DPA,12,EXH-CLEAR,2500,3,20240102-030405',
      'INFINITAS,A,DP HYPER,9,CLEAR,1500,---,',
      'INFINITAS,A,SPL,0,???,abc,,', // level 0: not a chart, whatever the cells say
      'INFINITAS,A,SPN,,E-CLEAR,600,2,', // no level named: kept, level unknown
    ].join('\n');
    const r = parseScoreExport(text, { playStyles: ['SP', 'DP'], now: NOW });
    expect(r.rows.map((x) => [x.playStyle, x.difficulty, x.level, x.exScore, x.clearLamp])).toEqual([
      ['DP', 'ANOTHER', 12, 2500, 'EX_HARD_CLEAR'],
      ['DP', 'HYPER', 9, 1500, 'CLEAR'],
      ['SP', 'NORMAL', null, 600, 'EASY_CLEAR'],
    ]);
    expect(r.absent).toBe(1);
    expect(r.issues).toEqual([]);
  });

  const REFLUX_2024 = [
    'title',
    'Type',
    'Label',
    'Cost Normal',
    'Cost Hyper',
    'Cost Another',
    'SP DJ Points',
    'DP DJ Points',
    ...['SPB', 'SPN', 'SPH', 'SPA', 'SPL', 'DPN', 'DPH', 'DPA', 'DPL'].flatMap((p) =>
      ['Unlocked', 'Rating', 'Lamp', 'Letter', 'EX Score', 'Miss Count', 'Note Count', 'DJ Points'].map(
        (c) => `${p} ${c}`,
      ),
    ),
  ];
  const group = (...cells: string[]) => cells.join('\t');
  const NONE = group('', '', '', '', '', '', '', ''); // a chart the song does not have

  it('Reflux, current header: every SP/DP chart with its level (Rating) and notes; PFC; over-max EX by Note Count', () => {
    const row = [
      'Song R',
      'Bits',
      'Bits',
      '1000',
      '1500',
      '2000',
      '0',
      '0',
      NONE,
      group('TRUE', '4', 'PFC', 'AAA', '1000', '0', '500', ''),
      group('TRUE', '9', 'NP', 'NP', '0', '-', '900', ''), // unlocked, never played
      group('TRUE', '12', 'EX', 'AAA', '2500', '4', '1300', ''), // 2,500 ≤ 2 × 1,300
      group('TRUE', '12', 'HC', 'AA', '2700', '9', '1300', ''), // 2,700 > 2 × 1,300 = 2,600: bad value
      NONE,
      NONE,
      group('TRUE', '12', 'NC', 'A', '2000', '30', '1500', ''),
      NONE,
    ].join('\t');
    const text = [REFLUX_2024.join('\t'), row].join('\r\n');
    expect(detectFormat(text)).toBe('reflux');
    const sp = parseScoreExport(text);
    expect(
      sp.rows.map((x) => [x.playStyle, x.difficulty, x.level, x.notes, x.exScore, x.clearLamp, x.missCount]),
    ).toEqual([
      ['SP', 'NORMAL', 4, 500, 1000, 'FULLCOMBO_CLEAR', 0],
      ['SP', 'ANOTHER', 12, 1300, 2500, 'EX_HARD_CLEAR', 4],
    ]);
    expect(sp.issues).toEqual([
      {
        line: 2,
        column: 'SPL EX Score',
        value: '2700',
        title: 'Song R',
        playStyle: 'SP',
        difficulty: 'LEGGENDARIA',
        severity: 'error',
        reason: "EX score 2700 is over the chart's maximum 2600; the chart is skipped",
      },
    ]);
    expect([sp.skipped, sp.absent]).toEqual([2, 4]); // SPH unplayed + DPA (DP not asked for); SPB, DPN, DPH, DPL absent
    const both = parseScoreExport(text, { playStyles: ['SP', 'DP'] });
    expect(both.rows.map((x) => [x.playStyle, x.difficulty, x.level, x.exScore])).toEqual([
      ['SP', 'NORMAL', 4, 1000],
      ['SP', 'ANOTHER', 12, 2500],
      ['DP', 'ANOTHER', 12, 2000],
    ]);
  });

  it('Reflux, 2021–2023 headers ("SPN" instead of "SPN Unlocked", no SPB) and the reference minimal header', () => {
    const old = [
      'title',
      'Type',
      'Label',
      'Cost Normal',
      'Cost Hyper',
      'Cost Another',
      'SP DJ Points',
      'DP DJ Points',
      ...['SPN', 'SPH', 'SPA'].flatMap((p) =>
        [p, 'Rating', 'Lamp', 'Letter', 'EX Score', 'Miss Count', 'Note Count', 'DJ Points'].map((c) =>
          c === p ? p : `${p} ${c}`,
        ),
      ),
    ].join('\t');
    const text = [
      old,
      [
        'Old',
        'Bits',
        'Bits',
        '',
        '',
        '',
        '0',
        '0',
        group('TRUE', '5', 'HC', 'A', '700', '9', '400', ''),
        NONE,
        group('TRUE', '11', 'FC', 'AAA', '1900', '0', '1000', ''),
      ].join('\t'),
    ].join('\n');
    expect(detectFormat(text)).toBe('reflux');
    expect(parseScoreExport(text).rows.map((x) => [x.difficulty, x.level, x.exScore])).toEqual([
      ['NORMAL', 5, 700],
      ['ANOTHER', 11, 1900],
    ]);
    const minimal = [
      'title\tSPA Lamp\tSPA EX Score\tSPA Miss Count\tSPH Lamp\tSPH EX Score\tSPH Miss Count',
      '冥\tHC\t2000\t5\tFC\t1800\t0',
    ].join('\n');
    expect(detectFormat(minimal)).toBe('reflux');
    expect(parseScoreExport(minimal).rows.map((x) => [x.difficulty, x.level, x.exScore, x.clearLamp])).toEqual([
      ['HYPER', null, 1800, 'FULLCOMBO_CLEAR'],
      ['ANOTHER', null, 2000, 'HARD_CLEAR'],
    ]);
  });

  it('Reflux before 2021 (lamps only, no EX Score columns) is refused with a clear message', () => {
    const lampsOnly = [
      'title\tType\tSPN\tSPN Rating\tSPN Lamp\tSPN Letter\tSPA\tSPA Rating\tSPA Lamp\tSPA Letter',
      'X\tBits\tTRUE\t5\tHC\tA\tTRUE\t11\tFC\tAAA',
    ].join('\n');
    expect(detectFormat(lampsOnly)).toBe('reflux');
    expect(() => parseScoreExport(lampsOnly)).toThrow(/without "EX Score" columns/);
  });

  it('daken counter: DP rows when asked for, battle (DBx) rows skipped, LV 0 absent, empty LV kept', () => {
    const text = [
      'LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),Last Played',
      '12,A,DPA,H-CLEAR,2000,80,15,OFF/OFF,OFF/OFF,2025-01-01 12:00',
      '12,A,DBA,CLEAR,1900,75,20,?,?,2025-01-01 12:00',
      '0,A,SPL,FAILED,100,1,1,?,?,',
      ',B,SPH,CLEAR,1500,70,,?,?,2025-01-01 12:00',
    ].join('\n');
    const r = parseScoreExport(text, { playStyles: ['SP', 'DP'], now: NOW });
    expect(r.rows.map((x) => [x.title, x.playStyle, x.difficulty, x.level, x.missCount])).toEqual([
      ['A', 'DP', 'ANOTHER', 12, 15],
      ['B', 'SP', 'HYPER', null, null],
    ]);
    expect([r.skipped, r.absent, r.issues]).toEqual([1, 1, []]);
  });

  it("reads the daken counter's official-layout CSV for BPI Manager: NO PLAY rows skipped even with a score", () => {
    // written by the daken counter's "csv for BPI Manager": scores with NO PLAY lamps, level 0 for missing charts.
    // The reference skips a NO PLAY row whatever its score (issue #33 item 11): ANOTHER (EX 2,100) is not stored;
    // skipped: N, H, L (EX 0) and A (EX 2,100 under NO PLAY) = 4; B has level 0 → absent 1
    const header = OFFICIAL_HEADER;
    const line =
      'copula,冥,TECHNO,SLAKE,0,0,0,0,0,---,NO PLAY,---,3,0,0,0,---,NO PLAY,---,3,0,0,0,---,NO PLAY,---,12,2100,0,0,---,NO PLAY,---,3,0,0,0,---,NO PLAY,---,2025/5/4 9:5';
    const r = parseScoreExport([header, line].join('\n'), { now: NOW });
    expect(r.rows).toEqual([]);
    expect([r.skipped, r.absent]).toEqual([4, 1]);
  });
});

describe('many problems', () => {
  it('lists the first 1,000 and sums up the rest in one last issue', () => {
    // header on line 1, then 1,500 lines with an unknown mode on lines 2 … 1501
    const text = ['LV,Title,mode,Lamp,Score', ...Array.from({ length: 1500 }, (_, i) => `12,T${i},XYZ,CLEAR,100`)].join(
      '\n',
    );
    const r = parseScoreExport(text);
    expect(r.issues).toHaveLength(1000 + 1);
    expect(r.issues[999]).toMatchObject({ line: 1001, value: 'XYZ' });
    expect(r.issues[1000]).toEqual({
      line: 1501,
      severity: 'error',
      reason: '500 more problems (up to line 1501) are not listed',
    });
  });
});

describe('lamp cells', () => {
  it('NO PLAY rows are skipped even with a score: Reflux NP and an empty lamp, daken NO PLAY (issue #33 item 11)', () => {
    // Reflux TSV: A is NP with 1,500 EX, B has an empty lamp with 900 EX, C is a HARD CLEAR with 1,200 EX
    // → one row (C); skipped 2 (A, B)
    const reflux = ['title\tSPA Lamp\tSPA EX Score', 'A\tNP\t1500', 'B\t\t900', 'C\tHC\t1200'].join('\n');
    const r = parseScoreExport(reflux);
    expect(r.rows.map((x) => [x.title, x.clearLamp, x.exScore])).toEqual([['C', 'HARD_CLEAR', 1200]]);
    expect([r.skipped, r.issues]).toEqual([2, []]);
    // daken counter CSV: A NO PLAY with 2,000 EX skipped; B CLEAR 1,800 kept → rows 1, skipped 1
    const daken = ['LV,Title,mode,Lamp,Score', '12,A,SPA,NO PLAY,2000', '12,B,SPA,CLEAR,1800'].join('\n');
    const d = parseScoreExport(daken);
    expect(d.rows.map((x) => [x.title, x.clearLamp, x.exScore])).toEqual([['B', 'CLEAR', 1800]]);
    expect([d.skipped, d.issues]).toEqual([1, []]);
  });

  it('a lamp spelled like an Object.prototype property is an unknown clear type, not a function (found by fast-check)', () => {
    const text = ['title\tSPA Lamp\tSPA EX Score', 'A\ttoString\t100', 'B\tconstructor\t100', 'C\tPFC\t100'].join('\n');
    const r = parseScoreExport(text);
    expect(r.rows.map((x) => [x.title, x.clearLamp])).toEqual([['C', 'FULLCOMBO_CLEAR']]);
    expect(r.issues.map((i) => [i.line, i.value])).toEqual([
      [2, 'toString'],
      [3, 'constructor'],
    ]);
  });
});

describe('play dates', () => {
  it('are plausible from 1999-01-01T00:00Z to now + 1 day (wall clocks are JST, UTC+9)', () => {
    expect(plausiblePlayTime('1999-01-01 09:00:00', NOW)).toBe(true); // = 1999-01-01T00:00:00Z
    expect(plausiblePlayTime('1999-01-01 08:59:59', NOW)).toBe(false);
    // NOW = 2025-06-01 00:00 UTC = 09:00 JST; + 1 day = 2025-06-02 09:00 JST
    expect(plausiblePlayTime('2025-06-02 09:00:00', NOW)).toBe(true);
    expect(plausiblePlayTime('2025-06-02 09:00:01', NOW)).toBe(false);
  });

  it('out of range: a warning for that chart, the play kept with the import time', () => {
    const text = [
      'LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),Last Played',
      '12,A,SPA,CLEAR,2000,80,15,?,?,1998-05-05 10:00',
      '12,B,SPA,CLEAR,2000,80,15,?,?,2025-05-05 10:00',
    ].join('\n');
    const r = parseScoreExport(text, { now: NOW });
    expect(r.rows.map((x) => [x.title, x.lastPlayed])).toEqual([
      ['A', null],
      ['B', '2025-05-05 10:00:00'],
    ]);
    expect(r.issues).toEqual([
      {
        line: 2,
        column: 'Last Played',
        value: '1998-05-05 10:00',
        title: 'A',
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        severity: 'warning',
        reason: 'last played "1998-05-05 10:00" is outside 1999-01-01 … 2025-06-02; the import time is used',
      },
    ]);
  });

  it('normalizes the wall-clock spellings of the exports', () => {
    expect(normalizeWallClock('2026/5/4 9:5')).toBe('2026-05-04 09:05:00');
    expect(normalizeWallClock('2019-10-28 14:05')).toBe('2019-10-28 14:05:00');
    expect(normalizeWallClock('20240102-030405')).toBe('2024-01-02 03:04:05');
    expect(normalizeWallClock('2024-13-01 00:00')).toBeUndefined();
  });
});

describe('reading lines (csv-parse)', () => {
  it('a stray quote damages its own line only', () => {
    const rows = readRows(['a,"b', 'c,d', 'e,"f, g",h', '"x""y",z', 'You\'ll say "Now!",1'].join('\r\n'), ',');
    expect(rows).toEqual([
      { line: 1, fields: ['a', '"b'] }, // unclosed: read without quoting
      { line: 2, fields: ['c', 'd'] },
      { line: 3, fields: ['e', 'f, g', 'h'] },
      { line: 4, fields: ['x"y', 'z'] },
      { line: 5, fields: [`You'll say "Now!"`, '1'] },
    ]);
  });

  it('blank lines are skipped and lines keep their numbers (LF, CRLF, CR)', () => {
    expect(readRows('\ufeffh1\th2\r\n\r\n  \n1\t2\r3\t"4"\n', '\t')).toEqual([
      { line: 1, fields: ['h1', 'h2'] },
      { line: 4, fields: ['1', '2'] },
      { line: 5, fields: ['3', '4'] },
    ]);
  });

  it('splitFields: quoted delimiters and escaped quotes', () => {
    expect(splitFields('"a\tb"\tc', '\t')).toEqual(['a\tb', 'c']);
    expect(splitFields('"unclosed,x', ',')).toEqual(['"unclosed', 'x']);
  });
});
