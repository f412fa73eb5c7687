/**
 * Parsing an export file (official CSV, Reflux TSV, daken counter, result techo) as a worker-pool
 * task (src/workers/pool.ts; docs/limits-and-pool.md): plain data in — the text, the version, the
 * catalogue's chart keys and note counts, the title corrections — and the rows to import out
 * (`parseExport`, the pure step 0 of src/modules/scores/import.service.ts). The database writes
 * stay on the main side, in one transaction (`importScores`).
 */
import type { TitleCorrections } from '../../domain/csv';
import type { Difficulty, PlayStyle } from '../../domain/constants';
import { defineTask } from '../../workers/task';
import { ChartMatcher, type CatalogueChart } from '../catalogue/catalogue';
import { parseExport, type ImportCatalogue } from './import.service';

/** What parsing needs of a chart: its key and its note count (EX above 2 × notes drops the row). */
export type ChartKey = Pick<CatalogueChart, 'title' | 'playStyle' | 'difficulty' | 'notes'>;

export interface ParseExportInput {
  text: string;
  version: string;
  charts: ChartKey[];
  corrections: TitleCorrections;
  officialPlayStyle: PlayStyle;
}

/** The chart keys of a catalogue, for a ParseExportInput. */
export function chartKeys(catalogue: Pick<ImportCatalogue, 'charts'>): ChartKey[] {
  const out: ChartKey[] = [];
  for (const c of catalogue.charts()) out.push({ title: c.title, playStyle: c.playStyle, difficulty: c.difficulty, notes: c.notes });
  return out;
}

export const parseExportTask = defineTask(__filename, 'parseExport', (i: ParseExportInput) => {
  const matcher = new ChartMatcher(i.charts);
  // parseExport reads titles (charts) and note counts (find) only.
  const catalogue = {
    charts: () => i.charts.values(),
    find: (title: string, playStyle: PlayStyle, difficulty: Difficulty) => matcher.find(title, playStyle, difficulty),
  } as unknown as Pick<ImportCatalogue, 'charts' | 'find'>;
  return parseExport(i.text, i.version, catalogue, i.corrections, i.officialPlayStyle);
});
