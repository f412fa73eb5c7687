/**
 * The one title normalisation of chart matching (pure; usable by the import workers): Unicode
 * NFKC, surrounding whitespace trimmed, inner runs of whitespace as one space. Applied to BOTH the
 * catalogue's titles and the export's, so "Rave*it!! Rave*it!! " (as the definitions and a real
 * export both write it) and "Rave*it!! Rave*it!!" meet (docs/imports-provisional.md).
 */
export function titleKey(title: string): string {
  return title.normalize('NFKC').trim().replace(/\s+/gu, ' ');
}
