/**
 * Pure parsers of the score exports players have (docs/domain/imports.md): the official
 * e-amusement CSV (current layout with BEGINNER…LEGGENDARIA, older layout without), the Reflux
 * TSV, the daken counter CSV and the result techo CSV, each in the header variants real exports
 * have. UTF-8 with or without BOM, CRLF, LF or CR. Fields are read with csv-parse (text.ts).
 *
 * Every played chart of every difficulty and level is emitted, with the level and play style the
 * export names. Imports never drop good data: a difficulty block of a chart that does not exist
 * (level 0 or empty) is ignored whatever its other cells hold; a bad value in one chart's cells
 * (unknown clear type, EX score over the maximum, a non-number) drops that chart alone with an
 * issue naming line, column and value; a broken line drops that line alone. Only a file whose
 * header is not one of the formats is refused (CsvFormatError).
 *
 * Linear time: every column is looked up once per file, before the row loop.
 */
import { Difficulty, PlayStyle } from '../constants';
import { parseBatchManual } from './batch-manual';
import { correctTitle, NO_CORRECTIONS, type TitleCorrections } from './corrections';
import { detectFormat } from './detect';
import { parseLamp } from './lamps';
import { intCell, normalizeWallClock, plausiblePlayTime, readTable, type TextRow } from './text';
import { CsvFormatError, type CsvFormat, type ParseIssue, type ParseResult, type ParsedRow } from './types';

export interface ParseOptions {
  /** Title corrections applied to tool exports whose titles differ from the catalogue (Reflux). */
  corrections?: TitleCorrections;
  /**
   * Is this a catalogue title? Used only to repair official rows whose unquoted title contains
   * a comma (the row then has too many fields): the split giving a known title wins.
   */
  knownTitle?: (title: string) => boolean;
  /**
   * Play styles to emit. Charts of other styles are counted as skipped. Default: SP only (what
   * the import service stores today; DP needs the importer to match rows by their playStyle).
   */
  playStyles?: readonly PlayStyle[];
  /** The style an official CSV was downloaded for (the file does not say). Default SP. */
  officialPlayStyle?: PlayStyle;
  /**
   * The maximum EX score (2 × notes) of a chart when the caller knows it (from its catalogue): a
   * larger EX score drops that chart with an issue. Reflux exports carry note counts themselves.
   */
  maxExScore?: (chart: { title: string; playStyle: PlayStyle; difficulty: Difficulty }) => number | undefined;
  /** The time play dates are checked against (a date after it + 1 day is implausible). Default: now. */
  now?: Date;
  /** BATCH-MANUAL matchType tachiSongID: Tachi song id → exact title, when a mapping is configured. */
  tachiSongTitle?: (id: string) => string | undefined;
}

const DIFFICULTIES: Difficulty[] = [
  Difficulty.BEGINNER,
  Difficulty.NORMAL,
  Difficulty.HYPER,
  Difficulty.ANOTHER,
  Difficulty.LEGGENDARIA,
];
const DIFFICULTY_BY_LETTER: Record<string, Difficulty> = {
  B: Difficulty.BEGINNER,
  N: Difficulty.NORMAL,
  H: Difficulty.HYPER,
  A: Difficulty.ANOTHER,
  L: Difficulty.LEGGENDARIA,
};
const MAX_LEVEL = 12;
/**
 * Issues listed per file; past it they are counted in one last issue (a 4 MiB file of broken
 * lines would otherwise answer millions of them).
 */
export const MAX_ISSUES = 1000;

/** Column indices of a header, looked up once per file (first occurrence of a name wins). */
class Columns {
  private readonly index = new Map<string, number>();
  constructor(readonly header: readonly string[]) {
    header.forEach((h, i) => {
      if (!this.index.has(h)) this.index.set(h, i);
    });
  }
  /** The first of `names` present: its header name and index. */
  find(...names: string[]): { name: string; at: number } | undefined {
    for (const name of names) {
      const at = this.index.get(name);
      if (at !== undefined) return { name, at };
    }
    return undefined;
  }
  require(format: string, ...names: string[]): { name: string; at: number } {
    const c = this.find(...names);
    if (!c) throw new CsvFormatError(`${format}: no "${names[0]}" column`);
    return c;
  }
}

type Col = { name: string; at: number } | undefined;

/** Where one chart's cells are in a row (indices resolved once per file). */
interface ChartColumns {
  lamp: Col;
  score: Col;
  miss?: Col;
  level?: Col;
  notes?: Col;
  lastPlayed?: Col;
  /** judgement counts (official CSV: PGreat, Great) */
  pgreat?: Col;
  great?: Col;
}

interface ChartCells {
  line: number;
  title: string;
  playStyle: PlayStyle;
  difficulty: Difficulty;
  /** cell accessor for this row (official rows may be shifted by a repaired title) */
  cell: (c: Col) => string | undefined;
  /** block formats (official, Reflux): an empty level means the chart does not exist */
  block: boolean;
  genre?: string;
  artist?: string;
}

class Collector {
  readonly rows: ParsedRow[] = [];
  readonly issues: ParseIssue[] = [];
  skipped = 0;
  absent = 0;
  private readonly styles: ReadonlySet<PlayStyle>;
  private readonly now: Date;
  /** one export date usually serves many charts: each distinct value is checked once */
  private readonly times = new Map<string, { at: string } | { problem: string }>();
  /** issues past MAX_ISSUES: counted, summed up in one last issue */
  private readonly unlisted = { count: 0, lastLine: 0 };

  constructor(private readonly opts: ParseOptions) {
    this.styles = new Set(opts.playStyles ?? [PlayStyle.SP]);
    this.now = opts.now ?? new Date();
  }

  /** `reason` may be a function: the text is then only built for a listed issue. */
  issue(
    severity: ParseIssue['severity'],
    line: number,
    reason: string | (() => string),
    at: Pick<ParseIssue, 'column' | 'value' | 'title' | 'playStyle' | 'difficulty'> = {},
  ) {
    if (this.issues.length >= MAX_ISSUES) {
      this.unlisted.count++;
      this.unlisted.lastLine = line;
      return;
    }
    const issue: ParseIssue = { line, reason: typeof reason === 'function' ? reason() : reason, severity };
    for (const k of ['column', 'value', 'title', 'playStyle', 'difficulty'] as const)
      if (at[k] !== undefined) (issue as unknown as Record<string, unknown>)[k] = at[k];
    this.issues.push(issue);
  }

  private time(raw: string): { at: string } | { problem: string } {
    let t = this.times.get(raw);
    if (!t) {
      const norm = normalizeWallClock(raw);
      if (!norm) t = { problem: 'is not a date-time' };
      else if (!plausiblePlayTime(norm, this.now))
        t = {
          problem: `is outside 1999-01-01 … ${new Date(this.now.getTime() + 86_400_000).toISOString().slice(0, 10)}`,
        };
      else t = { at: norm };
      this.times.set(raw, t);
    }
    return t;
  }

  private where(c: ChartCells, col: Col, value: string | undefined) {
    return { column: col?.name, value: value ?? '', title: c.title, playStyle: c.playStyle, difficulty: c.difficulty };
  }

  /** A bad value in one chart's cells: that chart alone is dropped. */
  private bad(c: ChartCells, col: Col, value: string | undefined, reason: string): void {
    this.issue('error', c.line, `${reason}; the chart is skipped`, this.where(c, col, value));
  }

  /** One chart's cells → a row, a skip, an absent chart or an issue (that chart alone). */
  chart(c: ChartCells, cols: ChartColumns): void {
    // 1. does the chart exist? (level 0, or an empty block, = no such chart in the song)
    let level: number | null = null;
    const rawLevel = cols.level ? (c.cell(cols.level) ?? '').trim() : undefined;
    const rawLamp = c.cell(cols.lamp);
    const rawScore = c.cell(cols.score);
    if (rawLevel !== undefined) {
      if (rawLevel === '' && c.block) return void this.absent++;
      const lv = intCell(rawLevel, ['']);
      if (lv === 0) return void this.absent++;
      if (lv !== null && (lv === undefined || lv > MAX_LEVEL)) {
        if (!this.styles.has(c.playStyle)) return void this.skipped++;
        return this.bad(c, cols.level, rawLevel, `level ${JSON.stringify(rawLevel)} is not a level (1–${MAX_LEVEL})`);
      }
      level = lv;
    } else if (c.block && (rawLamp ?? '').trim() === '' && (rawScore ?? '').trim() === '') {
      return void this.absent++;
    }
    // 2. a play style the caller does not store
    if (!this.styles.has(c.playStyle)) return void this.skipped++;
    // 3. lamp and EX score
    const lamp = parseLamp(rawLamp);
    if (lamp === undefined)
      return this.bad(c, cols.lamp, rawLamp, `unknown clear type ${JSON.stringify(rawLamp ?? '')}`);
    // NO PLAY (official, daken), NP (Reflux) or no lamp: not a play, skipped even with a score, as the reference
    // (docs/domain/scores.md, import rules)
    if (lamp === null) return void this.skipped++;
    const score = intCell(rawScore, ['', '-', '---']);
    if (score === undefined)
      return this.bad(
        c,
        cols.score,
        rawScore,
        `EX score ${JSON.stringify(rawScore ?? '')} is not a non-negative integer`,
      );
    if (score === null || score === 0) return void this.skipped++; // not played
    let notes: number | null = null;
    if (cols.notes) {
      const n = intCell(c.cell(cols.notes));
      if (n) notes = n;
    }
    const max =
      notes !== null
        ? notes * 2
        : this.opts.maxExScore?.({ title: c.title, playStyle: c.playStyle, difficulty: c.difficulty });
    if (max !== undefined && score > max)
      return this.bad(c, cols.score, rawScore, `EX score ${score} is over the chart's maximum ${max}`);
    // 4. the secondary fields: a bad value is reported and left unknown, the play is kept
    let missCount: number | null = null;
    if (cols.miss) {
      const raw = c.cell(cols.miss);
      const m = intCell(raw);
      if (m === undefined)
        this.issue(
          'warning',
          c.line,
          `miss count ${JSON.stringify(raw ?? '')} is not a number; kept as unknown`,
          this.where(c, cols.miss, raw),
        );
      else missCount = m;
    }
    let lastPlayed: string | null = null;
    const rawTime = cols.lastPlayed ? (c.cell(cols.lastPlayed) ?? '').trim() : '';
    if (rawTime && !rawTime.startsWith('1970-01-01')) {
      const t = this.time(rawTime);
      if ('at' in t) lastPlayed = t.at;
      else
        this.issue(
          'warning',
          c.line,
          `last played ${JSON.stringify(rawTime)} ${t.problem}; the import time is used`,
          this.where(c, cols.lastPlayed, rawTime),
        );
    }
    const row: ParsedRow = {
      line: c.line,
      title: c.title,
      playStyle: c.playStyle,
      difficulty: c.difficulty,
      level,
      notes,
      exScore: score,
      clearLamp: lamp,
      missCount,
      lastPlayed,
    };
    if (c.genre !== undefined) row.genre = c.genre;
    if (c.artist !== undefined) row.artist = c.artist;
    if (cols.pgreat || cols.great) {
      // kept when they agree with the EX score (EX = 2 × PGREAT + GREAT); anything else is left unknown
      const pg = cols.pgreat ? intCell(c.cell(cols.pgreat)) : null;
      const gr = cols.great ? intCell(c.cell(cols.great)) : null;
      if (typeof pg === 'number' && typeof gr === 'number' && pg * 2 + gr === score)
        row.judgements = { pgreat: pg, great: gr };
    }
    this.rows.push(row);
  }

  result(format: CsvFormat): ParseResult {
    const { count, lastLine } = this.unlisted;
    if (count > 0)
      this.issues.push({
        line: lastLine,
        reason: `${count} more problems (up to line ${lastLine}) are not listed`,
        severity: 'error',
      });
    return { format, rows: this.rows, issues: this.issues, skipped: this.skipped, absent: this.absent };
  }
}

const cellOf = (fields: readonly string[]) => (c: Col) => (c ? fields[c.at] : undefined);

// ---------------------------------------------------------------------------------------------
// Official e-amusement CSV

/**
 * The official e-amusement score CSV: current (41 columns, BEGINNER…LEGGENDARIA) or older layout
 * (27 columns, NORMAL…ANOTHER), "スコア" or "EXスコア" headers. The file does not name its play
 * style (it is downloaded per style): `officialPlayStyle`, default SP.
 */
export function parseOfficialCsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, ',');
  const cols = new Columns(t.header);
  const title = cols.find('タイトル');
  if (!title) throw new CsvFormatError('Not an official score CSV: no タイトル column');
  const lastPlayed = cols.find('最終プレー日時', '最終プレイ日時');
  const genre = cols.find('ジャンル');
  const artist = cols.find('アーティスト');
  const groups = DIFFICULTIES.flatMap((d) => {
    const lamp = cols.find(`${d} クリアタイプ`);
    if (!lamp) return [];
    const score = cols.find(`${d} スコア`, `${d} EXスコア`);
    if (!score) throw new CsvFormatError(`Column "${d} スコア" is missing`);
    const judgements = { pgreat: cols.find(`${d} PGreat`), great: cols.find(`${d} Great`) };
    return [
      {
        d,
        cols: {
          lamp,
          score,
          miss: cols.find(`${d} ミスカウント`),
          level: cols.find(`${d} 難易度`),
          lastPlayed,
          ...judgements,
        } satisfies ChartColumns,
      },
    ];
  });
  if (groups.length === 0)
    throw new CsvFormatError('Not an official score CSV: no "<DIFFICULTY> クリアタイプ" columns');
  // The free-text columns (title, genre, artist) are written unquoted: a comma in one of them
  // shifts the row. The columns after them are read from the right, the title repaired.
  let textEnd = title.at + 1;
  while (textEnd < t.header.length && (t.header[textEnd] === 'ジャンル' || t.header[textEnd] === 'アーティスト'))
    textEnd++;
  const width = t.header.length;
  const style = opts.officialPlayStyle ?? PlayStyle.SP;
  const out = new Collector(opts);
  for (const r of t.rows) {
    const row = officialRow(r, width, title.at, textEnd, opts.knownTitle);
    if ('problem' in row) {
      out.issue('error', r.line, row.problem);
      continue;
    }
    if (!row.title) {
      out.issue('error', r.line, 'empty title; the line is skipped', { column: 'タイトル', value: '' });
      continue;
    }
    const shift = row.shift;
    const cell = (c: Col) => (c ? r.fields[c.at >= textEnd ? c.at + shift : c.at] : undefined);
    const text = (c: Col) => (c && row.textAligned ? r.fields[c.at + shift]?.trim() : undefined);
    const chart: ChartCells = {
      line: r.line,
      title: row.title,
      playStyle: style,
      difficulty: Difficulty.BEGINNER,
      cell,
      block: true,
      genre: text(genre),
      artist: text(artist),
    };
    for (const { d, cols: cc } of groups) {
      chart.difficulty = d;
      out.chart(chart, cc);
    }
  }
  return out.result('official');
}

/**
 * The title of an official row and how far its later columns are shifted by unquoted commas in
 * the free-text columns [titleAt, textEnd). With more fields than the header, the split of the
 * free text giving a known title is taken (longest first); the title alone in the free text is
 * unambiguous. `textAligned`: genre and artist are where the header says, after the title.
 */
function officialRow(
  r: TextRow,
  width: number,
  titleAt: number,
  textEnd: number,
  known: ((title: string) => boolean) | undefined,
): { title: string; shift: number; textAligned: boolean } | { problem: () => string } {
  let n = r.fields.length;
  while (n > width && r.fields[n - 1].trim() === '') n--; // trailing separators
  if (n === width) return { title: r.fields[titleAt].trim(), shift: 0, textAligned: true };
  if (n < width) return { problem: () => `expected ${width} fields, found ${r.fields.length}; the line is skipped` };
  const extra = n - width;
  const candidate = (j: number) =>
    r.fields
      .slice(titleAt, titleAt + 1 + j)
      .join(',')
      .trim();
  if (textEnd === titleAt + 1) return { title: candidate(extra), shift: extra, textAligned: true };
  if (known) {
    for (let j = extra; j >= 0; j--) {
      const t = candidate(j);
      if (known(t)) return { title: t, shift: extra, textAligned: j === extra };
    }
  }
  return {
    problem: () =>
      `expected ${width} fields, found ${r.fields.length}: the title, genre or artist holds an unquoted comma and no split of them names a known title; the line is skipped`,
  };
}

// ---------------------------------------------------------------------------------------------
// Reflux TSV

const REFLUX_GROUPS: { prefix: string; style: PlayStyle; d: Difficulty }[] = [
  ...(['B', 'N', 'H', 'A', 'L'] as const).map((l) => ({
    prefix: `SP${l}`,
    style: PlayStyle.SP,
    d: DIFFICULTY_BY_LETTER[l],
  })),
  ...(['B', 'N', 'H', 'A', 'L'] as const).map((l) => ({
    prefix: `DP${l}`,
    style: PlayStyle.DP,
    d: DIFFICULTY_BY_LETTER[l],
  })),
];

/**
 * Reflux TSV (INFINITAS): per row, one group of columns per chart ("<P> Rating" = level,
 * "<P> Lamp", "<P> EX Score", "<P> Miss Count", "<P> Note Count"; P = SPB…SPL, DPN…DPL), in every
 * header variant Reflux wrote (with or without Type/Label, "<P>" or "<P> Unlocked", with or without
 * SPB/SPL/DPL). A missing chart is an empty group. Exports of Reflux versions that wrote lamps
 * without EX scores are refused (nothing to import).
 */
export function parseRefluxTsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, '\t');
  const cols = new Columns(t.header);
  const title = cols.find('title');
  if (!title) throw new CsvFormatError('Reflux TSV: no "title" column');
  const groups = REFLUX_GROUPS.flatMap(({ prefix, style, d }) => {
    const lamp = cols.find(`${prefix} Lamp`);
    if (!lamp) return [];
    const score = cols.find(`${prefix} EX Score`);
    return [
      {
        style,
        d,
        prefix,
        cols: {
          lamp,
          score,
          miss: cols.find(`${prefix} Miss Count`),
          level: cols.find(`${prefix} Rating`),
          notes: cols.find(`${prefix} Note Count`),
        },
      },
    ];
  });
  if (groups.length === 0) throw new CsvFormatError('Reflux TSV: no "<SPx> Lamp" columns');
  if (groups.every((g) => !g.cols.score)) {
    throw new CsvFormatError(
      'Reflux TSV without "EX Score" columns (written by a Reflux older than 2021, lamps only): export it again with a current Reflux',
    );
  }
  const missing = groups.find((g) => !g.cols.score);
  if (missing) throw new CsvFormatError(`Reflux TSV: column "${missing.prefix} EX Score" is missing`);
  const out = new Collector(opts);
  const corrections = opts.corrections ?? NO_CORRECTIONS;
  for (const r of t.rows) {
    const name = correctTitle((r.fields[title.at] ?? '').trim(), corrections);
    if (!name) {
      out.issue('error', r.line, 'empty title; the line is skipped', { column: 'title', value: '' });
      continue;
    }
    const chart: ChartCells = {
      line: r.line,
      title: name,
      playStyle: PlayStyle.SP,
      difficulty: Difficulty.BEGINNER,
      cell: cellOf(r.fields),
      block: true,
    };
    for (const g of groups) {
      chart.playStyle = g.style;
      chart.difficulty = g.d;
      out.chart(chart, g.cols);
    }
  }
  return out.result('reflux');
}

// ---------------------------------------------------------------------------------------------
// daken counter CSV

/** "SPA", "DPL"… → style and difficulty; "DBx" (battle) → 'battle'; anything else undefined. */
function modeOf(mode: string): { style: PlayStyle; d: Difficulty } | 'battle' | undefined {
  const m = /^(SP|DP|DB)([BNHAL])$/.exec(mode);
  if (!m) return undefined;
  if (m[1] === 'DB') return 'battle';
  return { style: m[1] === 'SP' ? PlayStyle.SP : PlayStyle.DP, d: DIFFICULTY_BY_LETTER[m[2]] };
}

/**
 * daken counter CSV (INFINITAS): LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),
 * Last Played — one chart a row, mode SPx / DPx (DBx = battle, not stored: skipped).
 */
export function parseDakenCounterCsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, ',');
  const cols = new Columns(t.header);
  const F = 'daken counter CSV';
  const title = cols.require(F, 'Title');
  const mode = cols.require(F, 'mode');
  const chartCols: ChartColumns = {
    lamp: cols.require(F, 'Lamp'),
    score: cols.require(F, 'Score'),
    miss: cols.find('BP'),
    level: cols.find('LV'),
    lastPlayed: cols.find('Last Played'),
  };
  const out = new Collector(opts);
  const corrections = opts.corrections ?? NO_CORRECTIONS;
  for (const r of t.rows) {
    const f = r.fields;
    const name = correctTitle((f[title.at] ?? '').trim(), corrections);
    if (!name) {
      out.issue('error', r.line, 'empty title; the line is skipped', { column: 'Title', value: '' });
      continue;
    }
    const raw = (f[mode.at] ?? '').trim().toUpperCase();
    const m = modeOf(raw);
    if (m === 'battle') {
      out.skipped++;
      continue;
    }
    if (!m) {
      out.issue('error', r.line, `unknown mode ${JSON.stringify(raw)}; the chart is skipped`, {
        column: 'mode',
        value: f[mode.at] ?? '',
        title: name,
      });
      continue;
    }
    out.chart(
      { line: r.line, title: name, playStyle: m.style, difficulty: m.d, cell: cellOf(f), block: false },
      chartCols,
    );
  }
  return out.result('daken_counter');
}

// ---------------------------------------------------------------------------------------------
// result techo CSV

/** A result techo difficulty: "ANOTHER", "SP ANOTHER", "DPA"… (a word alone is SP). */
function techoDifficulty(raw: string): { style: PlayStyle; d: Difficulty } | undefined {
  const code = modeOf(raw);
  if (code && code !== 'battle') return code;
  const m = /^(?:(SP|DP)\s*)?(BEGINNER|NORMAL|HYPER|ANOTHER|LEGGENDARIA)$/.exec(raw);
  if (!m) return undefined;
  return { style: m[1] === 'DP' ? PlayStyle.DP : PlayStyle.SP, d: m[2] as Difficulty };
}

/**
 * result techo CSV (INFINITAS): バージョン,曲名,ジャンル,アーティスト,難易度,レベル,クリアタイプ,DJ LEVEL,
 * スコア,ミスカウント,最終プレイ日時 — one chart a row; exports without the バージョン (or genre, artist,
 * level) columns are read the same way.
 */
export function parseResultTechoCsv(text: string, opts: ParseOptions = {}): ParseResult {
  const t = readTable(text, ',');
  const cols = new Columns(t.header);
  const F = 'result techo CSV';
  const title = cols.require(F, '曲名');
  const difficulty = cols.require(F, '難易度');
  const chartCols: ChartColumns = {
    lamp: cols.require(F, 'クリアタイプ'),
    score: cols.require(F, 'スコア', 'EXスコア'),
    miss: cols.find('ミスカウント', 'BP'),
    level: cols.find('レベル'),
    lastPlayed: cols.find('最終プレイ日時', '最終プレー日時'),
  };
  const out = new Collector(opts);
  const corrections = opts.corrections ?? NO_CORRECTIONS;
  for (const r of t.rows) {
    const f = r.fields;
    const name = correctTitle((f[title.at] ?? '').trim(), corrections);
    if (!name) {
      out.issue('error', r.line, 'empty title; the line is skipped', { column: '曲名', value: '' });
      continue;
    }
    const raw = (f[difficulty.at] ?? '').trim().toUpperCase();
    const d = techoDifficulty(raw);
    if (!d) {
      out.issue('error', r.line, `unknown difficulty ${JSON.stringify(raw)}; the chart is skipped`, {
        column: '難易度',
        value: f[difficulty.at] ?? '',
        title: name,
      });
      continue;
    }
    out.chart(
      { line: r.line, title: name, playStyle: d.style, difficulty: d.d, cell: cellOf(f), block: false },
      chartCols,
    );
  }
  return out.result('result_techo');
}

/** Detects the format and parses. Throws CsvFormatError for an unknown or structurally broken file. */
export function parseScoreExport(
  text: string,
  opts: ParseOptions = {},
  format: CsvFormat | undefined = detectFormat(text),
): ParseResult {
  switch (format) {
    case 'official':
      return parseOfficialCsv(text, opts);
    case 'reflux':
      return parseRefluxTsv(text, opts);
    case 'daken_counter':
      return parseDakenCounterCsv(text, opts);
    case 'result_techo':
      return parseResultTechoCsv(text, opts);
    case 'batch_manual':
      return parseBatchManual(text, opts);
    default:
      throw new CsvFormatError(
        'Unsupported format: expected the official score CSV, a Reflux TSV, a daken counter CSV, a result techo CSV ' +
          'or a Tachi BATCH-MANUAL JSON document',
      );
  }
}
