/**
 * BPI V2 fit at the scale scenario (`npm run bench:bpiv2`): BENCH_USERS players (default 10,000) ×
 * BENCH_CHARTS charts (default 1,000) generated in memory (src/domain/bpi-v2/generate.ts) on the
 * REAL charts of ../shared definitions-202509156.json (SP, level 12 first, then 11: notes, kaiden
 * average, WR, coefficient), every player playing every chart — 10M bests, the worst case — unless
 * BENCH_BPIV2_DENSITY (< 1) makes it sparse. Measured in one process:
 * - the fit (fitBpiV2): wall time, iterations; RSS before it (after generation and a GC) and its
 *   peak during the fit (sampled at every progress call, i.e. every iteration); the process's
 *   peak RSS (getrusage) — target: fit < 60 s;
 * - recovery of the generated parameters (sanity: the same figures as the unit tests);
 * - the held-out evaluation (evaluateBpiV2: a second fit on 90 %, then the 10 % predicted, V2 vs V1),
 *   unless BENCH_BPIV2_EVAL=0.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { evaluateBpiV2, fitBpiV2, generatePopulation, spearman, type ChartInfo } from '../src/domain/bpi-v2';
import { fmt, record, SHARED } from './lib';

const DEFINITIONS_FILE = path.join(SHARED, 'data/definitions/definitions-202509156.json');
const TARGET_MS = 60_000;
const mib = (bytes: number) => bytes / 2 ** 20;
const rss = () => process.memoryUsage().rss;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** SP charts of the real definitions, level 12 first then 11, with a usable kaiden average and WR. */
function realCharts(limit: number): ChartInfo[] {
  if (!fs.existsSync(DEFINITIONS_FILE))
    throw new Error(`${DEFINITIONS_FILE} not found: the V2 bench takes its charts from ../shared`);
  const body = JSON.parse(fs.readFileSync(DEFINITIONS_FILE, 'utf8')).body as Record<string, unknown>[];
  const rows = body
    .filter((d) => ['3', '4', '10'].includes(String(d.difficulty)) && !d.removed)
    .map((d) => ({
      title: String(d.title),
      level: Number(d.difficultyLevel),
      notes: Number(d.notes),
      kaidenAvg: Number(d.avg),
      wr: Number(d.wr),
      coef: Number(d.coef),
    }))
    .filter((d) => d.notes > 0 && d.kaidenAvg > 0 && d.wr > d.kaidenAvg && d.wr < d.notes * 2)
    .sort((a, b) => b.level - a.level || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return rows
    .slice(0, limit)
    .map(({ notes, kaidenAvg, wr, coef }) => ({ notes, kaidenAvg, wr, coef: coef > 0 ? coef : null }));
}

export async function benchBpiV2(): Promise<void> {
  const players = Number(process.env.BENCH_USERS ?? 10_000);
  const chartCount = Number(process.env.BENCH_CHARTS ?? 1_000);
  const density = Number(process.env.BENCH_BPIV2_DENSITY ?? 1);
  const withEval = process.env.BENCH_BPIV2_EVAL !== '0';
  const definitions = realCharts(chartCount);

  let t0 = performance.now();
  const pop = generatePopulation({ players, charts: definitions.length, seed: 19, definitions, density });
  const generateMs = performance.now() - t0;
  const nnz = pop.matrix.chart.length;
  const inputBytes = pop.matrix.rowPtr.byteLength + pop.matrix.chart.byteLength + pop.matrix.ex.byteLength;
  console.log(
    `generated ${fmt(players)} players × ${definitions.length} charts → ${fmt(nnz)} bests in ${fmt(generateMs / 1000, 1)} s`,
  );

  gc();
  const rssBefore = rss();
  let rssPeak = rssBefore;
  t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const fit = fitBpiV2(pop.matrix, pop.charts, {
    onProgress: (p) => {
      rssPeak = Math.max(rssPeak, rss());
      if (p.iteration) process.stdout.write(`\rfit: iteration ${p.iteration}, ${Math.round(p.fraction * 100)} %`);
    },
  });
  const fitMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const fitCpuMs = (cpu.user + cpu.system) / 1000;
  process.stdout.write('\n');
  console.log(
    `fit: ${fmt(fitMs / 1000, 1)} s, ${fit.iterations} iterations (converged: ${fit.converged}), ${fit.fittedCharts} charts, ${fmt(fit.players)} players`,
  );

  // recovery (truth in the fit's normalisation: θ* = (θ − a)/b, mu* = mu + sigma·a, sigma* = sigma·b)
  let n = 0;
  let sum = 0;
  for (let i = 0; i < players; i++) {
    if (!Number.isFinite(fit.skill[i])) continue;
    n++;
    sum += pop.truth.skill[i];
  }
  const a = sum / n;
  let ss = 0;
  for (let i = 0; i < players; i++) if (Number.isFinite(fit.skill[i])) ss += (pop.truth.skill[i] - a) ** 2;
  const b = Math.sqrt(ss / n);
  let maeMu = 0;
  let maeSigma = 0;
  fit.charts.forEach((c, j) => {
    if (!c) return;
    maeMu += Math.abs(c.mu - (pop.truth.mu[j] + pop.truth.sigma[j] * a));
    maeSigma += Math.abs(c.sigma / (pop.truth.sigma[j] * b) - 1);
  });
  maeMu /= fit.fittedCharts;
  maeSigma /= fit.fittedCharts;
  const est: number[] = [];
  const tru: number[] = [];
  for (let i = 0; i < players; i++) {
    if (!Number.isFinite(fit.skill[i])) continue;
    est.push(fit.skill[i]);
    tru.push(pop.truth.skill[i]);
  }
  const rho = spearman(est, tru);

  const rows: [string, string, string][] = [
    [
      'bests (players × charts × density)',
      `${fmt(nnz)} (${fmt(players)} × ${definitions.length} × ${density})`,
      '10M at the scale scenario',
    ],
    ['generation (not part of the fit)', `${fmt(generateMs / 1000, 1)} s`, '—'],
    [
      '**fit time**',
      `**${fmt(fitMs / 1000, 1)} s** (${fit.iterations} iterations, converged: ${fit.converged})`,
      `< 60 s — ${fitMs < TARGET_MS ? 'met' : 'NOT met'}`,
    ],
    [
      'fit CPU time (user + system; wall time above includes waiting for a busy CPU)',
      `${fmt(fitCpuMs / 1000, 1)} s`,
      '—',
    ],
    ['fit time per iteration', `${fmt(fitMs / Math.max(1, fit.iterations), 0)} ms`, '—'],
    ['input matrix (CSR: rowPtr + chart + EX)', `${fmt(mib(inputBytes), 0)} MiB`, '—'],
    [
      'RSS before the fit → peak during it',
      `${fmt(mib(rssBefore), 0)} → ${fmt(mib(rssPeak), 0)} MiB (+${fmt(mib(rssPeak - rssBefore), 0)} MiB)`,
      'bounded: ≈ 8 bytes per best + O(players + charts)',
    ],
    ['fitted charts / players', `${fit.fittedCharts} / ${fmt(fit.players)}`, '—'],
    [
      'recovery: MAE mu (t units), MAE sigma (relative), Spearman of skills',
      `${maeMu.toFixed(4)}, ${(maeSigma * 100).toFixed(2)} %, ${rho.toFixed(4)}`,
      'as the unit tests: < 0.02, < 3 %, ≥ 0.95',
    ],
    [
      'anchors: z0, typical WR gap, charts with gamma ≠ 1',
      `${fit.anchors.z0.toFixed(3)}, ${fit.anchors.gap.toFixed(3)}, ${fit.charts.filter((c) => c && c.params.gamma !== 1).length}`,
      '—',
    ],
    ['in-sample RMSE of t, R² within charts', `${fit.rmseT.toFixed(3)}, ${fit.r2WithinChart.toFixed(3)}`, '—'],
  ];

  if (withEval) {
    gc();
    t0 = performance.now();
    const ev = evaluateBpiV2(pop.matrix, pop.charts);
    const evalMs = performance.now() - t0;
    const c = ev.v1Comparison;
    console.log(`evaluation: ${fmt(evalMs / 1000, 1)} s`);
    rows.push(
      ['held-out evaluation time (fit on 90 % + predictions)', `${fmt(evalMs / 1000, 1)} s`, '—'],
      [
        'held-out (10 %): bests, RMSE of t, MAE of EX, R² within charts',
        `${fmt(ev.heldOut.observations)}, ${ev.heldOut.rmseT.toFixed(3)}, ${ev.heldOut.maeEx.toFixed(1)}, ${ev.heldOut.r2WithinChart.toFixed(3)}`,
        '—',
      ],
      [
        'held-out V2 vs V1 prediction: RMSE of t, MAE of EX',
        `V2 ${c.v2.rmseT.toFixed(3)}, ${c.v2.maeEx.toFixed(1)} · V1 ${c.v1.rmseT.toFixed(3)}, ${c.v1.maeEx.toFixed(1)}`,
        '—',
      ],
      [
        'V1 vs V2 BPI of the held-out bests: RMSE, mean V2 − V1, Spearman',
        `${c.bpiRmse.toFixed(2)}, ${c.bpiMeanDiff.toFixed(2)}, ${c.bpiSpearman.toFixed(4)}`,
        '—',
      ],
    );
  }
  rows.push(['process peak RSS (getrusage)', `${fmt(process.resourceUsage().maxRSS / 1024, 0)} MiB`, '—']);

  record(
    `BPI V2 fit (${fmt(players)} players × ${definitions.length} charts)`,
    'bench/bpi-v2.ts: population generated in memory (seed 19) on the real SP charts of definitions-202509156 (level 12, then 11); fitBpiV2 with its defaults (Huber c 1.345, ≥ 30 players per chart, ≥ 10 charts per player, tolerance 1e-5) in the bench process; RSS sampled at every progress call; then evaluateBpiV2 (fold 0 of 10)',
    rows,
  );
}

if (require.main === module) {
  benchBpiV2().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
