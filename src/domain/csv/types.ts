import type { ClearLamp, Difficulty } from '../constants';

export type CsvFormat = 'official' | 'reflux' | 'daken_counter' | 'result_techo';

/** One play read from an export: the normalized row every format produces. */
export interface ParsedRow {
  /** 1-based line of the source text the row came from (0 for rows not read from text). */
  line: number;
  title: string;
  difficulty: Difficulty;
  exScore: number;
  clearLamp: ClearLamp;
  missCount: number | null;
  /** JST wall-clock time "YYYY-MM-DD HH:mm:ss", or null when the export has none (import time is used). */
  lastPlayed: string | null;
}

/** A precise problem with the source: where and why. Errors drop the value, warnings keep the row. */
export interface ParseIssue {
  line: number;
  /** Column header (or 1-based column number) the problem is in, when it is one cell. */
  column?: string;
  reason: string;
  severity: 'error' | 'warning';
}

export interface ParseResult {
  format: CsvFormat;
  rows: ParsedRow[];
  issues: ParseIssue[];
  /** Charts present but carrying no play (NO PLAY lamp, empty or zero score): counted, not imported. */
  skipped: number;
}

export class CsvFormatError extends Error {
  constructor(message: string, readonly line = 1) {
    super(message);
    this.name = 'CsvFormatError';
  }
}
