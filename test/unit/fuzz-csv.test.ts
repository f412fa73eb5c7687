/**
 * Property-based robustness of the score-export parsers (fast-check): arbitrary text and mutated
 * real-looking exports of every format never throw anything but CsvFormatError, and every result
 * is well-formed (rows carry valid fields, issues carry a line and a reason).
 */
import fc from 'fast-check';
import {
  CsvFormatError,
  detectFormat,
  parseDakenCounterCsv,
  parseOfficialCsv,
  parseRefluxTsv,
  parseResultTechoCsv,
  parseScoreExport,
  type ParseResult,
} from '../../src/domain/csv';

const DIFFS = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'];
const LAMPS = ['NO PLAY', 'FAILED', 'ASSIST CLEAR', 'EASY CLEAR', 'CLEAR', 'HARD CLEAR', 'EX HARD CLEAR', 'FULLCOMBO CLEAR', 'SUPER'];
const OFFICIAL_HEADER = [
  'バージョン', 'タイトル', 'ジャンル', 'アーティスト', 'プレー回数',
  ...DIFFS.flatMap((d) => [`${d} 難易度`, `${d} スコア`, `${d} PGreat`, `${d} Great`, `${d} ミスカウント`, `${d} クリアタイプ`, `${d} DJ LEVEL`]),
  '最終プレー日時',
].join(',');
const REFLUX_HEADER = ['title', 'Type', 'Label', 'Cost Normal', 'SPN Lamp', 'SPN EX Score', 'SPN Miss Count', 'SPA Lamp', 'SPA EX Score', 'SPA Miss Count', 'SPL Lamp', 'SPL EX Score', 'SPL Miss Count'].join('\t');
const DAKEN_HEADER = 'LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),Last Played';
const TECHO_HEADER = 'バージョン,曲名,ジャンル,アーティスト,難易度,レベル,クリアタイプ,DJ LEVEL,スコア,ミスカウント,最終プレイ日時';

const title = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('Verflucht', 'VØID', 'Title, with comma', '"quoted"', 'ünï ⚡', ''));
const num = fc.oneof(fc.integer({ min: -5, max: 5000 }).map(String), fc.constantFrom('---', '?', '', 'abc', '1e9', '00012', '-0', '9'.repeat(30)));
const lamp = fc.oneof(fc.constantFrom(...LAMPS, 'HC', 'EXH', 'F', 'NP', 'FC', 'EXH-CLEAR', 'F-COMBO', 'H-CLEAR', 'A-CLEAR'), fc.string({ maxLength: 8 }));
const date = fc.oneof(fc.constantFrom('2025-01-02 03:04', '2024-05-06 07:08:09', '20240102-030405', '1970-01-01 09:00', 'yesterday', '', '9999-99-99 99:99'), fc.string({ maxLength: 12 }));

const officialRow = fc.tuple(title, fc.array(fc.tuple(num, num, lamp), { minLength: 5, maxLength: 5 }), date).map(([t, cells, d]) =>
  ['33 Sparkle Shower', t, 'G', 'A', '1', ...cells.map(([lv, ex, l]) => [lv, ex, '0', '0', '3', l, 'AA'].join(',')), d].join(','),
);
const refluxRow = fc.tuple(title, fc.array(fc.tuple(lamp, num, num), { minLength: 3, maxLength: 3 })).map(([t, c]) => [t, 'x', 'y', '0', ...c.flat()].join('\t'));
const dakenRow = fc.tuple(num, title, fc.constantFrom('SPA', 'SPH', 'SPL', 'DPA', 'SPX', ''), lamp, num, num, date).map(([lv, t, m, l, ex, bp, d]) => [lv, t, m, l, ex, '88.1', bp, 'x', 'y', d].join(','));
const techoRow = fc.tuple(title, fc.constantFrom('ANOTHER', 'HYPER', 'LEGGENDARIA', 'NORMAL', 'X'), num, lamp, num, num, date).map(([t, diff, lv, l, ex, miss, d]) =>
  ['INFINITAS', t, 'g', 'a', diff, lv, l, 'AA', ex, miss, d].join(','),
);

/** A real-looking export of one format: header, rows, optional BOM, LF or CRLF. */
const realLooking = fc.oneof(
  fc.tuple(fc.constant(OFFICIAL_HEADER), fc.array(officialRow, { maxLength: 6 })),
  fc.tuple(fc.constant(REFLUX_HEADER), fc.array(refluxRow, { maxLength: 6 })),
  fc.tuple(fc.constant(DAKEN_HEADER), fc.array(dakenRow, { maxLength: 6 })),
  fc.tuple(fc.constant(TECHO_HEADER), fc.array(techoRow, { maxLength: 6 })),
).chain(([header, rows]) =>
  fc.tuple(fc.boolean(), fc.constantFrom('\n', '\r\n', '\r')).map(([bom, eol]) => (bom ? '\ufeff' : '') + [header, ...rows].join(eol)),
);

/** Mutations: insert, delete or replace a slice, duplicate or drop a line, stray quotes / separators. */
const mutated = fc
  .tuple(
    realLooking,
    fc.array(
      fc.tuple(fc.constantFrom('insert', 'delete', 'replace', 'dupLine', 'dropLine', 'truncate'), fc.nat(), fc.nat({ max: 20 }), fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('"', ',', '\t', '\n', '\r\n', '""', '\u0000', '\ufeff', '\\'))),
      { maxLength: 4 },
    ),
  )
  .map(([text, ops]) => {
    let t = text;
    for (const [op, at, len, s] of ops) {
      const i = t.length ? at % t.length : 0;
      if (op === 'insert') t = t.slice(0, i) + s + t.slice(i);
      else if (op === 'delete') t = t.slice(0, i) + t.slice(i + len);
      else if (op === 'replace') t = t.slice(0, i) + s + t.slice(i + s.length);
      else if (op === 'truncate') t = t.slice(0, i);
      else {
        const lines = t.split('\n');
        const k = at % Math.max(1, lines.length);
        if (op === 'dupLine') lines.splice(k, 0, lines[k] ?? '');
        else lines.splice(k, 1);
        t = lines.join('\n');
      }
    }
    return t;
  });

const PARSERS: [string, (t: string) => ParseResult][] = [
  ['parseScoreExport', (t) => parseScoreExport(t)],
  ['parseOfficialCsv', (t) => parseOfficialCsv(t)],
  ['parseRefluxTsv', (t) => parseRefluxTsv(t)],
  ['parseDakenCounterCsv', (t) => parseDakenCounterCsv(t)],
  ['parseResultTechoCsv', (t) => parseResultTechoCsv(t)],
];

/** Runs a parser: a result must be well-formed; the only allowed throw is CsvFormatError. */
function check(parse: (t: string) => ParseResult, text: string): void {
  let r: ParseResult;
  try {
    r = parse(text);
  } catch (err) {
    if (err instanceof CsvFormatError) {
      expect(typeof err.message).toBe('string');
      expect(err.message.length).toBeGreaterThan(0);
      return;
    }
    throw err;
  }
  expect(Array.isArray(r.rows)).toBe(true);
  for (const row of r.rows) {
    expect(Number.isInteger(row.exScore) && row.exScore >= 0).toBe(true);
    expect(DIFFS).toContain(row.difficulty);
    expect(typeof row.title).toBe('string');
    expect(row.missCount === null || (Number.isInteger(row.missCount) && row.missCount >= 0)).toBe(true);
    expect(row.lastPlayed === null || /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(row.lastPlayed)).toBe(true);
  }
  for (const issue of r.issues) {
    expect(Number.isInteger(issue.line)).toBe(true);
    expect(issue.reason.length).toBeGreaterThan(0);
  }
  expect(Number.isInteger(r.skipped) && r.skipped >= 0).toBe(true);
}

const RUNS = 1000;

describe('CSV parsers under generated input (fast-check)', () => {
  it.each(PARSERS)('%s: arbitrary strings never throw anything but CsvFormatError', (_name, parse) => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 100 }), fc.string({ unit: 'binary', maxLength: 200 })), (text) => check(parse, text)),
      { numRuns: RUNS },
    );
  });

  it.each(PARSERS)('%s: mutated real-looking exports of every format never crash', (_name, parse) => {
    fc.assert(fc.property(mutated, (text) => check(parse, text)), { numRuns: RUNS });
  });

  it('unmutated real-looking exports are recognised and parse with rows or precise issues', () => {
    let rows = 0;
    fc.assert(
      fc.property(realLooking, (text) => {
        expect(detectFormat(text)).toBeDefined();
        const r = parseScoreExport(text);
        rows += r.rows.length;
        check(() => r, text);
      }),
      { numRuns: RUNS },
    );
    expect(rows).toBeGreaterThan(0);
  });

  it('detectFormat never throws', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 200 }), mutated), (t) => {
      const f = detectFormat(t);
      expect(f === undefined || ['official', 'reflux', 'daken_counter', 'result_techo'].includes(f)).toBe(true);
    }), { numRuns: RUNS });
  });
});
