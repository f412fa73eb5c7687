/**
 * The one title normalisation of chart matching (pure; usable by the import workers): Unicode
 * NFKC, surrounding whitespace trimmed, inner runs of whitespace as one space. Applied to BOTH the
 * catalogue's titles and the export's, so "Rave*it!! Rave*it!! " (as the definitions and a real
 * export both write it) and "Rave*it!! Rave*it!!" meet (docs/imports-provisional.md).
 */
export function titleKey(title: string): string {
  return title.normalize('NFKC').trim().replace(/\s+/gu, ' ');
}

/** Remembered keys of `titleKeyCached`: a bounded set (emptied when full), short titles only. */
const KEYS = new Map<string, string>();
const KEYS_MAX = 4096;
const KEY_MAX_LENGTH = 256;

/**
 * titleKey, remembered for the titles asked again and again (the calculator's lookups: one
 * normalisation per distinct title instead of one per request). Same answer as titleKey.
 */
export function titleKeyCached(title: string): string {
  let key = KEYS.get(title);
  if (key === undefined) {
    key = titleKey(title);
    if (title.length <= KEY_MAX_LENGTH) {
      if (KEYS.size >= KEYS_MAX) KEYS.clear();
      KEYS.set(title, key);
    }
  }
  return key;
}
