/**
 * Property-based robustness of the score-export parsers (fast-check): arbitrary text and mutated
 * real-looking exports of every format never throw anything but CsvFormatError, and every result
 * is well-formed (rows carry valid fields, issues carry a line and a reason).
 */
import { FUZZ_RUNS, fuzzRuns } from '../helpers/fuzz';
import fc from 'fast-check';
import { parse as csvParse } from 'csv-parse/sync';
import {
  CsvFormatError,
  detectFormat,
  endsInsideQuotes,
  readRows,
  parseDakenCounterCsv,
  parseOfficialCsv,
  parseRefluxTsv,
  parseResultTechoCsv,
  parseScoreExport,
  type ParseResult,
} from '../../src/domain/csv';
import { OFFICIAL_HEADER } from '../../src/domain/csv/official-writer';

const DIFFS = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'];
const LAMPS = [
  'NO PLAY',
  'FAILED',
  'ASSIST CLEAR',
  'EASY CLEAR',
  'CLEAR',
  'HARD CLEAR',
  'EX HARD CLEAR',
  'FULLCOMBO CLEAR',
  'SUPER',
];
const REFLUX_HEADER = [
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
const REFLUX_GROUPS = ['SPB', 'SPN', 'SPH', 'SPA', 'SPL', 'DPN', 'DPH', 'DPA', 'DPL'];
const REFLUX_2024_HEADER = [
  'title',
  'Type',
  'Label',
  'Cost Normal',
  'Cost Hyper',
  'Cost Another',
  'SP DJ Points',
  'DP DJ Points',
  ...REFLUX_GROUPS.flatMap((p) =>
    ['Unlocked', 'Rating', 'Lamp', 'Letter', 'EX Score', 'Miss Count', 'Note Count', 'DJ Points'].map(
      (c) => `${p} ${c}`,
    ),
  ),
].join('\t');
const DAKEN_HEADER = 'LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),Last Played';
const TECHO_HEADER =
  'バージョン,曲名,ジャンル,アーティスト,難易度,レベル,クリアタイプ,DJ LEVEL,スコア,ミスカウント,最終プレイ日時';

const title = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('Verflucht', 'VØID', 'Title, with comma', '"quoted"', 'ünï ⚡', ''),
);
const num = fc.oneof(
  fc.integer({ min: -5, max: 5000 }).map(String),
  fc.constantFrom('---', '?', '', 'abc', '1e9', '00012', '-0', '9'.repeat(30)),
);
const lamp = fc.oneof(
  fc.constantFrom(...LAMPS, 'HC', 'EXH', 'F', 'NP', 'FC', 'PFC', 'EXH-CLEAR', 'F-COMBO', 'H-CLEAR', 'A-CLEAR'),
  fc.string({ maxLength: 8 }),
);
const date = fc.oneof(
  fc.constantFrom(
    '2025-01-02 03:04',
    '2024-05-06 07:08:09',
    '20240102-030405',
    '1970-01-01 09:00',
    'yesterday',
    '',
    '9999-99-99 99:99',
  ),
  fc.string({ maxLength: 12 }),
);

const officialRow = fc
  .tuple(title, fc.array(fc.tuple(num, num, lamp), { minLength: 5, maxLength: 5 }), date)
  .map(([t, cells, d]) =>
    [
      '33 Sparkle Shower',
      t,
      'G',
      'A',
      '1',
      ...cells.map(([lv, ex, l]) => [lv, ex, '0', '0', '3', l, 'AA'].join(',')),
      d,
    ].join(','),
  );
const reflux2024Row = fc
  .tuple(title, fc.array(fc.tuple(num, lamp, num, num, num), { minLength: 9, maxLength: 9 }))
  .map(([t, g]) =>
    [
      t,
      'Bits',
      'Bits',
      '0',
      '0',
      '0',
      '0',
      '0',
      ...g.map(([lv, l, ex, miss, notes]) => ['TRUE', lv, l, 'AA', ex, miss, notes, ''].join('\t')),
    ].join('\t'),
  );
const refluxRow = fc
  .tuple(title, fc.array(fc.tuple(lamp, num, num), { minLength: 3, maxLength: 3 }))
  .map(([t, c]) => [t, 'x', 'y', '0', ...c.flat()].join('\t'));
const dakenRow = fc
  .tuple(num, title, fc.constantFrom('SPA', 'SPH', 'SPL', 'DPA', 'DBA', 'SPX', ''), lamp, num, num, date)
  .map(([lv, t, m, l, ex, bp, d]) => [lv, t, m, l, ex, '88.1', bp, 'x', 'y', d].join(','));
const techoRow = fc
  .tuple(title, fc.constantFrom('ANOTHER', 'HYPER', 'LEGGENDARIA', 'NORMAL', 'X'), num, lamp, num, num, date)
  .map(([t, diff, lv, l, ex, miss, d]) => ['INFINITAS', t, 'g', 'a', diff, lv, l, 'AA', ex, miss, d].join(','));

/** A real-looking export of one format: header, rows, optional BOM, LF or CRLF. */
const realLooking = fc
  .oneof(
    fc.tuple(fc.constant(OFFICIAL_HEADER), fc.array(officialRow, { maxLength: 6 })),
    fc.tuple(fc.constant(REFLUX_HEADER), fc.array(refluxRow, { maxLength: 6 })),
    fc.tuple(fc.constant(REFLUX_2024_HEADER), fc.array(reflux2024Row, { maxLength: 6 })),
    fc.tuple(fc.constant(DAKEN_HEADER), fc.array(dakenRow, { maxLength: 6 })),
    fc.tuple(fc.constant(TECHO_HEADER), fc.array(techoRow, { maxLength: 6 })),
  )
  .chain(([header, rows]) =>
    fc
      .tuple(fc.boolean(), fc.constantFrom('\n', '\r\n', '\r'))
      .map(([bom, eol]) => (bom ? '\ufeff' : '') + [header, ...rows].join(eol)),
  );

/** Mutations: insert, delete or replace a slice, duplicate or drop a line, stray quotes / separators. */
const mutated = fc
  .tuple(
    realLooking,
    fc.array(
      fc.tuple(
        fc.constantFrom('insert', 'delete', 'replace', 'dupLine', 'dropLine', 'truncate'),
        fc.nat(),
        fc.nat({ max: 20 }),
        fc.oneof(
          fc.string({ maxLength: 6 }),
          fc.constantFrom('"', ',', '\t', '\n', '\r\n', '""', '\u0000', '\ufeff', '\\'),
        ),
      ),
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
  ['parseScoreExport (SP and DP)', (t) => parseScoreExport(t, { playStyles: ['SP', 'DP'] })],
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
    expect(Number.isInteger(row.exScore) && row.exScore > 0).toBe(true);
    expect(DIFFS).toContain(row.difficulty);
    expect(['SP', 'DP']).toContain(row.playStyle);
    expect(row.level === null || (Number.isInteger(row.level) && row.level >= 1 && row.level <= 12)).toBe(true);
    expect(row.clearLamp === null || LAMP_VALUES.includes(row.clearLamp)).toBe(true);
    expect(row.notes === null || (Number.isInteger(row.notes) && row.exScore <= 2 * row.notes)).toBe(true);
    expect(typeof row.title).toBe('string');
    expect(row.missCount === null || (Number.isInteger(row.missCount) && row.missCount >= 0)).toBe(true);
    expect(row.lastPlayed === null || /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(row.lastPlayed)).toBe(true);
  }
  for (const issue of r.issues) {
    expect(Number.isInteger(issue.line)).toBe(true);
    expect(issue.reason.length).toBeGreaterThan(0);
  }
  expect(Number.isInteger(r.skipped) && r.skipped >= 0).toBe(true);
  expect(Number.isInteger(r.absent) && r.absent >= 0).toBe(true);
}

const LAMP_VALUES: string[] = [
  'FAILED',
  'ASSIST_CLEAR',
  'EASY_CLEAR',
  'CLEAR',
  'HARD_CLEAR',
  'EX_HARD_CLEAR',
  'FULLCOMBO_CLEAR',
];

const RUNS = FUZZ_RUNS;

describe('CSV parsers under generated input (fast-check)', () => {
  it.each(PARSERS)('%s: arbitrary strings never throw anything but CsvFormatError', (_name, parse) => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ unit: 'grapheme', maxLength: 100 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
        ),
        (text) => check(parse, text),
      ),
      { numRuns: RUNS },
    );
  });

  it.each(PARSERS)('%s: mutated real-looking exports of every format never crash', (_name, parse) => {
    fc.assert(
      fc.property(mutated, (text) => check(parse, text)),
      { numRuns: RUNS },
    );
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
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), mutated), (t) => {
        const f = detectFormat(t);
        expect(
          f === undefined || ['official', 'reflux', 'daken_counter', 'result_techo', 'batch_manual'].includes(f),
        ).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Lines and fields (csv-parse)

/** A field as a CSV writer quotes it (RFC 4180) when it holds a delimiter or a quote. */
const quote = (f: string, sep: string) => (f.includes(sep) || f.includes('"') ? `"${f.replace(/"/g, '""')}"` : f);
const cell = fc.string({ maxLength: 12 }).map((x) => x.replace(/[\r\n]/g, ' '));
const sepArb = fc.constantFrom<',' | '\t'>(',', '\t');

describe('reading lines (fast-check)', () => {
  it('quoted fields written by a CSV writer come back exactly, one record per line', () => {
    fc.assert(
      fc.property(
        sepArb,
        fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        (sep, table, eol) => {
          const lines = table.map((fields) => fields.map((f) => quote(f, sep)).join(sep));
          const rows = readRows(lines.join(eol), sep);
          const expected = table.map((fields, i) => ({ line: i + 1, fields })).filter((_, i) => lines[i].trim() !== '');
          expect(rows).toEqual(expected);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a line without quotes is split exactly as csv-parse splits it', () => {
    fc.assert(
      fc.property(
        sepArb,
        fc.array(
          cell.map((x) => x.replace(/"/g, "'")),
          { minLength: 1, maxLength: 8 },
        ),
        (sep, fields) => {
          const line = fields.join(sep);
          fc.pre(line.trim() !== '');
          const viaCsvParse = csvParse(line, {
            delimiter: sep,
            relax_quotes: true,
            relax_column_count: true,
          });
          expect(readRows(line, sep)).toEqual([{ line: 1, fields: viaCsvParse[0] }]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('endsInsideQuotes agrees with csv-parse: a line ends inside a quoted field exactly when csv-parse cannot close it', () => {
    const dense = fc
      .array(fc.constantFrom('"', '""', ',', '\t', 'a', ' ', '"a"', 'b"'), { minLength: 1, maxLength: 14 })
      .map((xs) => xs.join(''));
    fc.assert(
      fc.property(sepArb, dense, (sep, line) => {
        const records = csvParse(line, {
          delimiter: sep,
          record_delimiter: '\n',
          relax_quotes: true,
          relax_column_count: true,
          skip_records_with_error: true,
          info: true,
        }) as unknown as { info: { lines: number } }[];
        const closes = records.length === 1 && records[0].info.lines === 1;
        expect(endsInsideQuotes(line, sep)).toBe(!closes);
        // and read without quoting, a line is the text between the delimiters, as csv-parse with quoting off
        expect(line.split(sep)).toEqual(csvParse(line, { delimiter: sep, quote: false, relax_column_count: true })[0]);
      }),
      { numRuns: fuzzRuns(3000) },
    );
  });

  it('whatever the quotes, every non-blank line is one record with its own line number (a stray quote never swallows lines)', () => {
    const junk = fc
      .array(fc.oneof(cell, fc.constantFrom('"', '""', '"a', 'b"', '","', '\t"')), { maxLength: 6 })
      .map((xs) => xs.join(''));
    fc.assert(
      fc.property(sepArb, fc.array(junk, { minLength: 1, maxLength: 12 }), (sep, lines) => {
        const rows = readRows(lines.join('\n'), sep);
        expect(rows.map((r) => r.line)).toEqual(
          lines.map((l, i) => (l.trim() !== '' ? i + 1 : 0)).filter((n) => n > 0),
        );
        for (const r of rows) expect(r.fields.some((f) => /[\r\n]/.test(f))).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Issue #17: absent charts, bad values drop their chart alone, everything is accounted for

type Block =
  | { kind: 'played'; level: number; ex: number; lamp: string }
  | { kind: 'unplayed'; level: number }
  | { kind: 'absent'; junk: string[] }
  | { kind: 'bad'; level: number; what: 'lamp' | 'score' };
const GOOD_LAMPS = ['FAILED', 'ASSIST CLEAR', 'EASY CLEAR', 'CLEAR', 'HARD CLEAR', 'EX HARD CLEAR', 'FULLCOMBO CLEAR'];
const blockArb: fc.Arbitrary<Block> = fc.oneof(
  fc.record({
    kind: fc.constant('played' as const),
    level: fc.integer({ min: 1, max: 12 }),
    ex: fc.integer({ min: 1, max: 4000 }),
    lamp: fc.constantFrom(...GOOD_LAMPS, 'NO PLAY'),
  }),
  fc.record({ kind: fc.constant('unplayed' as const), level: fc.integer({ min: 1, max: 12 }) }),
  fc.record({
    kind: fc.constant('absent' as const),
    junk: fc.array(
      fc.oneof(
        fc.string({ maxLength: 6 }).map((x) => x.replace(/[,"\r\n]/g, '')),
        fc.constantFrom('abc', '???', 'SUPER', '-1', '99999999999'),
      ),
      { minLength: 6, maxLength: 6 },
    ),
  }),
  fc.record({
    kind: fc.constant('bad' as const),
    level: fc.integer({ min: 1, max: 12 }),
    what: fc.constantFrom('lamp' as const, 'score' as const),
  }),
);
const blockCells = (b: Block): string[] => {
  switch (b.kind) {
    case 'played':
      return [String(b.level), String(b.ex), '0', '0', '7', b.lamp, 'A'];
    case 'unplayed':
      return [String(b.level), '0', '0', '0', '---', 'NO PLAY', '---'];
    case 'absent':
      return [fc.sample(fc.constantFrom('0', ''), 1)[0], ...b.junk];
    case 'bad':
      return b.what === 'lamp'
        ? [String(b.level), '1000', '0', '0', '7', 'MYSTERY CLEAR', 'A']
        : [String(b.level), '1O00', '0', '0', '7', 'CLEAR', 'A'];
  }
};

describe('official CSV import rules (fast-check)', () => {
  it('absent blocks are ignored whatever they hold; a bad value drops its chart alone; every block is accounted for', () => {
    const song = fc.tuple(fc.array(blockArb, { minLength: 5, maxLength: 5 }), fc.constantFrom('', '\ufeff'));
    fc.assert(
      fc.property(fc.array(song, { minLength: 1, maxLength: 6 }), (songs) => {
        const lines = songs.map(([blocks], i) =>
          ['33 Sparkle Shower', `Song ${i}`, 'G', 'A', '1', ...blocks.flatMap(blockCells), '2025-01-02 03:04'].join(
            ',',
          ),
        );
        const r = parseScoreExport([OFFICIAL_HEADER, ...lines].join('\n'), { now: new Date('2025-06-01T00:00:00Z') });
        // a NO PLAY lamp with a score is not a play (issue #33 item 11): skipped like an unplayed block
        const isPlay = (b: Block) => b.kind === 'played' && b.lamp !== 'NO PLAY';
        const expected = songs.flatMap(([blocks], i) =>
          blocks.flatMap((b, d) =>
            b.kind === 'played' && isPlay(b) ? [[i + 2, DIFFS[d], b.level, b.ex, b.lamp.replace(/ /g, '_')]] : [],
          ),
        );
        expect(r.rows.map((x) => [x.line, x.difficulty, x.level, x.exScore, x.clearLamp])).toEqual(expected);
        const bad = songs.flatMap(([blocks], i) =>
          blocks.flatMap((b, d) =>
            b.kind === 'bad'
              ? [[i + 2, DIFFS[d], b.what === 'lamp' ? `${DIFFS[d]} クリアタイプ` : `${DIFFS[d]} スコア`]]
              : [],
          ),
        );
        expect(r.issues.map((x) => [x.line, x.difficulty, x.column])).toEqual(bad);
        const count = (k: Block['kind']) =>
          songs.reduce((n, [blocks]) => n + blocks.filter((b) => b.kind === k).length, 0);
        const noPlay = songs.reduce(
          (n, [blocks]) => n + blocks.filter((b) => b.kind === 'played' && !isPlay(b)).length,
          0,
        );
        expect([r.skipped, r.absent]).toEqual([count('unplayed') + noPlay, count('absent')]);
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
});
