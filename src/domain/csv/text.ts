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

export type Delimiter = ',' | '\t';

/** One record of an export: its fields and the line it was read from. */
export interface TextRow {
  line: number;
  fields: string[];
}

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * csv-parse settings for score exports. A quoted field ("a, b", "" escapes a quote) is one field;
 * a quote inside an unquoted field is literal (the official export writes titles such as
 * `You'll say "Now!"` unquoted); rows may have any number of fields (the parsers check widths
 * themselves); a record error never throws (the line is then read on its own, see readRows).
 */
function options(delimiter: Delimiter, quote = true): Options {
  return {
    delimiter,
    record_delimiter: '\n',
    quote: quote ? '"' : false,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: false,
    skip_records_with_error: true,
    info: true,
  };
}

const OPTIONS: Record<Delimiter, { quoted: Options; literal: Options }> = {
  ',': { quoted: options(','), literal: options(',', false) },
  '\t': { quoted: options('\t'), literal: options('\t', false) },
};

function parseRecords(text: string, opts: Options): CsvRecord[] {
  try {
    return parse(text, opts) as unknown as CsvRecord[];
  } catch {
    return []; // not expected with skip_records_with_error; the caller falls back line by line
  }
}

/**
 * Fields of one line. A quote that is opened and never closed makes the line's quotes literal
 * (the line is read without quoting) rather than swallowing the lines after it.
 */
export function splitFields(line: string, delimiter: Delimiter): string[] {
  const opts = OPTIONS[delimiter];
  const quoted = parseRecords(line, opts.quoted);
  if (quoted.length === 1 && quoted[0].info.lines === 1) return quoted[0].record;
  return parseRecords(line, opts.literal)[0]?.record ?? [line];
}

const BATCH_MIN = 16;
const BATCH_MAX = 4096;

/**
 * The records of a delimited text, one per non-blank line, each with its line number.
 *
 * A line without a double quote has nothing to unquote: its fields are the text between the
 * delimiters (exactly what csv-parse gives for it, at a fraction of the cost; most export lines
 * are such). Lines with quotes are parsed with csv-parse, in batches. A record never spans lines
 * (no score export has a line break inside a field), so a stray quote damages its own line only:
 * when a batch's records do not map one to one onto its lines, the first line that does not is
 * read on its own (splitFields) and parsing resumes after it. Linear in the size of the text.
 */
export function readRows(text: string, delimiter: Delimiter): TextRow[] {
  const lines = splitLines(text).filter((l) => l.text.trim() !== '');
  const out: TextRow[] = new Array(lines.length);
  const quoted: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.text.includes('"')) quoted.push(i);
    else out[i] = { line: l.line, fields: l.text.split(delimiter) };
  }
  const opts = OPTIONS[delimiter].quoted;
  let q = 0;
  let size = BATCH_MIN;
  while (q < quoted.length) {
    const end = Math.min(quoted.length, q + size);
    let joined = lines[quoted[q]].text;
    for (let j = q + 1; j < end; j++) joined += '\n' + lines[quoted[j]].text;
    const records = parseRecords(joined, opts);
    const n = end - q;
    let k = 0;
    for (; k < n && k < records.length && records[k].info.lines === k + 1; k++) out[quoted[q + k]] = { line: lines[quoted[q + k]].line, fields: records[k].record };
    if (k === n) {
      q = end;
      size = Math.min(BATCH_MAX, size * 2);
      continue;
    }
    const l = lines[quoted[q + k]];
    out[quoted[q + k]] = { line: l.line, fields: splitFields(l.text, delimiter) };
    q += k + 1;
    size = BATCH_MIN;
  }
  return out;
}

/** The header (first non-blank line, cells trimmed) and the records after it. */
export function readTable(text: string, delimiter: Delimiter): { header: string[]; headerLine: number; rows: TextRow[] } {
  const rows = readRows(text, delimiter);
  if (rows.length === 0) throw new CsvFormatError('The file is empty');
  const [head, ...body] = rows;
  return { header: head.fields.map((h) => h.trim()), headerLine: head.line, rows: body };
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
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
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
export function intCell(value: string | undefined, empty: readonly string[] = ['', '-', '---', '?']): number | null | undefined {
  const v = (value ?? '').trim();
  if (empty.includes(v)) return null;
  if (!/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n <= INT_MAX ? n : undefined;
}
