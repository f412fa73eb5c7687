import type { Config } from '../config';
import { LATEST_VERSION } from '../domain/constants';
import { progressBar } from './progress';
import { gameVersion, printJson, UsageError, withApp, type CliArgs } from './support';

/**
 * `bpi-v2 fit [--version <v>] [--no-evaluate] [--min-players <n>] [--json]`: the BPI V2 fit job in
 * the foreground (src/modules/catalogue/bpi-v2.job.ts) with a progress bar per phase; waits when
 * another process runs it. The running servers learn the new parameters (cache `bpiV2`).
 */
export async function fitBpiV2Command({ values }: CliArgs, config: Config): Promise<number> {
  const version = gameVersion(values.version as string | undefined, LATEST_VERSION);
  let minPlayersPerChart: number | undefined;
  if (values['min-players'] !== undefined) {
    minPlayersPerChart = Number(values['min-players']);
    if (!(Number.isInteger(minPlayersPerChart) && minPlayersPerChart >= 3))
      throw new UsageError('--min-players must be an integer of at least 3');
  }
  return withApp(config, 'bpi-v2 fit', async (app) => {
    if (!app.catalogue.definitionsVersion)
      throw new UsageError('No definitions have been imported: run `definitions import` first');
    let label = '';
    let bar: ReturnType<typeof progressBar> | undefined;
    const run = await app.bpiV2.run(
      {
        version,
        evaluate: !values['no-evaluate'],
        minPlayersPerChart,
        onProgress: (phase, fraction) => {
          if (phase !== label) {
            bar?.done();
            label = phase;
            bar = progressBar(`bpi-v2 ${phase}`);
          }
          bar!.update(Math.round(fraction * 1000), 1000);
        },
      },
      () => console.log('Another process is running the BPI V2 fit: waiting for it to end…'),
    );
    bar?.done();
    if (values.json) {
      printJson(run);
      return 0;
    }
    const f = (x: number | null, d = 3) => (x === null ? '—' : x.toFixed(d));
    console.log(
      `BPI V2 fit #${run.id} (definitions ${run.definitionsVersion}, bests of version ${run.gameVersion}): ${run.charts} charts, ${run.players} players, ` +
        `${run.observations} bests used of ${run.bestsRead}; ${run.iterations} iterations${run.converged ? '' : ' (not converged)'}; z0 ${f(run.z0)}, gap ${f(run.gap)}`,
    );
    if (run.heldOutObservations !== null) {
      console.log(
        `Held out: ${run.heldOutObservations} bests, RMSE of t ${f(run.heldOutRmseT)}, MAE of EX ${f(run.heldOutMaeEx, 1)}; ` +
          `against V1 on ${run.v1Observations} bests: RMSE of t V2 ${f(run.v2RmseTVsV1)} / V1 ${f(run.v1RmseT)}, BPI agreement RMSE ${f(run.bpiRmse, 2)}, Spearman ${f(run.bpiSpearman, 4)}`,
      );
    }
    return 0;
  });
}
