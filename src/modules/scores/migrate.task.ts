/**
 * Reading the older app's export as a worker-pool task (src/workers/pool.ts): the document's text
 * in, its versions' history entries out (legacy-export.ts). The migration matches them to charts
 * and writes them on the main side (migrate.service.ts).
 */
import { defineTask } from '../../workers/task';
import { readLegacyExport, type LegacyVersion } from './legacy-export';

export const readLegacyExportTask = defineTask(
  __filename,
  'readLegacyExport',
  (i: { data: string; now: number }): LegacyVersion[] => readLegacyExport(i.data, i.now),
);
