import type { ClearLamp, Difficulty, PlayStyle } from '../constants';

export type CsvFormat = 'official' | 'reflux' | 'daken_counter' | 'result_techo' | 'batch_manual';

/**
 * One played chart read from an export: the normalized row every format produces. Every
 * difficulty and level is emitted (BEGINNER … LEGGENDARIA, levels 1–12), with the level and play
 * style the export names, so that an importer can learn charts its catalogue does not hold yet.
 */
export interface ParsedRow {
  /** 1-based line of the source text the row came from (0 for rows not read from text). */
  line: number;
  title: string;
  playStyle: PlayStyle;
  difficulty: Difficulty;
  /** The chart's level as the export names it (1–12); null when the export has no level. */
  level: number | null;
  /** The chart's note count when the export names it (Reflux); null otherwise. */
  notes: number | null;
  exScore: number;
  /** null: no lamp known (rows built by hand; the export parsers skip NO PLAY / NP rows, score or not). */
  clearLamp: ClearLamp | null;
  missCount: number | null;
  /** JST wall-clock time "YYYY-MM-DD HH:mm:ss", or null when the export has none (import time is used). */
  lastPlayed: string | null;
  /** Song facts the export names (official CSV: genre and artist), for a catalogue learning the song. */
  genre?: string;
  artist?: string;
  /** PGREAT / GREAT counts when the export names them (official CSV, BATCH-MANUAL judgements). */
  judgements?: { pgreat: number | null; great: number | null };
}

/**
 * A precise problem with the source: where (line, column), what (value) and why. Errors drop the
 * value (one chart, or one line when the line itself is broken); warnings keep the chart.
 */
export interface ParseIssue {
  line: number;
  /** Column header (or 1-based column number) the problem is in, when it is one cell. */
  column?: string;
  /** The offending cell as written in the export. */
  value?: string;
  /** The chart the problem belongs to, when it is one chart's. */
  title?: string;
  playStyle?: PlayStyle;
  difficulty?: string;
  reason: string;
  severity: 'error' | 'warning';
}

export interface ParseResult {
  format: CsvFormat;
  rows: ParsedRow[];
  issues: ParseIssue[];
  /**
   * Charts present but carrying no play (a NO PLAY / NP / empty lamp, or an empty or zero score), and charts of a
   * play style the caller did not ask for: counted, not imported.
   */
  skipped: number;
  /** Difficulty blocks of charts that do not exist in their song (level 0 or empty): ignored. */
  absent: number;
  /** The game version the document names (BATCH-MANUAL meta.version), when it is one of ours. */
  documentVersion?: string;
}

export class CsvFormatError extends Error {
  constructor(
    message: string,
    readonly line = 1,
  ) {
    super(message);
    this.name = 'CsvFormatError';
  }
}
