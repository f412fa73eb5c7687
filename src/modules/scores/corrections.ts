import fs from 'node:fs';
import { NO_CORRECTIONS, parseTitleCorrections, type TitleCorrections } from '../../domain/csv';

const cache = new Map<string, TitleCorrections>();

/**
 * Loads the title corrections file (TITLE_CORRECTIONS_FILE / CLI --corrections) once per path.
 * The data is never shipped in the repository; without a file no correction applies.
 */
export function loadTitleCorrections(file: string | undefined): TitleCorrections {
  if (!file) return NO_CORRECTIONS;
  let map = cache.get(file);
  if (!map) {
    map = parseTitleCorrections(JSON.parse(fs.readFileSync(file, 'utf8')));
    cache.set(file, map);
  }
  return map;
}
