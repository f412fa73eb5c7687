import type { AreaDeps } from '../area';
import { importDefinitions, type DefinitionsImportReport } from '../../db/definitions';
import { DefinitionsFormatError } from '../../domain/definitions';
import { badInput } from '../../errors';
import { CATALOGUE_CACHE } from './catalogue';

/**
 * A definitions update: import (one transaction), then — after the commit — reload the in-memory
 * catalogue in every process (the cluster's caches), announce it, and start the recompute job
 * when anything changed.
 */
export async function updateDefinitions(
  app: Pick<AreaDeps, 'db' | 'caches' | 'events' | 'recompute'>,
  doc: unknown,
  onProgress?: (done: number, total: number) => void,
  opts: { startRecompute?: boolean } = {},
): Promise<{ report: DefinitionsImportReport; recomputeStarted: boolean }> {
  let report: DefinitionsImportReport;
  try {
    report = await importDefinitions(app.db, doc, onProgress);
  } catch (err) {
    if (err instanceof DefinitionsFormatError) throw badInput(err.message);
    throw err;
  }
  await app.caches.changed(CATALOGUE_CACHE);
  const changed = report.changedChartIds.length > 0;
  let recomputeStarted = false;
  if (changed) {
    app.events.emit('definitions.imported', { version: report.version, changedChartIds: report.changedChartIds });
    if (opts.startRecompute ?? true) recomputeStarted = await app.recompute.start();
  }
  return { report, recomputeStarted };
}
