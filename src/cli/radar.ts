import type { Config } from '../config';
import { importRadarCategories } from '../modules/catalogue/categories.service';
import { readJson, UsageError, withDatabase } from './support';
import type { CliArgs } from './support';

/** npm run cli -- charts import-categories <file|url>: [{title, difficulty, top}] → Chart.radarCategory */
export async function importRadarCategoriesCommand({ positionals: [src] }: CliArgs, config: Config): Promise<number> {
  if (!src) throw new UsageError('usage: npm run cli -- charts import-categories <file|url>');
  const doc = await readJson(src);
  return withDatabase(config, 'charts import-categories', async (db) => {
    const r = await importRadarCategories(db.prisma, doc);
    console.log(
      `Radar categories: ${r.total} entries, ${r.matched} matched SP charts, ${r.updated} updated, ` +
        `${r.unmatched} without a chart, ${r.invalid} invalid`,
    );
    for (const s of r.unmatchedSamples) console.log(`  no chart: ${s}`);
    if (r.updated > 0) console.log('A running server picks the categories up at its next catalogue reload (restart, definitions import, or the importRadarCategories mutation).');
    return 0;
  });
}
