/** Low-level text helpers shared by the export parsers (pure). */

/** Lines of a text with a BOM removed and CR/LF, CRLF or LF endings; numbered from 1. */
export function splitLines(text: string): { line: number; text: string }[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.split(/\r\n|\n|\r/).map((t, i) => ({ line: i + 1, text: t }));
}

/**
 * Splits one line on `sep`. A field that starts with a double quote is a quoted field ("" is an
 * escaped quote); a quote inside an unquoted field is literal, as the official export writes
 * titles like `You'll say "Now!"` without quoting.
 */
export function splitFields(line: string, sep: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) {
          value += line.slice(i);
          i = n;
          break;
        }
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      // anything between the closing quote and the separator is kept literally
      const s = line.indexOf(sep, i);
      value += s < 0 ? line.slice(i) : line.slice(i, s);
      out.push(value);
      if (s < 0) return out;
      i = s + sep.length;
    } else {
      const s = line.indexOf(sep, i);
      if (s < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, s));
      i = s + sep.length;
    }
  }
}

const DATE_RE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const COMPACT_RE = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})$/;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Normalizes an export's wall-clock time ("2019-10-28 14:05", "2024/01/02 03:04:05",
 * "20240102-030405") to "YYYY-MM-DD HH:mm:ss". Returns undefined when it is not a valid time.
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

/** Parses a non-negative integer cell; null for the "no value" spellings, undefined when invalid. */
export function intCell(value: string | undefined, empty: readonly string[] = ['', '-', '---', '?']): number | null | undefined {
  const v = (value ?? '').trim();
  if (empty.includes(v)) return null;
  if (!/^\d+$/.test(v)) return undefined;
  return Number(v);
}
