import { looksLikeJson } from './batch-manual';
import type { CsvFormat } from './types';

/** The first line of a text that is not blank (BOM removed), or ''. */
function firstNonBlankLine(text: string): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lineBreak = /\r\n|\r|\n/g;
  for (let start = 0; ;) {
    lineBreak.lastIndex = start;
    const m = lineBreak.exec(body);
    const line = body.slice(start, m ? m.index : body.length);
    if (line.trim() !== '') return line;
    if (!m) return '';
    start = m.index + m[0].length;
  }
}

/**
 * Detects the export format from its first non-blank line (docs/domain/imports.md#detection), in the header
 * variants real exports have:
 * - Reflux TSV: a tab-separated header starting with `title` with "<SP|DP><B|N|H|A|L> Lamp"
 *   columns (every Reflux version; the oldest ones have no Type/Label columns);
 * - daken counter CSV: `LV,Title,mode,…` (columns Title, mode, Lamp and Score);
 * - result techo CSV: 曲名 and 難易度 columns, with or without the バージョン column;
 * - official CSV: a タイトル column (current and older layouts);
 * - Tachi BATCH-MANUAL JSON: a JSON object (first non-blank character `{`).
 */
export function detectFormat(text: string): CsvFormat | undefined {
  if (looksLikeJson(text)) return 'batch_manual';
  const first = firstNonBlankLine(text);
  const tabs = first.split('\t').map((c) => c.trim());
  if (tabs[0] === 'title' && tabs.some((c) => /^(SP|DP)[BNHAL] Lamp$/.test(c))) return 'reflux';
  const cells = first.split(',').map((c) => c.trim());
  if (/^LV,Title,mode,/.test(first) || ['Title', 'mode', 'Lamp', 'Score'].every((c) => cells.includes(c)))
    return 'daken_counter';
  if (first.includes('曲名') && first.includes('難易度')) return 'result_techo';
  if (first.includes('タイトル')) return 'official';
  return undefined;
}

/**
 * Which exports fit which game version (docs/domain/imports.md#detection): INFINITAS (INF) data comes from the
 * PC tools (Reflux, daken counter, result techo); arcade versions from the official CSV.
 */
export function formatFitsVersion(format: CsvFormat, version: string): boolean {
  if (format === 'batch_manual') return true; // any version: the document may say which (meta.version)
  return version === 'INF' ? format !== 'official' : format === 'official';
}
