/**
 * What the score-export parsers share (parsers.ts and the one file per format: official.ts,
 * reflux.ts, counters.ts): the options, the columns of a header looked up once per file, and the
 * Collector that turns one chart's cells into a row, a skip, an absent chart or an issue — the
 * rules of docs/domain/imports.md, the same for every format.
 */
import { Difficulty, PlayStyle } from '../constants';
import { type TitleCorrections } from './corrections';
import { parseLamp } from './lamps';
import { intCell, normalizeWallClock, plausiblePlayTime } from './text';
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

export const DIFFICULTIES: Difficulty[] = [
  Difficulty.BEGINNER,
  Difficulty.NORMAL,
  Difficulty.HYPER,
  Difficulty.ANOTHER,
  Difficulty.LEGGENDARIA,
];
export const DIFFICULTY_BY_LETTER: Record<string, Difficulty> = {
  B: Difficulty.BEGINNER,
  N: Difficulty.NORMAL,
  H: Difficulty.HYPER,
  A: Difficulty.ANOTHER,
  L: Difficulty.LEGGENDARIA,
};
export const MAX_LEVEL = 12;
/**
 * Issues listed per file; past it they are counted in one last issue (a 4 MiB file of broken
 * lines would otherwise answer millions of them).
 */
export const MAX_ISSUES = 1000;

/** Column indices of a header, looked up once per file (first occurrence of a name wins). */
export class Columns {
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

export type Col = { name: string; at: number } | undefined;

/** Where one chart's cells are in a row (indices resolved once per file). */
export interface ChartColumns {
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

export interface ChartCells {
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

export class Collector {
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
    // (docs/domain/imports.md#the-import)
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

export const cellOf = (fields: readonly string[]) => (c: Col) => (c ? fields[c.at] : undefined);
