/**
 * Pure parsers of the score exports players have (domain-scores.md §4): the official
 * e-amusement CSV (current layout with BEGINNER…LEGGENDARIA, older layout without), the Reflux
 * TSV, the daken counter CSV and the result techo CSV. UTF-8 with or without BOM, CRLF or LF.
 * Every difficulty present is kept. A malformed cell or row yields an issue with its line and
 * column — never an exception for bad data, never a silent drop.
 */
import { ClearLamp, Difficulty } from '../constants';
import { correctTitle, NO_CORRECTIONS, type TitleCorrections } from './corrections';
import { detectFormat } from './detect';
import { parseLamp } from './lamps';
import { intCell, normalizeWallClock, splitFields, splitLines } from './text';
import { CsvFormatError, type CsvFormat, type ParseIssue, type ParseResult, type ParsedRow } from './types';

export interface ParseOptions {
  /** Title corrections applied to tool exports whose titles differ from the catalogue (Reflux). */
  corrections?: TitleCorrections;
  /**
   * Is this a catalogue title? Used only to repair official rows whose unquoted title contains
   * a comma (the row then has too many fields): the split giving a known title wins.
   */
  knownTitle?: (title: string) => boolean;
}

interface Table {
  header: string[];
  rows: { line: number; fields: string[] }[];
}

function readTable(text: string, sep: string): Table {
  const lines = splitLines(text).filter((l) => l.text.trim() !== '');
  if (lines.length === 0) throw new CsvFormatError('The file is empty');
  const [head, ...body] = lines;
  return {
    header: splitFields(head.text, sep).map((h) => h.trim()),
    rows: body.map((l) => ({ line: l.line, fields: splitFields(l.text, sep) })),
  };
}

const DIFFICULTIES: Difficulty[] = [Difficulty.BEGINNER, Difficulty.NORMAL, Difficulty.HYPER, Difficulty.ANOTHER, Difficulty.LEGGENDARIA];

class Collector {
  /** one export row's date serves all its charts: normalize each distinct value once */
  private readonly times = new Map<string, string | undefined>();
  wallClock(raw: string): string | undefined {
    if (!this.times.has(raw)) this.times.set(raw, normalizeWallClock(raw));
    return this.times.get(raw);
  }
  rows: ParsedRow[] = [];
  issues: ParseIssue[] = [];
  skipped = 0;
  error(line: number, reason: string, column?: string) {
    this.issues.push({ line, column, reason, severity: 'error' });
  }
  warn(line: number, reason: string, column?: string) {
    this.issues.push({ line, column, reason, severity: 'warning' });
  }
  result(format: CsvFormat): ParseResult {
    return { format, rows: this.rows, issues: this.issues, skipped: this.skipped };
  }
}

/**
 * One chart's cells → a row, or a skip/issue. `score` must be a non-negative integer; a zero or
 * missing score or a NO PLAY lamp means "not played" (skipped).
 */
function chartCells(
  out: Collector,
  line: number,
  title: string,
  difficulty: Difficulty,
  cells: { lamp?: string; score?: string; miss?: string; lastPlayed?: string | null },
  cols: { lamp: string; score: string; miss?: string; lastPlayed?: string },
): void {
  const lamp = parseLamp(cells.lamp);
  if (lamp === undefined) return out.error(line, `unknown clear type ${JSON.stringify(cells.lamp)}`, cols.lamp);
  if (lamp === null) return void out.skipped++;
  const score = intCell(cells.score, ['', '-', '---']);
  if (score === undefined) return out.error(line, `EX score ${JSON.stringify(cells.score)} is not a non-negative integer`, cols.score);
  if (score === null || score === 0) return void out.skipped++;
  let missCount: number | null = null;
  if (cols.miss !== undefined) {
    const m = intCell(cells.miss);
    if (m === undefined) out.warn(line, `miss count ${JSON.stringify(cells.miss)} is not a number; kept as unknown`, cols.miss);
    else missCount = m;
  }
  let lastPlayed: string | null = null;
  const raw = (cells.lastPlayed ?? '').trim();
  if (raw && !raw.startsWith('1970-01-01')) {
    const norm = out.wallClock(raw);
    if (norm) lastPlayed = norm;
    else out.warn(line, `last played ${JSON.stringify(raw)} is not a date-time; the import time is used`, cols.lastPlayed);
  }
  out.rows.push({ line, title, difficulty, exScore: score, clearLamp: lamp as ClearLamp, missCount, lastPlayed });
}

/** The official e-amusement score CSV, current (41 columns) or older (no BEGINNER/LEGGENDARIA) layout. */
export function parseOfficialCsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, ',');
  const col = (name: string) => t.header.indexOf(name);
  const titleIdx = col('タイトル');
  if (titleIdx < 0) throw new CsvFormatError('Not an official score CSV: no タイトル column');
  const lastIdx = col('最終プレー日時');
  const groups = DIFFICULTIES.map((d) => {
    const score = col(`${d} スコア`) >= 0 ? `${d} スコア` : `${d} EXスコア`;
    return { d, lamp: `${d} クリアタイプ`, score, miss: `${d} ミスカウント` };
  }).filter((g) => col(g.lamp) >= 0);
  if (groups.length === 0) throw new CsvFormatError('Not an official score CSV: no "<DIFFICULTY> クリアタイプ" columns');
  for (const g of groups) if (col(g.score) < 0) throw new CsvFormatError(`Column "${g.d} スコア" is missing`);
  const width = t.header.length;
  const out = new Collector();
  for (const r of t.rows) {
    let fields = r.fields;
    if (fields.length > width && opts.knownTitle) fields = repairTitle(fields, width, titleIdx, opts.knownTitle) ?? fields;
    if (fields.length !== width) {
      out.error(r.line, `expected ${width} fields, found ${fields.length}`);
      continue;
    }
    const title = fields[titleIdx].trim();
    if (!title) {
      out.error(r.line, 'empty title', 'タイトル');
      continue;
    }
    const lastPlayed = lastIdx >= 0 ? fields[lastIdx] : null;
    for (const g of groups) {
      chartCells(
        out,
        r.line,
        title,
        g.d,
        { lamp: fields[col(g.lamp)], score: fields[col(g.score)], miss: col(g.miss) >= 0 ? fields[col(g.miss)] : undefined, lastPlayed },
        { lamp: g.lamp, score: g.score, miss: col(g.miss) >= 0 ? g.miss : undefined, lastPlayed: '最終プレー日時' },
      );
    }
  }
  return out.result('official');
}

/** Rejoins an unquoted title that contained commas, choosing the split that names a known title. */
function repairTitle(fields: string[], width: number, titleIdx: number, known: (t: string) => boolean): string[] | undefined {
  const extra = fields.length - width;
  const title = fields.slice(titleIdx, titleIdx + extra + 1).join(',');
  if (!known(title)) return undefined;
  return [...fields.slice(0, titleIdx), title, ...fields.slice(titleIdx + extra + 1)];
}

const REFLUX_PREFIX: [string, Difficulty][] = [
  ['SPB', Difficulty.BEGINNER],
  ['SPN', Difficulty.NORMAL],
  ['SPH', Difficulty.HYPER],
  ['SPA', Difficulty.ANOTHER],
  ['SPL', Difficulty.LEGGENDARIA],
];

/** Reflux TSV (INFINITAS): per row, SPB…SPL groups of "<P> Lamp", "<P> EX Score", "<P> Miss Count". */
export function parseRefluxTsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, '\t');
  const col = (name: string) => t.header.indexOf(name);
  const titleIdx = col('title');
  if (titleIdx < 0) throw new CsvFormatError('Reflux TSV: no "title" column');
  const groups = REFLUX_PREFIX.filter(([p]) => col(`${p} Lamp`) >= 0).map(([p, d]) => ({ d, lamp: `${p} Lamp`, score: `${p} EX Score`, miss: `${p} Miss Count` }));
  if (groups.length === 0) throw new CsvFormatError('Reflux TSV: no "<SPx> Lamp" columns');
  const out = new Collector();
  const corrections = opts.corrections ?? NO_CORRECTIONS;
  for (const r of t.rows) {
    const f = r.fields;
    const title = correctTitle((f[titleIdx] ?? '').trim(), corrections);
    if (!title) {
      out.error(r.line, 'empty title', 'title');
      continue;
    }
    for (const g of groups) {
      if (col(g.score) < 0) {
        out.error(r.line, `column "${g.score}" is missing`, g.score);
        continue;
      }
      chartCells(out, r.line, title, g.d, { lamp: f[col(g.lamp)], score: f[col(g.score)], miss: col(g.miss) >= 0 ? f[col(g.miss)] : undefined }, {
        lamp: g.lamp,
        score: g.score,
        miss: col(g.miss) >= 0 ? g.miss : undefined,
      });
    }
  }
  return out.result('reflux');
}

const MODE: Record<string, Difficulty> = {
  SPB: Difficulty.BEGINNER,
  SPN: Difficulty.NORMAL,
  SPH: Difficulty.HYPER,
  SPA: Difficulty.ANOTHER,
  SPL: Difficulty.LEGGENDARIA,
};

/** daken counter CSV (INFINITAS): LV,Title,mode,Lamp,Score,(rate),BP,…,Last Played. DP rows are skipped. */
export function parseDakenCounterCsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, ',');
  const col = (name: string) => t.header.indexOf(name);
  for (const c of ['Title', 'mode', 'Lamp', 'Score']) if (col(c) < 0) throw new CsvFormatError(`daken counter CSV: no "${c}" column`);
  const out = new Collector();
  const corrections = opts.corrections ?? NO_CORRECTIONS;
  for (const r of t.rows) {
    const f = r.fields;
    const title = correctTitle((f[col('Title')] ?? '').trim(), corrections);
    if (!title) {
      out.error(r.line, 'empty title', 'Title');
      continue;
    }
    const mode = (f[col('mode')] ?? '').trim().toUpperCase();
    const d = MODE[mode];
    if (!d) {
      if (/^DP[BNHAL]$/.test(mode)) out.skipped++;
      else out.error(r.line, `unknown mode ${JSON.stringify(mode)}`, 'mode');
      continue;
    }
    chartCells(
      out,
      r.line,
      title,
      d,
      { lamp: f[col('Lamp')], score: f[col('Score')], miss: col('BP') >= 0 ? f[col('BP')] : undefined, lastPlayed: col('Last Played') >= 0 ? f[col('Last Played')] : null },
      { lamp: 'Lamp', score: 'Score', miss: col('BP') >= 0 ? 'BP' : undefined, lastPlayed: 'Last Played' },
    );
  }
  return out.result('daken_counter');
}

/** result techo CSV (INFINITAS): バージョン,曲名,難易度,…,クリアタイプ,スコア,ミスカウント,最終プレイ日時. */
export function parseResultTechoCsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, ',');
  const col = (name: string) => t.header.indexOf(name);
  for (const c of ['曲名', '難易度', 'クリアタイプ', 'スコア']) if (col(c) < 0) throw new CsvFormatError(`result techo CSV: no "${c}" column`);
  const out = new Collector();
  const corrections = opts.corrections ?? NO_CORRECTIONS;
  for (const r of t.rows) {
    const f = r.fields;
    const title = correctTitle((f[col('曲名')] ?? '').trim(), corrections);
    if (!title) {
      out.error(r.line, 'empty title', '曲名');
      continue;
    }
    const raw = (f[col('難易度')] ?? '').trim().toUpperCase();
    const d = (DIFFICULTIES as string[]).includes(raw) ? (raw as Difficulty) : MODE[raw];
    if (!d) {
      out.error(r.line, `unknown difficulty ${JSON.stringify(raw)}`, '難易度');
      continue;
    }
    chartCells(
      out,
      r.line,
      title,
      d,
      {
        lamp: f[col('クリアタイプ')],
        score: f[col('スコア')],
        miss: col('ミスカウント') >= 0 ? f[col('ミスカウント')] : undefined,
        lastPlayed: col('最終プレイ日時') >= 0 ? f[col('最終プレイ日時')] : null,
      },
      { lamp: 'クリアタイプ', score: 'スコア', miss: col('ミスカウント') >= 0 ? 'ミスカウント' : undefined, lastPlayed: '最終プレイ日時' },
    );
  }
  return out.result('result_techo');
}

/** Detects the format and parses. Throws CsvFormatError for an unknown or structurally broken file. */
export function parseScoreExport(text: string, opts: ParseOptions = {}, format: CsvFormat | undefined = detectFormat(text)): ParseResult {
  switch (format) {
    case 'official':
      return parseOfficialCsv(text, opts);
    case 'reflux':
      return parseRefluxTsv(text, opts);
    case 'daken_counter':
      return parseDakenCounterCsv(text, opts);
    case 'result_techo':
      return parseResultTechoCsv(text, opts);
    default:
      throw new CsvFormatError(
        'Unsupported format: expected the official score CSV, a Reflux TSV, a daken counter CSV or a result techo CSV',
      );
  }
}
