import type { Config } from '../config';
import type { App } from '../app';
import { LATEST_VERSION } from '../domain/constants';
import { importOfficialArena } from '../modules/arena/arena.service';
import { updateDefinitions } from '../modules/catalogue/definitions.service';
import { normalizeDefinitions } from '../domain/definitions';
import { listSome, progressBar } from './progress';
import { gameVersion, printJson, readJson, UsageError, withApp } from './support';
import type { CliArgs } from './support';

/** Runs the recompute job in the foreground with a progress bar per step. */
export async function runRecompute(app: App, versions?: string[]): Promise<void> {
  let bar: ReturnType<typeof progressBar> | undefined;
  let label = '';
  await app.recompute.run(
    versions,
    (step, done, total) => {
      if (step !== label) {
        bar?.done();
        label = step;
        bar = progressBar(`recompute ${step}`);
      }
      bar!.update(done, total);
    },
    () => console.log('Another process is running the recompute job: waiting for it to end…'),
  );
  bar?.done();
}

export async function importDefinitionsCommand(
  { positionals: [src], values }: CliArgs,
  config: Config,
): Promise<number> {
  if (!src) throw new UsageError('usage: npm run cli -- definitions import <file|url> [--json]');
  const doc = await readJson(src);
  // A JSON file of another kind is refused before the database is opened (one line naming the file).
  try {
    normalizeDefinitions(doc);
  } catch (err) {
    throw new UsageError(
      `${src} is not a definitions document (${(err as Error).message.replace(/^Not a definitions document: /, '')})`,
    );
  }
  return withApp(config, 'definitions import', async (app) => {
    const bar = progressBar('definitions');
    const { report } = await updateDefinitions(app, doc, bar.update, { startRecompute: false });
    bar.done();
    if (report.changedChartIds.length) await runRecompute(app);
    if (values.json) {
      const { changedChartIds, ...rest } = report;
      printJson({
        ...rest,
        changedCharts: changedChartIds.length,
        recomputed: changedChartIds.length ? app.recompute.stepNames : [],
      });
      return 0;
    }
    console.log(
      `Definitions ${report.version}: ${report.added} added, ${report.changed} changed, ${report.unchanged} unchanged, ` +
        `${report.removed} removed, ${report.absent} no longer listed, ${report.duplicates} duplicate entries, ${report.problems.length} problems`,
    );
    if (report.demoSongsPurged)
      console.log(
        `The demo catalogue was removed (${report.demoSongsPurged} fictional songs, with any scores on them).`,
      );
    for (const line of listSome(
      report.problems,
      (p) => `  entry ${p.index}${p.title ? ` (${p.title})` : ''}: ${p.reason}`,
    ))
      console.log(line);
    if (report.changedChartIds.length)
      console.log(`Recomputed derived values (${app.recompute.stepNames.join(', ')}).`);
    return 0;
  });
}

export async function recomputeCommand({ values }: CliArgs, config: Config): Promise<number> {
  const versions = values.version !== undefined ? [gameVersion(values.version as string)] : undefined;
  return withApp(config, 'recompute', async (app) => {
    await runRecompute(app, versions);
    console.log(
      `Recomputed (${app.recompute.stepNames.join(', ')}) for ${versions?.join(', ') ?? 'every version with scores'}.`,
    );
    return 0;
  });
}

export async function importArenaCommand({ positionals, values }: CliArgs, config: Config): Promise<number> {
  const file = positionals[0];
  if (!file || positionals.length > 1)
    throw new UsageError('usage: npm run cli -- arena import <file> [--version <v>]');
  const version = gameVersion(values.version as string | undefined, LATEST_VERSION);
  const doc = await readJson(file);
  return withApp(config, 'arena import', async (app) => {
    const r = await importOfficialArena(app.db, doc, version);
    console.log(
      `Arena snapshot ${r.snapshotId} (version ${r.version}): ${r.players} players, ${r.matchedUsers} registered users matched, ${r.skipped.length} skipped`,
    );
    await runRecompute(app, [version]);
    return 0;
  });
}
