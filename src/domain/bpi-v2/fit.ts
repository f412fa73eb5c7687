/**
 * The BPI V2 fit: a one-factor model of the transformed bests,
 *
 *   t_ij = mu_j + sigma_j·θ_i + ε_ij,   ε_ij ~ (0, omega_j²),
 *
 * fitted by alternating (iteratively reweighted) least squares with Huber weights:
 * - chart step: for each chart, a weighted regression of t on the current θ gives (mu_j, sigma_j);
 *   the residual scale omega_j follows Huber's "proposal 2";
 * - player step: for each player, a weighted regression through the origin of (t − mu_j) on
 *   sigma_j gives θ_i (weights w_ij / omega_j²: charts that measure skill precisely count more);
 * - θ is then standardised to mean 0 / sd 1 over the fitted players, mu/sigma compensated so the
 *   predictions do not move (the model is otherwise defined only up to θ → a + bθ).
 * Huber weights w = min(1, c / |r / omega_j|) (c = 1.345: 95 % efficiency for normal residuals)
 * bound the pull of a wild best (a failed first play, a wrong chart).
 *
 * Who is fitted: a chart needs MIN_PLAYERS_PER_CHART players, a player MIN_CHARTS_PER_PLAYER
 * charts (counted among each other, pruned to a fixed point); see ./README.md for why 30 and 10.
 * A best of 0 (no score) or above the chart's max is ignored.
 *
 * Deterministic: fixed loop order, no randomness. Memory: the matrix plus 8 bytes per entry (t)
 * and O(players + charts); two passes over the entries per iteration.
 *
 * The steps themselves (pruning, start values, standardisation, chart step, player step) are in
 * ./fit-steps.ts; this file prepares the data, iterates them and summarises the result.
 */
import { chartStep, playerStep, prune, standardise, startValues, type FitState } from './fit-steps';
import { checkMatrix, type ChartInfo, type ScoreMatrix } from './matrix';
import { chartCurve, computeAnchors, transformT, type BpiV2Anchors, type BpiV2Params } from './model';
import { huberBeta } from './stats';

export const MIN_PLAYERS_PER_CHART = 30;
export const MIN_CHARTS_PER_PLAYER = 10;
export const HUBER_C = 1.345;

export interface FitProgress {
  /** prepare (transform, prune, start values), fit (iterations), anchor (scales) */
  phase: 'prepare' | 'fit' | 'anchor';
  /** overall fraction done, 0 … 1, non-decreasing */
  fraction: number;
  /** iterations done (fit phase) */
  iteration?: number;
}

export interface FitOptions {
  /** charts with fewer fitted players get no parameters (default 30) */
  minPlayersPerChart?: number;
  /** players with fewer fitted charts are left out of the fit (default 10) */
  minChartsPerPlayer?: number;
  /** Huber tuning constant in residual sds; Infinity = plain least squares (default 1.345) */
  huberC?: number;
  /** iteration cap (default 200) */
  maxIterations?: number;
  /** stop when no skill moves more than this between iterations (default 1e-5) */
  tolerance?: number;
  /** entries to leave out (1 = held out), e.g. a validation fold; length = number of entries */
  heldOut?: Uint8Array;
  onProgress?: (p: FitProgress) => void;
}

export interface ChartFit {
  /** fitted players who have a best on the chart */
  players: number;
  mu: number;
  sigma: number;
  /** residual sd (t units; Huber's robust scale) */
  omega: number;
  /** standard errors of mu and sigma (weighted least squares, θ taken as known) */
  seMu: number;
  seSigma: number;
  /** z of the kaiden average / world record (null = unknown on this chart) */
  zKaiden: number | null;
  zWr: number | null;
  /** true when BPI 100 is this chart's own WR (false: the typical gap stands in) */
  wrAnchored: boolean;
  /** what calcBpiV2 needs */
  params: BpiV2Params;
}

export interface BpiV2Fit {
  /** per chart index: its fit, or null (too few players, no notes, or no positive sigma) */
  charts: (ChartFit | null)[];
  /** per player index: fitted skill θ (mean 0, sd 1 over fitted players), NaN when not fitted */
  skill: Float64Array;
  anchors: BpiV2Anchors;
  players: number;
  fittedCharts: number;
  /** entries used by the fit */
  observations: number;
  iterations: number;
  converged: boolean;
  /** largest skill change of the last iteration */
  lastChange: number;
  /** in-sample root mean squared residual of t, and the share of within-chart variance explained */
  rmseT: number;
  r2WithinChart: number;
  options: Required<Omit<FitOptions, 'heldOut' | 'onProgress'>>;
}

/** Fits mu/sigma per chart and θ per player from the bests; see the module comment. */
export function fitBpiV2(matrix: ScoreMatrix, charts: readonly ChartInfo[], options: FitOptions = {}): BpiV2Fit {
  checkMatrix(matrix, charts);
  const opts = {
    minPlayersPerChart: options.minPlayersPerChart ?? MIN_PLAYERS_PER_CHART,
    minChartsPerPlayer: options.minChartsPerPlayer ?? MIN_CHARTS_PER_PLAYER,
    huberC: options.huberC ?? HUBER_C,
    maxIterations: options.maxIterations ?? 200,
    tolerance: options.tolerance ?? 1e-5,
  };
  if (!(opts.minPlayersPerChart >= 3)) throw new RangeError('minPlayersPerChart must be at least 3');
  if (!(opts.minChartsPerPlayer >= 1)) throw new RangeError('minChartsPerPlayer must be at least 1');
  if (!(opts.huberC > 0)) throw new RangeError('huberC must be positive');
  if (!(opts.maxIterations >= 1)) throw new RangeError('maxIterations must be at least 1');
  if (!(opts.tolerance > 0)) throw new RangeError('tolerance must be positive');
  const { heldOut, onProgress } = options;
  const nnz = matrix.rowPtr[matrix.players];
  if (heldOut && heldOut.length !== nnz)
    throw new RangeError(`heldOut must have one flag per entry (${nnz}, got ${heldOut.length})`);

  let lastFraction = 0;
  const progress = (phase: FitProgress['phase'], fraction: number, iteration?: number) => {
    lastFraction = Math.max(lastFraction, Math.min(1, fraction));
    onProgress?.({ phase, fraction: lastFraction, iteration });
  };

  const P = matrix.players;
  const C = matrix.charts;
  const { rowPtr, chart: col, ex } = matrix;
  const c = opts.huberC;
  const beta = huberBeta(c);

  // --- prepare: t per entry (NaN = not used), then prune to the fitted players × charts
  progress('prepare', 0);
  const t = new Float64Array(nnz);
  const m2 = new Float64Array(C);
  for (let j = 0; j < C; j++) m2[j] = charts[j].notes > 0 ? charts[j].notes * 2 : 0;
  for (let k = 0; k < nnz; k++) {
    const m = m2[col[k]];
    const s = ex[k];
    t[k] = m > 0 && s > 0 && s <= m && !(heldOut && heldOut[k]) ? transformT(s, m) : NaN;
  }
  progress('prepare', 0.02);

  const st: FitState = {
    P,
    C,
    rowPtr,
    col,
    t,
    chartOn: new Uint8Array(C),
    playerOn: new Uint8Array(P).fill(1),
    perChart: new Int32Array(C),
    mu: new Float64Array(C),
    sigma: new Float64Array(C),
    omega: new Float64Array(C),
    theta: new Float64Array(P).fill(NaN),
    acc: new Float64Array(C * 6),
    c,
    beta,
    minPlayersPerChart: opts.minPlayersPerChart,
    minChartsPerPlayer: opts.minChartsPerPlayer,
  };
  const { chartOn, playerOn, mu, sigma, omega, theta, acc } = st;
  for (let j = 0; j < C; j++) chartOn[j] = m2[j] > 0 ? 1 : 0;
  prune(st);
  progress('prepare', 0.04);

  // --- start values, standardised
  startValues(st);
  let fittedPlayers = 0;
  for (let i = 0; i < P; i++) fittedPlayers += playerOn[i];
  if (fittedPlayers > 0) standardise(st);

  // --- alternating steps
  let iterations = 0;
  let converged = false;
  let lastChange = Infinity;
  let firstChange = NaN;
  const previous = new Float64Array(P);
  if (fittedPlayers > 0) {
    for (; iterations < opts.maxIterations;) {
      if (chartStep(st)) {
        prune(st);
        fittedPlayers = 0;
        for (let i = 0; i < P; i++) {
          fittedPlayers += playerOn[i];
          if (!playerOn[i]) theta[i] = NaN;
        }
        if (fittedPlayers === 0) break;
        chartStep(st);
      }
      previous.set(theta);
      playerStep(st);
      standardise(st);
      iterations++;
      let change = 0;
      for (let i = 0; i < P; i++) {
        if (!playerOn[i]) continue;
        const d = Math.abs(theta[i] - previous[i]);
        if (d > change) change = d;
      }
      lastChange = change;
      if (!Number.isFinite(firstChange)) firstChange = Math.max(change, opts.tolerance * 10);
      // progress: the larger of the iteration share and how far the change has fallen (log scale)
      const byChange =
        Math.log(firstChange / Math.max(change, opts.tolerance)) / Math.log(firstChange / opts.tolerance);
      progress('fit', 0.05 + 0.9 * Math.max(iterations / opts.maxIterations, byChange), iterations);
      if (change < opts.tolerance) {
        converged = true;
        break;
      }
    }
    // final chart step with the final θ (so mu/sigma/omega match the skills reported)
    if (fittedPlayers > 0 && chartStep(st)) {
      prune(st);
      for (let i = 0; i < P; i++) if (!playerOn[i]) theta[i] = NaN;
      chartStep(st);
    }
  }
  progress('anchor', 0.95);

  // --- per-chart summaries: standard errors, in-sample fit, z of the kaiden average and WR
  acc.fill(0);
  const sse = new Float64Array(C);
  const stt = new Float64Array(C * 3); // n, Σt, Σt² for the within-chart variance
  let fittedObs = 0;
  for (let i = 0; i < P; i++) {
    if (!playerOn[i]) {
      theta[i] = NaN;
      continue;
    }
    const th = theta[i];
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      const j = col[k];
      const tk = t[k];
      if (!chartOn[j] || tk !== tk) continue;
      const r = tk - mu[j] - sigma[j] * th;
      const u = r / omega[j];
      const au = u < 0 ? -u : u;
      const w = au <= c ? 1 : c / au;
      const o = j * 6;
      acc[o] += w;
      acc[o + 1] += w * th;
      acc[o + 2] += w * th * th;
      acc[o + 5] += 1;
      sse[j] += r * r;
      stt[j * 3] += 1;
      stt[j * 3 + 1] += tk;
      stt[j * 3 + 2] += tk * tk;
      fittedObs++;
    }
  }
  let sseAll = 0;
  let sstAll = 0;
  const zKaiden: (number | null)[] = [];
  const zWr: (number | null)[] = [];
  const fitted: number[] = [];
  let bestSkill = -Infinity;
  for (let i = 0; i < P; i++) if (playerOn[i] && theta[i] > bestSkill) bestSkill = theta[i];
  for (let j = 0; j < C; j++) {
    if (!chartOn[j]) continue;
    fitted.push(j);
    sseAll += sse[j];
    const n = stt[j * 3];
    sstAll += stt[j * 3 + 2] - (stt[j * 3 + 1] * stt[j * 3 + 1]) / n;
    const m = m2[j];
    const k = charts[j].kaidenAvg;
    const w = charts[j].wr;
    zKaiden.push(typeof k === 'number' && k > 0 && k <= m ? (transformT(k, m) - mu[j]) / sigma[j] : null);
    zWr.push(typeof w === 'number' && w > 0 && w <= m ? (transformT(w, m) - mu[j]) / sigma[j] : null);
  }
  const anchors = computeAnchors(zKaiden, zWr, bestSkill);
  const out: (ChartFit | null)[] = new Array(C).fill(null);
  fitted.forEach((j, idx) => {
    const o = j * 6;
    const sw = acc[o];
    const xm = acc[o + 1] / sw;
    const sxx = acc[o + 2] - sw * xm * xm;
    const curve = chartCurve(zWr[idx], anchors);
    out[j] = {
      players: acc[o + 5],
      mu: mu[j],
      sigma: sigma[j],
      omega: omega[j],
      seMu: omega[j] * Math.sqrt(1 / sw + (xm * xm) / sxx),
      seSigma: omega[j] / Math.sqrt(sxx),
      zKaiden: zKaiden[idx],
      zWr: zWr[idx],
      wrAnchored: curve.wrAnchored,
      params: { mu: mu[j], sigma: sigma[j], z0: anchors.z0, z100: curve.z100, gamma: curve.gamma },
    };
  });
  let nPlayers = 0;
  for (let i = 0; i < P; i++) nPlayers += playerOn[i];
  progress('anchor', 1);
  return {
    charts: out,
    skill: theta,
    anchors,
    players: nPlayers,
    fittedCharts: fitted.length,
    observations: fittedObs,
    iterations,
    converged,
    lastChange,
    rmseT: fittedObs > 0 ? Math.sqrt(sseAll / fittedObs) : NaN,
    r2WithinChart: sstAll > 0 ? 1 - sseAll / sstAll : NaN,
    options: opts,
  };
}
