import type { CsvFormat } from './types';
import { splitLines } from './text';

/** Detects the export format from its first non-blank line (domain-scores.md §4.1). */
export function detectFormat(text: string): CsvFormat | undefined {
  const first = splitLines(text).find((l) => l.text.trim() !== '')?.text ?? '';
  if (/^title\tType\tLabel\t/.test(first)) return 'reflux';
  if (/^LV,Title,mode,/.test(first)) return 'daken_counter';
  if (first.includes('バージョン') && first.includes('曲名')) return 'result_techo';
  if (first.includes('タイトル')) return 'official';
  return undefined;
}

/**
 * Which exports fit which game version (domain-scores.md §4.1): INFINITAS (INF) data comes from the
 * PC tools (Reflux, daken counter, result techo); arcade versions from the official CSV.
 */
export function formatFitsVersion(format: CsvFormat, version: string): boolean {
  return version === 'INF' ? format !== 'official' : format === 'official';
}
