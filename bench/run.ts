/**
 * `npm run bench`: every scenario in turn, each recording its rows in bench/RESULTS.md (lib.ts `record`).
 * A failing scenario is reported and the others still run; the exit code is 1 when any failed.
 * BENCH_ONLY=calc,http,nested,import,scale limits the run; BENCH_SKIP_DATA=1 reuses an existing
 * scale data set (npm run bench:data) instead of regenerating it.
 */
import { benchBpiCalc } from './bpicalc';
import { benchHttpLayer } from './http-layer';
import { benchNested } from './nested';
import { generateScaleData } from './data';
import { benchScale } from './scale';
import { record, runScript } from './lib';

const SCENARIOS: [string, () => Promise<unknown>][] = [
  ['calc', () => benchBpiCalc()],
  ['http', () => benchHttpLayer()],
  [
    'nested',
    async () => {
      await benchNested('pglite');
      await benchNested('postgresql');
    },
  ],
  ['import', () => runScript('bench/import.ts')],
  [
    'scale',
    async () => {
      if (process.env.BENCH_SKIP_DATA !== '1') await generateScaleData();
      await benchScale();
    },
  ],
];

async function main() {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const failed: string[] = [];
  const t0 = Date.now();
  for (const [name, run] of SCENARIOS) {
    if (only && !only.includes(name)) continue;
    const t = Date.now();
    console.log(`\n=== ${name} ===`);
    try {
      await run();
      console.log(`=== ${name}: ${Math.round((Date.now() - t) / 1000)} s`);
    } catch (err) {
      failed.push(name);
      console.error(`=== ${name} FAILED:`, err);
      record(`Scenario ${name}`, 'bench/run.ts', [
        ['run', `failed: ${String((err as Error).message ?? err).slice(0, 200)}`, 'NOT met'],
      ]);
    }
  }
  console.log(
    `\nbench finished in ${Math.round((Date.now() - t0) / 1000)} s${failed.length ? `; FAILED: ${failed.join(', ')}` : ''}`,
  );
  process.exit(failed.length ? 1 : 0);
}

void main();
