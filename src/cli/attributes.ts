import type { Config } from '../config';
import { importChartAttributes, type AttributeImportEntry } from '../modules/rankings/rankings.attributes';
import { listSome } from './progress';
import { printJson, readJson, UsageError, withDatabase } from './support';
import type { CliArgs } from './support';

/**
 * `charts import-attributes <file|url>`: a JSON array of
 * `{title, difficulty, playStyle?, attributes: {name: number}}` (playStyle defaults to SP); the
 * reference's profile / global vector sets as `p_*` / `g_*` names, `{profile, global}` or rows
 * with top-level `p_*` / `g_*` columns (see importChartAttributes).
 */
export async function importAttributesCommand(
  { positionals: [src], values }: CliArgs,
  config: Config,
): Promise<number> {
  if (!src) throw new UsageError('usage: npm run cli -- charts import-attributes <file|url>');
  const doc = await readJson(src);
  if (!Array.isArray(doc))
    throw new UsageError(`${src}: expected a JSON array of {title, difficulty, playStyle?, attributes}`);
  return withDatabase(config, 'charts import-attributes', async (db) => {
    const report = await importChartAttributes(db.prisma, doc as AttributeImportEntry[]);
    if (values.json) {
      printJson(report);
      return 0;
    }
    console.log(
      `Chart attributes: ${report.updated} updated, ${report.unchanged} unchanged, ${report.problems.length} problems`,
    );
    for (const line of listSome(
      report.problems,
      (p) => `  entry ${p.index}${p.title ? ` (${p.title})` : ''}: ${p.reason}`,
    ))
      console.log(line);
    return 0;
  });
}
