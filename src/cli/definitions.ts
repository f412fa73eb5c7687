import type { Config } from '../config';
import type { App } from '../app';
import { LATEST_VERSION } from '../domain/constants';
import { importOfficialArena } from '../modules/arena/arena.service';
import { updateDefinitions } from '../modules/catalogue/definitions.service';
import { progressBar } from './progress';
import { readJson, UsageError, withApp } from './support';

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

export async function importDefinitionsCommand([src]: string[], config: Config): Promise<number> {
  if (!src) throw new UsageError('usage: npm run cli -- definitions import <file|url>');
  const doc = await readJson(src);
  return withApp(config, 'definitions import', async (app) => {
    const bar = progressBar('definitions');
    const { report } = await updateDefinitions(app, doc, bar.update, { startRecompute: false });
    bar.done();
    console.log(
      `Definitions ${report.version}: ${report.added} added, ${report.changed} changed, ${report.unchanged} unchanged, ` +
        `${report.removed} removed, ${report.absent} no longer listed, ${report.duplicates} duplicate entries`,
    );
    for (const p of report.problems.slice(0, 20)) console.log(`  entry ${p.index}${p.title ? ` (${p.title})` : ''}: ${p.reason}`);
    if (report.changedChartIds.length) {
      await runRecompute(app);
      console.log(`Recomputed derived values (${app.recompute.stepNames.join(', ')}).`);
    }
    return 0;
  });
}

export async function recomputeCommand(args: string[], config: Config): Promise<number> {
  const i = args.indexOf('--version');
  const versions = i >= 0 ? [args[i + 1]] : undefined;
  if (i >= 0 && !args[i + 1]) throw new UsageError('usage: npm run cli -- recompute [--version <v>]');
  return withApp(config, 'recompute', async (app) => {
    await runRecompute(app, versions);
    console.log(`Recomputed (${app.recompute.stepNames.join(', ')}) for ${versions?.join(', ') ?? 'every version with scores'}.`);
    return 0;
  });
}

export async function importArenaCommand(args: string[], config: Config): Promise<number> {
  const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--version');
  const i = args.indexOf('--version');
  const version = i >= 0 ? args[i + 1] : LATEST_VERSION;
  if (!file || !version) throw new UsageError('usage: npm run cli -- arena import <file> [--version <v>]');
  const doc = await readJson(file);
  return withApp(config, 'arena import', async (app) => {
    const r = await importOfficialArena(app.db, doc, version);
    console.log(`Arena snapshot ${r.snapshotId} (version ${r.version}): ${r.players} players, ${r.matchedUsers} registered users matched, ${r.skipped.length} skipped`);
    await runRecompute(app, [version]);
    return 0;
  });
}
