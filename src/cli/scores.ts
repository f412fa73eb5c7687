import fs from 'node:fs';
import type { Config } from '../config';
import { AppError } from '../errors';
import { loadTitleCorrections } from '../modules/scores/corrections';
import { importScoreExport } from '../modules/scores/import.service';
import { listSome, progressBar } from './progress';
import { gameVersion, printJson, UsageError, withApp } from './support';
import type { CliArgs } from './support';

const USAGE =
  'usage: npm run cli -- scores import --user <user> --version <v> [--corrections <titles.json>] [--play-style SP|DP] [--json] <file>';

/** scores import: an export file (format detected) as one batch for a user — the use case of the importScoresCsv mutation. */
export async function importScoresCommand({ values, positionals }: CliArgs, config: Config): Promise<number> {
  const opts = { user: values.user as string | undefined, corrections: values.corrections as string | undefined };
  const files = positionals;
  if (!opts.user || files.length !== 1) throw new UsageError(USAGE);
  const version = gameVersion(values.version as string | undefined);
  const playStyle = (values['play-style'] as string | undefined) ?? 'SP';
  if (playStyle !== 'SP' && playStyle !== 'DP')
    throw new UsageError(`--play-style must be SP or DP (the style an official CSV was downloaded for)\n${USAGE}`);
  if (!fs.existsSync(files[0])) throw new UsageError(`No such file: ${files[0]}`);
  const corrections = loadTitleCorrections(opts.corrections ?? config.titleCorrectionsFile);
  const text = fs.readFileSync(files[0], 'utf8');
  // The app's services, not the bare database: the import emits `scores.imported` (radar cache,
  // OVERTAKEN notifications and timeline pushes to followers, arena averages — the listeners run
  // here and are awaited) and announces learned charts to the running servers' catalogues.
  return withApp(config, 'scores import', async (app) => {
    const user =
      (await app.db.user.findUnique({ where: { id: opts.user }, select: { id: true } })) ??
      (await app.db.user.findUnique({ where: { nameKey: opts.user!.toLowerCase() }, select: { id: true } }));
    if (!user) throw new UsageError(`No user '${opts.user}' (neither an id nor a name): npm run cli -- users list`);
    const bar = progressBar('import');
    let r;
    try {
      r = await importScoreExport(
        app,
        { userId: user.id, version, csv: text, playStyle },
        { corrections, onProgress: bar.update },
      );
      await app.events.settled();
    } catch (err) {
      // A file that does not parse or fit the version is the caller's mistake: a usage error naming the file.
      if (err instanceof AppError && err.code === 'BAD_USER_INPUT') throw new UsageError(`${files[0]}: ${err.message}`);
      throw err;
    } finally {
      bar.done();
    }
    if (values.json) {
      printJson(r);
      return 0;
    }
    console.log(
      r.upToDate
        ? `${r.message}.`
        : `Batch ${r.batchId}: ${r.updatedCount} plays stored (${r.bpiUpdatedCount} on BPI charts); total BPI ${r.previousTotalBpi} → ${r.newTotalBpi}`,
    );
    console.log(
      `${r.format}: ${r.rowCount} rows, ${r.skipped} unplayed cells, ${r.learnedCharts} charts learned, ${r.notFound.length} not found, ${r.problems.length} problems`,
    );
    for (const line of listSome(r.notFound, (n) => `  not found (line ${n.line}): ${n.title} [${n.difficulty}]`))
      console.log(line);
    for (const line of listSome(
      r.problems,
      (p) => `  ${p.severity} line ${p.line}${p.column ? ` (${p.column})` : ''}: ${p.reason}`,
    ))
      console.log(line);
    return 0;
  });
}
