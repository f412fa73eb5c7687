/**
 * Low-level text helpers shared by the export parsers (pure): lines, fields (csv-parse), cells,
 * wall-clock times.
 */
import { parse, type Options } from 'csv-parse/sync';
import { CsvFormatError } from './types';

/** Lines of a text with a BOM removed and CR/LF, CRLF or LF endings; numbered from 1. */
export function splitLines(text: string): { line: number; text: string }[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.split(/\r\n|\n|\r/).map((t, i) => ({ line: i + 1, text: t }));
}

/** The lines of a text that are not blank (BOM removed), numbered as splitLines numbers them. */
function nonBlankLines(text: string): { line: number; text: string }[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const out: { line: number; text: string }[] = [];
  const lineBreak = /\r\n|\n|\r/g;
  let start = 0;
  for (let n = 1; ; n++) {
    const m = lineBreak.exec(body);
    const end = m ? m.index : body.length;
    const t = body.slice(start, end);
    if (t.trim() !== '') out.push({ line: n, text: t });
    if (!m) return out;
    start = end + m[0].length;
  }
}

export type Delimiter = ',' | '\t';

/** One record of an export: its fields and the line it was read from. */
export interface TextRow {
  line: number;
  fields: string[];
}

/**
 * csv-parse settings for score exports. A quoted field ("a, b", "" escapes a quote) is one field;
 * a quote inside an unquoted field is literal (the official export writes titles such as
 * `You'll say "Now!"` unquoted); rows may have any number of fields (the parsers check widths
 * themselves); a record error never throws (see readRows for what happens then).
 */
const OPTIONS: Record<Delimiter, Options> = {
  ',': options(','),
  '\t': options('\t'),
};

function options(delimiter: Delimiter): Options {
  return {
    delimiter,
    record_delimiter: '\n',
    quote: '"',
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: false,
    skip_records_with_error: true,
  };
}

function parseRecords(text: string, opts: Options): string[][] {
  try {
    const rows: string[][] = parse(text, opts);
    return rows;
  } catch {
    return []; // not expected with skip_records_with_error; the caller falls back line by line
  }
}

/**
 * Does a line end inside a quoted field under the settings above — a quote opened at the start
 * of a field and never closed? Such a line would swallow the lines after it; it is read without
 * quoting instead. (Only classifies lines: the fields themselves come from csv-parse. A property
 * test checks it against csv-parse on generated lines.)
 */
export function endsInsideQuotes(line: string, delimiter: Delimiter): boolean {
  let quoting = false;
  let fieldStart = true;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoting) {
      if (ch !== '"') continue;
      if (line[i + 1] === '"')
        i++; // an escaped quote
      else quoting = false; // the closing quote (anything after it is kept literally)
    } else if (ch === delimiter) fieldStart = true;
    else {
      if (ch === '"' && fieldStart) quoting = true;
      fieldStart = false;
    }
  }
  return quoting;
}

/**
 * Fields of a line read without quoting: the text between the delimiters (what csv-parse gives
 * with quoting off).
 */
const literalFields = (line: string, delimiter: Delimiter): string[] => line.split(delimiter);

/**
 * Fields of one line: csv-parse for a line with quotes, the text between the delimiters for a
 * line without (the same fields, cheaper). A quote opened and never closed makes the line's quotes
 * literal rather than swallowing the lines after it.
 */
export function splitFields(line: string, delimiter: Delimiter): string[] {
  if (!line.includes('"') || endsInsideQuotes(line, delimiter)) return literalFields(line, delimiter);
  const records = parseRecords(line, OPTIONS[delimiter]);
  return records.length === 1 ? records[0] : literalFields(line, delimiter);
}

const BATCH_MIN = 16;
const BATCH_MAX = 4096;

/**
 * The records of a delimited text, one per non-blank line, each with its line number. A record
 * never spans lines (no score export has a line break inside a field), so a stray quote damages
 * its own line only.
 *
 * Lines with quotes are parsed with csv-parse, in batches (one call per batch: its cost is per
 * call); a line that would end inside a quoted field is read without quoting. Lines without
 * quotes — most export lines — have nothing to unquote: their fields are the text between the
 * delimiters. If a batch's records still did not map one to one onto its lines, its lines would
 * be read one by one. Linear in the size of the text.
 */
export function readRows(text: string, delimiter: Delimiter): TextRow[] {
  const lines = nonBlankLines(text);
  const out: TextRow[] = new Array(lines.length);
  const quoted: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!l.text.includes('"') || endsInsideQuotes(l.text, delimiter))
      out[i] = { line: l.line, fields: literalFields(l.text, delimiter) };
    else quoted.push(i);
  }
  const opts = OPTIONS[delimiter];
  for (let q = 0, size = BATCH_MIN; q < quoted.length;) {
    const end = Math.min(quoted.length, q + size);
    let joined = lines[quoted[q]].text;
    for (let j = q + 1; j < end; j++) joined += '\n' + lines[quoted[j]].text;
    const records = parseRecords(joined, opts);
    // as many records as lines: each line is one record, in order (a record spanning lines, or a
    // skipped one, would make fewer; nothing makes more)
    if (records.length === end - q) {
      for (let j = q; j < end; j++) out[quoted[j]] = { line: lines[quoted[j]].line, fields: records[j - q] };
      size = Math.min(BATCH_MAX, size * 2);
    } else {
      // not expected (endsInsideQuotes agrees with csv-parse): the batch's lines one by one
      for (let j = q; j < end; j++)
        out[quoted[j]] = { line: lines[quoted[j]].line, fields: splitFields(lines[quoted[j]].text, delimiter) };
      size = BATCH_MIN;
    }
    q = end;
  }
  return out;
}

/** The header (first non-blank line, cells trimmed) and the records after it. */
export function readTable(
  text: string,
  delimiter: Delimiter,
): { header: string[]; headerLine: number; rows: TextRow[] } {
  const rows = readRows(text, delimiter);
  const head = rows.shift();
  if (!head) throw new CsvFormatError('The file is empty');
  return { header: head.fields.map((h) => h.trim()), headerLine: head.line, rows };
}

const DATE_RE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?$/;
const COMPACT_RE = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})$/;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Normalizes an export's wall-clock time ("2019-10-28 14:05", "2024/01/02 03:04:05",
 * "2026/5/4 9:05", "20240102-030405") to "YYYY-MM-DD HH:mm:ss". Returns undefined when it is not
 * a valid time.
 */
export function normalizeWallClock(value: string): string | undefined {
  const v = value.trim();
  const m = DATE_RE.exec(v) ?? COMPACT_RE.exec(v);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    return undefined;
  return `${y}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}`;
}

/** A normalized JST wall-clock time ("YYYY-MM-DD HH:mm:ss") as the UTC instant it denotes. */
export function jstToUtc(wallClock: string): Date {
  const norm = normalizeWallClock(wallClock);
  if (!norm) throw new RangeError(`Not a date-time: ${wallClock}`);
  const [y, mo, d, h, mi, s] = norm.split(/[- :]/).map(Number);
  return new Date(Date.UTC(y, mo - 1, d, h - 9, mi, s));
}

/** 1999-01-01T00:00:00Z: the first beatmania IIDX was released in February 1999. */
const EARLIEST_PLAY_MS = Date.UTC(1999, 0, 1);
const DAY_MS = 86_400_000;

/**
 * Is a JST wall-clock play time within the sane range of play dates: 1999-01-01T00:00:00Z … now +
 * 1 day? The same rule as the hardening work's shared helper (isSanePlayDate, src/domain/dates.ts
 * on branch harden, not on main yet): once it lands, this body becomes
 * `isSanePlayDate(jstToUtc(wallClock), now.getTime())`.
 */
export function plausiblePlayTime(wallClock: string, now: Date): boolean {
  const t = jstToUtc(wallClock).getTime();
  return t >= EARLIEST_PLAY_MS && t <= now.getTime() + DAY_MS;
}

const INT_MAX = 2_147_483_647;

/** Parses a non-negative integer cell (at most 2^31 - 1); null for the "no value" spellings, undefined when invalid. */
export function intCell(
  value: string | undefined,
  empty: readonly string[] = ['', '-', '---', '?'],
): number | null | undefined {
  const v = (value ?? '').trim();
  if (empty.includes(v)) return null;
  if (!/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n <= INT_MAX ? n : undefined;
}
