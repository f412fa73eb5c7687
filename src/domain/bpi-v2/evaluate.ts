/**
 * Quality of a V2 fit on held-out bests: one fold of a K-fold split of the entries (default 10 %
 * held out), chosen by a hash of (player, chart) — deterministic, no randomness. The fit runs on
 * the other entries; each held-out best of a fitted player on a fitted chart is then predicted:
 * - V2: t̂ = mu_j + sigma_j·θ_i (the player's skill from his other charts);
 * - V1 (the baseline, on the held-out bests of charts that also have a V1 definition): the EX
 *   score at the player's median V1 BPI over his other V1 charts (V1's inverse, unrounded).
 * Figures: RMSE of t, mean absolute EX error, R² of t within charts; for the V1 comparison the
 * same errors for both models on the same bests, and the agreement of the two BPIs of those
 * bests (RMSE, mean difference V2 − V1, Spearman rank correlation).
 */
import { exScoreForBpi, safeBpi } from '../bpi';
import { fitBpiV2, type BpiV2Fit, type FitOptions, type FitProgress } from './fit';
import { checkMatrix, type ChartInfo, type ScoreMatrix } from './matrix';
import { exFromT, safeBpiV2, transformT } from './model';
import { spearman } from './stats';

/** Fold of entry (player i, chart j) among `folds`: a 32-bit integer hash, deterministic. */
export function foldOf(i: number, j: number, folds: number): number {
  let h = Math.imul(i ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(j + 0x27d4eb2f, 0x85ebca77);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  h ^= h >>> 15;
  return (h >>> 0) % folds;
}

/** 1 for the entries of fold `fold` (held out), else 0. */
export function heldOutMask(matrix: ScoreMatrix, folds: number, fold: number): Uint8Array {
  if (!(Number.isInteger(folds) && folds >= 2)) throw new RangeError('folds must be an integer ≥ 2');
  if (!(Number.isInteger(fold) && fold >= 0 && fold < folds))
    throw new RangeError(`fold must be an integer in [0, ${folds})`);
  const mask = new Uint8Array(matrix.rowPtr[matrix.players]);
  for (let i = 0; i < matrix.players; i++) {
    for (let k = matrix.rowPtr[i]; k < matrix.rowPtr[i + 1]; k++)
      mask[k] = foldOf(i, matrix.chart[k], folds) === fold ? 1 : 0;
  }
  return mask;
}

export interface PredictionError {
  /** held-out bests predicted */
  observations: number;
  /** root mean squared error of the predicted t */
  rmseT: number;
  /** mean absolute error of the predicted EX score */
  maeEx: number;
}

export interface BpiV2Evaluation {
  folds: number;
  fold: number;
  /** the fit on the training entries */
  fit: BpiV2Fit;
  /** V2 predictions of every held-out best of a fitted player on a fitted chart */
  heldOut: PredictionError & { r2WithinChart: number };
  /** on the held-out bests of charts with both a V1 definition and V2 parameters */
  v1Comparison: {
    v2: PredictionError;
    v1: PredictionError;
    /** the two BPIs of the same held-out bests */
    bpiRmse: number;
    bpiMeanDiff: number;
    bpiSpearman: number;
  };
}

/** The fit's phases (scaled to the first 85 %), then `evaluate` (the predictions) up to 1. */
export interface EvaluateProgress {
  phase: FitProgress['phase'] | 'evaluate';
  fraction: number;
  iteration?: number;
}

export interface EvaluateOptions extends Omit<FitOptions, 'heldOut' | 'onProgress'> {
  onProgress?: (p: EvaluateProgress) => void;
  /** number of folds (default 10: 10 % held out) */
  folds?: number;
  /** which fold is held out (default 0) */
  fold?: number;
}

const hasV1 = (c: ChartInfo) =>
  c.notes > 0 && typeof c.kaidenAvg === 'number' && c.kaidenAvg > 0 && typeof c.wr === 'number' && c.wr > 0;

export function evaluateBpiV2(
  matrix: ScoreMatrix,
  charts: readonly ChartInfo[],
  options: EvaluateOptions = {},
): BpiV2Evaluation {
  checkMatrix(matrix, charts);
  const folds = options.folds ?? 10;
  const fold = options.fold ?? 0;
  const mask = heldOutMask(matrix, folds, fold);
  const { folds: _f, fold: _g, onProgress, ...fitOptions } = options;
  const FIT_SHARE = 0.85;
  const fit = fitBpiV2(matrix, charts, {
    ...fitOptions,
    heldOut: mask,
    onProgress: onProgress && ((p) => onProgress({ ...p, fraction: p.fraction * FIT_SHARE })),
  });
  const step = Math.max(1, Math.floor(matrix.players / 20));
  const { rowPtr, chart: col, ex } = matrix;
  const v1Def = charts.map((c) =>
    hasV1(c) ? { notes: c.notes, kaidenAvg: c.kaidenAvg, wr: c.wr, coef: c.coef } : null,
  );

  // V2 on every usable held-out best
  let n = 0;
  let sse = 0;
  let sae = 0;
  const perChart = new Float64Array(charts.length * 3); // n, Σt, Σt² of held-out t per chart
  // V1 comparison on the held-out bests of charts with both models
  let nc = 0;
  let sse2 = 0;
  let sae2 = 0;
  let sse1 = 0;
  let sae1 = 0;
  const b1: number[] = [];
  const b2: number[] = [];
  const training: number[] = [];
  for (let i = 0; i < matrix.players; i++) {
    if (onProgress && i % step === 0)
      onProgress({ phase: 'evaluate', fraction: FIT_SHARE + ((1 - FIT_SHARE) * i) / matrix.players });
    const th = fit.skill[i];
    if (!Number.isFinite(th)) continue;
    // the player's median V1 BPI over his training bests on V1 charts
    training.length = 0;
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      if (mask[k]) continue;
      const d = v1Def[col[k]];
      const s = ex[k];
      if (!d || !(s > 0 && s <= d.notes * 2)) continue;
      const b = safeBpi(s, d);
      if (b !== null) training.push(b);
    }
    training.sort((a, b) => a - b);
    const h = training.length >> 1;
    const v1Skill =
      training.length === 0 ? NaN : training.length % 2 ? training[h] : (training[h - 1] + training[h]) / 2;
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      if (!mask[k]) continue;
      const j = col[k];
      const f = fit.charts[j];
      const m = charts[j].notes * 2;
      const s = ex[k];
      if (!f || !(s > 0 && s <= m)) continue;
      const t = transformT(s, m);
      const tHat = f.mu + f.sigma * th;
      const exHat = exFromT(tHat, m);
      n++;
      sse += (t - tHat) ** 2;
      sae += Math.abs(s - exHat);
      perChart[j * 3] += 1;
      perChart[j * 3 + 1] += t;
      perChart[j * 3 + 2] += t * t;
      const d = v1Def[j];
      if (!d || !Number.isFinite(v1Skill)) continue;
      const ex1 = exScoreForBpi(v1Skill, d, true);
      const bpi1 = safeBpi(s, d);
      const bpi2 = safeBpiV2(s, charts[j].notes, f.params);
      if (ex1 === null || bpi1 === null || bpi2 === null) continue;
      nc++;
      sse2 += (t - tHat) ** 2;
      sae2 += Math.abs(s - exHat);
      sse1 += (t - transformT(ex1, m)) ** 2;
      sae1 += Math.abs(s - ex1);
      b1.push(bpi1);
      b2.push(bpi2);
    }
  }
  let sst = 0;
  for (let j = 0; j < charts.length; j++) {
    const c = perChart[j * 3];
    if (c > 0) sst += perChart[j * 3 + 2] - (perChart[j * 3 + 1] * perChart[j * 3 + 1]) / c;
  }
  const bpiSpearman = nc >= 2 ? spearman(b1, b2) : NaN;
  onProgress?.({ phase: 'evaluate', fraction: 1 });
  let bse = 0;
  let bdiff = 0;
  for (let q = 0; q < b1.length; q++) {
    bse += (b2[q] - b1[q]) ** 2;
    bdiff += b2[q] - b1[q];
  }
  return {
    folds,
    fold,
    fit,
    heldOut: {
      observations: n,
      rmseT: Math.sqrt(sse / n),
      maeEx: sae / n,
      r2WithinChart: sst > 0 ? 1 - sse / sst : NaN,
    },
    v1Comparison: {
      v2: { observations: nc, rmseT: Math.sqrt(sse2 / nc), maeEx: sae2 / nc },
      v1: { observations: nc, rmseT: Math.sqrt(sse1 / nc), maeEx: sae1 / nc },
      bpiRmse: Math.sqrt(bse / nc),
      bpiMeanDiff: bdiff / nc,
      bpiSpearman,
    },
  };
}
