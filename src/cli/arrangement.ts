import type { Config } from '../config';
import { importArrangementScores } from '../modules/optimizer/arrangement.import';
import { AppError } from '../errors';
import { readJson, UsageError, withDatabase } from './support';
import type { CliArgs } from './support';

/**
 * `tickets import-scores <file|url>`: precomputed arrangement scores, a JSON array of
 * `{title, difficulty, playStyle?, scores: {pattern: number}}` (docs/guide/imports.md).
 * Validated whole (nothing is written when any entry is wrong), then one transaction; re-runnable.
 */
export async function importArrangementScoresCommand({ positionals: [src] }: CliArgs, config: Config): Promise<number> {
  if (!src) throw new UsageError('usage: npm run cli -- tickets import-scores <file|url>');
  const doc = await readJson(src);
  return withDatabase(config, 'tickets import-scores', async (db) => {
    try {
      const r = await importArrangementScores(db.prisma, doc);
      console.log(
        `Arrangement scores: ${r.charts} charts; patterns ${r.added} added, ${r.changed} changed, ${r.unchanged} unchanged, ${r.removed} removed`,
      );
      return 0;
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'BAD_USER_INPUT') throw err;
      console.error(`${err.message}\nNothing was imported.`);
      for (const i of err.details?.issues ?? []) console.error(`  ${i.path.join('.') || '(document)'}: ${i.message}`);
      return 1;
    }
  });
}
