/**
 * Step 0 of a score import, on plain data: an export file (official CSV, Reflux TSV, daken
 * counter, result techo, BATCH-MANUAL JSON; detected) as import rows and parse problems. A light
 * module — the csv domain, the title key and AppError, nothing of the database, GraphQL or the
 * catalogue class — so that the worker pool can load it (parse.task.ts); import.service.ts
 * re-exports it for the callers that parse on the calling thread.
 *
 * What parsing needs of the catalogue is small: whether a title is one of its titles (repairing
 * unquoted titles with commas in official CSVs) and a chart's note count (an EX score over
 * 2 × notes drops that chart). `exportLookup` answers both from the catalogue itself;
 * `exportKeys` copies them as plain data for a worker (`lookupFromKeys` reads them there, with
 * the catalogue's own matching rule: ChartMatcher's title key).
 */
import { ClearLamp, Difficulty, PlayStyle } from '../../domain/constants';
import {
  correctTitle,
  CsvFormatError,
  formatFitsVersion,
  NO_CORRECTIONS,
  parseScoreExport,
  type CsvFormat,
  type ParseIssue,
  type TitleCorrections,
} from '../../domain/csv';
import { titleKey } from '../../domain/titles';
import { badInput } from '../../errors';
import type { ImportSource } from '../../generated/prisma/enums';

export const MAX_IMPORT_ROWS = 10_000;

/** A row to import (from an export file, or the importScores mutation's rows). */
export interface ImportRow {
  /** source line (0 when the rows did not come from a file) */
  line: number;
  title: string;
  /** default SP */
  playStyle?: PlayStyle;
  difficulty: Difficulty;
  /**
   * The chart's level as the export names it (1–12). A row whose chart the catalogue does not
   * hold is learned from it (a chart without BPI); without a level it is reported as not found.
   */
  level?: number | null;
  /** The chart's note count when the export names it (Reflux). */
  notes?: number | null;
  /** Song facts for a song learned from the export (official CSV). */
  genre?: string;
  artist?: string;
  exScore: number;
  clearLamp: ClearLamp | null;
  missCount: number | null;
  /** JST wall clock ("YYYY-MM-DD HH:mm[:ss]"); null = import time */
  lastPlayed: string | null;
  /** PGREAT / GREAT counts when the export names them (stored on the play). */
  judgements?: { pgreat: number | null; great: number | null };
}

/** The refusal of an import of more than MAX_IMPORT_ROWS rows (the same wherever it is found). */
export const tooManyRows = (n: number) =>
  badInput(`At most ${MAX_IMPORT_ROWS} rows per import (got ${n})`, [
    { code: 'too_big', path: ['rows'], message: `At most ${MAX_IMPORT_ROWS} rows` },
  ]);

const SOURCE: Record<CsvFormat, ImportSource> = {
  official: 'OFFICIAL_CSV',
  reflux: 'REFLUX',
  daken_counter: 'DAKEN_COUNTER',
  result_techo: 'RESULT_TECHO',
  batch_manual: 'BATCH_MANUAL',
};

export const formatMismatch = (format: CsvFormat, version: string) =>
  version === 'INF'
    ? `A ${format} export is arcade data: INF takes Reflux, daken counter or result techo exports`
    : `A ${format} export is INFINITAS data: import it with version INF (version ${version} takes the official CSV)`;

/** What parsing reads of the catalogue. */
export interface ExportLookup {
  /** Is this exactly a title of the catalogue (provisional charts included)? */
  knownTitle(title: string): boolean;
  /** The note count of the chart the catalogue matches (`find`), if any. */
  notes(title: string, playStyle: PlayStyle, difficulty: Difficulty): number | undefined;
}

/** The part of a catalogue parsing reads (ImportCatalogue's members of the same names). */
export interface ExportCatalogue {
  charts(): Iterable<{ title: string; playStyle: PlayStyle; difficulty: Difficulty; notes: number }>;
  allCharts?(): Iterable<{ title: string; playStyle: PlayStyle; difficulty: Difficulty; notes: number }>;
  find(title: string, playStyle: PlayStyle, difficulty: Difficulty): { notes: number } | undefined;
}

/** Title predicate for repairing unquoted titles with commas in official CSVs. */
export function catalogueTitles(catalogue: Pick<ExportCatalogue, 'charts' | 'allCharts'>): (title: string) => boolean {
  const titles = new Set<string>();
  for (const c of catalogue.allCharts?.() ?? catalogue.charts()) titles.add(c.title);
  return (t) => titles.has(t);
}

/** The lookup of a catalogue on this thread. */
export function exportLookup(catalogue: ExportCatalogue): ExportLookup {
  return {
    knownTitle: catalogueTitles(catalogue),
    notes: (title, playStyle, difficulty) => catalogue.find(title, playStyle, difficulty)?.notes,
  };
}

/**
 * The catalogue's charts as plain data for a worker, in its order (provisional charts included):
 * titles, and per chart [title index, play style, difficulty, notes]. Right for a catalogue whose
 * `find` is a ChartMatcher over these charts (src/modules/catalogue/catalogue.ts): the later of two
 * charts with one key wins there and in `lookupFromKeys` alike.
 */
export interface ExportKeys {
  titles: string[];
  charts: [number, PlayStyle, Difficulty, number][];
}

export function exportKeys(catalogue: Pick<ExportCatalogue, 'charts' | 'allCharts'>): ExportKeys {
  const titles: string[] = [];
  const at = new Map<string, number>();
  const charts: ExportKeys['charts'] = [];
  for (const c of catalogue.allCharts?.() ?? catalogue.charts()) {
    let i = at.get(c.title);
    if (i === undefined) {
      i = titles.push(c.title) - 1;
      at.set(c.title, i);
    }
    charts.push([i, c.playStyle, c.difficulty, c.notes]);
  }
  return { titles, charts };
}

/** The lookup of ExportKeys (in the worker): exact titles, notes by ChartMatcher's key. */
export function lookupFromKeys(keys: ExportKeys): ExportLookup {
  const known = new Set(keys.titles);
  const keyOf = (key: string, playStyle: PlayStyle, difficulty: Difficulty) =>
    `${key}\u0000${playStyle}\u0000${difficulty}`;
  const titleKeys = keys.titles.map(titleKey);
  const notes = new Map<string, number>();
  for (const [t, playStyle, difficulty, n] of keys.charts) notes.set(keyOf(titleKeys[t], playStyle, difficulty), n);
  return {
    knownTitle: (t) => known.has(t),
    notes: (title, playStyle, difficulty) => notes.get(keyOf(titleKey(title), playStyle, difficulty)),
  };
}

/** An export file as import input (ImportInput's fields of the same names). */
export interface ParsedExport {
  source: ImportSource;
  format: CsvFormat;
  rows: ImportRow[];
  /** problems found while parsing (reported with the result) */
  parseIssues: ParseIssue[];
  skipped: number;
}

/**
 * An export file as import input — the format detected and parsed (titles with commas repaired
 * against the catalogue), and checked against the version (official CSV: arcade versions; the
 * other formats: INF). BAD_USER_INPUT naming `csv` / `version` otherwise; more than
 * MAX_IMPORT_ROWS rows is refused here already (as the import would refuse them).
 */
export function parseExportWith(
  text: string,
  version: string,
  lookup: ExportLookup,
  corrections: TitleCorrections = NO_CORRECTIONS,
  officialPlayStyle: PlayStyle = PlayStyle.SP,
  opts: { refuseTooMany?: boolean } = {},
): ParsedExport {
  let parsed;
  try {
    // Both play styles (rows are matched by their play style); an EX score over a known chart's
    // maximum drops that chart alone (charts of unknown note count are not checked).
    const maxExScore = (c: { title: string; playStyle: PlayStyle; difficulty: Difficulty }) => {
      const notes =
        lookup.notes(c.title, c.playStyle, c.difficulty) ??
        lookup.notes(correctTitle(c.title, corrections), c.playStyle, c.difficulty);
      return notes ? notes * 2 : undefined;
    };
    parsed = parseScoreExport(text, {
      corrections,
      knownTitle: lookup.knownTitle,
      playStyles: [PlayStyle.SP, PlayStyle.DP],
      officialPlayStyle,
      maxExScore,
    });
  } catch (err) {
    if (err instanceof CsvFormatError)
      throw badInput(err.message, [{ code: 'invalid_format', path: ['csv', err.line], message: err.message }]);
    throw err;
  }
  if (!formatFitsVersion(parsed.format, version)) {
    const message = formatMismatch(parsed.format, version);
    throw badInput(message, [{ code: 'format_version_mismatch', path: ['version'], message }]);
  }
  if (parsed.documentVersion && parsed.documentVersion !== version) {
    const message = `The document's scores are of version ${parsed.documentVersion} (meta.version): import them with version ${parsed.documentVersion}, not ${version}`;
    throw badInput(message, [{ code: 'format_version_mismatch', path: ['version'], message }]);
  }
  // (the import refuses them with the same error: not copied back from a worker first)
  if (opts.refuseTooMany && parsed.rows.length > MAX_IMPORT_ROWS) throw tooManyRows(parsed.rows.length);
  const rows: ImportRow[] = parsed.rows.map((r) => ({
    line: r.line,
    title: r.title,
    playStyle: r.playStyle,
    difficulty: r.difficulty,
    level: r.level,
    notes: r.notes,
    exScore: r.exScore,
    clearLamp: r.clearLamp,
    missCount: r.missCount,
    lastPlayed: r.lastPlayed,
    ...(r.genre !== undefined ? { genre: r.genre } : {}),
    ...(r.artist !== undefined ? { artist: r.artist } : {}),
    ...(r.judgements ? { judgements: r.judgements } : {}),
  }));
  return {
    source: SOURCE[parsed.format],
    format: parsed.format,
    rows,
    parseIssues: parsed.issues,
    skipped: parsed.skipped,
  };
}

/** parseExportWith's arguments after the lookup: corrections, the official CSV's play style, options. */
type ParseTail = Parameters<typeof parseExportWith> extends [string, string, ExportLookup, ...infer R] ? R : never;

/** parseExportWith the catalogue on this thread (tests, tools): its lookup, the other arguments as they are. */
export function parseExport(
  text: string,
  version: string,
  catalogue: ExportCatalogue,
  ...rest: ParseTail
): ParsedExport {
  return parseExportWith(text, version, exportLookup(catalogue), ...rest);
}
