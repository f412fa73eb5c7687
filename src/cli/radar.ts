import type { Config } from '../config';
import { CATALOGUE_CACHE } from '../modules/catalogue/catalogue';
import { importRadarCategories } from '../modules/catalogue/categories.service';
import type { CliArgs } from './commands';
import { readJson, UsageError, withApp } from './support';

/** npm run cli -- charts import-categories <file|url>: [{title, difficulty, top}] → Chart.radarCategory */
export async function importRadarCategoriesCommand({ positionals: [src] }: CliArgs, config: Config): Promise<number> {
  if (!src) throw new UsageError('usage: npm run cli -- charts import-categories <file|url>');
  const doc = await readJson(src);
  return withApp(config, 'charts import-categories', async (app) => {
    const r = await importRadarCategories(app.db, doc);
    console.log(
      `Radar categories: ${r.total} entries, ${r.matched} matched SP charts, ${r.updated} updated, ` +
        `${r.unmatched} without a chart, ${r.invalid} invalid`,
    );
    for (const s of r.unmatchedSamples) console.log(`  no chart: ${s}`);
    // Running servers reload their catalogue (PostgreSQL: through the cluster bus).
    if (r.updated > 0) await app.caches.changed(CATALOGUE_CACHE);
    return 0;
  });
}
