import type { Config } from '../config';
import { CATALOGUE_CACHE } from '../modules/catalogue/catalogue';
import { adoptProvisional, listProvisional, purgeProvisional } from '../modules/catalogue/provisional.service';
import { printJson, UsageError, withApp, withDatabase, type CliArgs } from './support';

const USAGE = 'catalogue provisional list [--limit <n>] [--json] | adopt <chartId>… | purge <chartId>…';

function chartIds(args: readonly string[]): number[] {
  if (!args.length) throw new UsageError(`chart ids missing — usage: npm run cli -- ${USAGE}`);
  return args.map((a) => {
    if (!/^\d{1,10}$/.test(a)) throw new UsageError(`Not a chart id: '${a}'`);
    return Number(a);
  });
}

/**
 * `catalogue provisional list|adopt|purge` (docs/imports-provisional.md): the charts learned from
 * player exports that are not public yet; adopt makes them public (scores kept), purge deletes them
 * with their plays. Adopt and purge announce the change: every running server reloads its catalogue.
 */
export async function provisionalCommand({ values, positionals }: CliArgs, config: Config): Promise<number> {
  const [sub, ...rest] = positionals;
  if (sub === 'list') {
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    return withDatabase(config, 'catalogue provisional list', async (db) => {
      const rows = await listProvisional(db.prisma, limit);
      if (values.json) printJson(rows);
      else if (!rows.length) console.log('No provisional chart.');
      else
        for (const r of rows)
          console.log(
            `${r.chartId}  ${r.playStyle} ${r.difficulty} ☆${r.level}  ${r.title}  (${r.holders} player${r.holders === 1 ? '' : 's'}, learned ${r.createdAt.toISOString()})`,
          );
      return 0;
    });
  }
  if (sub === 'adopt' || sub === 'purge') {
    const ids = chartIds(rest);
    return withApp(config, `catalogue provisional ${sub}`, async (app) => {
      const done = sub === 'adopt' ? await adoptProvisional(app.db, ids) : await purgeProvisional(app.db, ids);
      await app.caches.changed(CATALOGUE_CACHE);
      if (values.json) printJson({ chartIds: done, count: done.length });
      else console.log(`${sub === 'adopt' ? 'Adopted' : 'Purged'} ${done.length} chart(s): ${done.join(', ')}`);
      return 0;
    });
  }
  throw new UsageError(`usage: npm run cli -- ${USAGE}`);
}

export const PROVISIONAL_USAGE = USAGE;
