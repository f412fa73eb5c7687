/**
 * Parsing an export file as a worker-pool task (src/workers/pool.ts; docs/limits-and-pool.md):
 * plain data in — the text, the version, the catalogue's titles and note counts (ExportKeys), the
 * title corrections, the official CSV's play style — and the import rows with the parse problems
 * out (parse-export.ts). Matching the rows to charts stays on the main side, in the import
 * (import.service.ts), against the catalogue the import's writer sees.
 */
import type { PlayStyle } from '../../domain/constants';
import type { TitleCorrections } from '../../domain/csv';
import { defineTask } from '../../workers/task';
import { lookupFromKeys, parseExportWith, type ExportKeys, type ParsedExport } from './parse-export';

export interface ParseExportInput {
  text: string;
  version: string;
  keys: ExportKeys;
  corrections: TitleCorrections;
  officialPlayStyle: PlayStyle;
}

export const parseExportTask = defineTask(__filename, 'parseExport', (i: ParseExportInput): ParsedExport =>
  parseExportWith(i.text, i.version, lookupFromKeys(i.keys), i.corrections, i.officialPlayStyle, {
    refuseTooMany: true,
  }),
);
