/**
 * The steps of the BPI V2 fit (./fit.ts): pruning to the fitted players × charts, start values,
 * the standardisation of θ, and the two alternating weighted regressions (chart step, player
 * step). Each works in place on one fit's arrays (FitState).
 */

/** The arrays one fit works on; every step reads and updates them in place. */
export interface FitState {
  /** players, charts */
  P: number;
  C: number;
  /** the score matrix's rows and chart index per entry (./matrix.ts) */
  rowPtr: Int32Array;
  col: Int32Array;
  /** transformed best per entry (NaN = not used) */
  t: Float64Array;
  /** 1 = in the fit */
  chartOn: Uint8Array;
  playerOn: Uint8Array;
  /** scratch: fitted players per chart (prune) */
  perChart: Int32Array;
  mu: Float64Array;
  sigma: Float64Array;
  omega: Float64Array;
  /** skill per player (NaN = not fitted) */
  theta: Float64Array;
  /** scratch: six weighted sums per chart */
  acc: Float64Array;
  /** Huber tuning constant, and its consistency factor (./stats.ts huberBeta) */
  c: number;
  beta: number;
  minPlayersPerChart: number;
  minChartsPerPlayer: number;
}

/** Drops players with too few fitted charts and charts with too few fitted players, to a fixed point. */
export function prune(st: FitState): void {
  const { P, C, rowPtr, col, t, chartOn, playerOn, perChart, minChartsPerPlayer, minPlayersPerChart } = st;
  for (let round = 0; ; round++) {
    let changed = false;
    perChart.fill(0);
    for (let i = 0; i < P; i++) {
      if (!playerOn[i]) continue;
      let n = 0;
      for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) if (chartOn[col[k]] && t[k] === t[k]) n++;
      if (n < minChartsPerPlayer) {
        playerOn[i] = 0;
        changed = true;
        continue;
      }
      for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) if (chartOn[col[k]] && t[k] === t[k]) perChart[col[k]]++;
    }
    for (let j = 0; j < C; j++) {
      if (chartOn[j] && perChart[j] < minPlayersPerChart) {
        chartOn[j] = 0;
        changed = true;
      }
    }
    if (!changed) return;
  }
}

/** Start values: per-chart mean/sd of t (omega = sigma); θ = a player's mean standardised t. */
export function startValues(st: FitState): void {
  const { P, C, rowPtr, col, t, chartOn, playerOn, mu, sigma, omega, theta, acc } = st;
  for (let i = 0; i < P; i++) {
    if (!playerOn[i]) continue;
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      const j = col[k];
      if (!chartOn[j] || t[k] !== t[k]) continue;
      acc[j * 6] += 1;
      acc[j * 6 + 1] += t[k];
      acc[j * 6 + 2] += t[k] * t[k];
    }
  }
  for (let j = 0; j < C; j++) {
    if (!chartOn[j]) continue;
    const n = acc[j * 6];
    const mean = acc[j * 6 + 1] / n;
    const sd = Math.sqrt(Math.max(0, acc[j * 6 + 2] / n - mean * mean));
    mu[j] = mean;
    sigma[j] = sd > 1e-9 ? sd : 1e-9;
    omega[j] = sigma[j];
  }
  for (let i = 0; i < P; i++) {
    if (!playerOn[i]) continue;
    let s = 0;
    let n = 0;
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      const j = col[k];
      if (!chartOn[j] || t[k] !== t[k]) continue;
      s += (t[k] - mu[j]) / sigma[j];
      n++;
    }
    theta[i] = s / n;
  }
}

/** θ → (θ − mean) / sd over fitted players; mu/sigma compensated (predictions unchanged). */
export function standardise(st: FitState): void {
  const { P, C, chartOn, playerOn, mu, sigma, theta } = st;
  let n = 0;
  let s = 0;
  let ss = 0;
  for (let i = 0; i < P; i++) {
    if (!playerOn[i]) continue;
    n++;
    s += theta[i];
  }
  const mean = s / n;
  for (let i = 0; i < P; i++) if (playerOn[i]) ss += (theta[i] - mean) * (theta[i] - mean);
  const sd = Math.sqrt(ss / n) || 1;
  for (let i = 0; i < P; i++) if (playerOn[i]) theta[i] = (theta[i] - mean) / sd;
  for (let j = 0; j < C; j++) {
    if (!chartOn[j]) continue;
    mu[j] += sigma[j] * mean;
    sigma[j] *= sd;
  }
}

/**
 * Chart step: per chart, a Huber-weighted regression of t on θ gives (mu, sigma); omega follows
 * Huber's proposal 2. A chart without a positive slope leaves the fit: true when one did.
 */
export function chartStep(st: FitState): boolean {
  const { P, C, rowPtr, col, t, chartOn, playerOn, mu, sigma, omega, theta, acc, c, beta } = st;
  acc.fill(0);
  const psi2 = new Float64Array(C);
  for (let i = 0; i < P; i++) {
    if (!playerOn[i]) continue;
    const th = theta[i];
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      const j = col[k];
      const tk = t[k];
      if (!chartOn[j] || tk !== tk) continue;
      const u = (tk - mu[j] - sigma[j] * th) / omega[j];
      const au = u < 0 ? -u : u;
      const w = au <= c ? 1 : c / au;
      psi2[j] += au <= c ? u * u : c * c;
      const o = j * 6;
      acc[o] += w;
      acc[o + 1] += w * th;
      acc[o + 2] += w * th * th;
      acc[o + 3] += w * tk;
      acc[o + 4] += w * tk * th;
      acc[o + 5] += 1;
    }
  }
  let dropped = false;
  for (let j = 0; j < C; j++) {
    if (!chartOn[j]) continue;
    const o = j * 6;
    const sw = acc[o];
    const xm = acc[o + 1] / sw;
    const ym = acc[o + 3] / sw;
    const sxx = acc[o + 2] - sw * xm * xm;
    const sxy = acc[o + 4] - sw * xm * ym;
    const n = acc[o + 5];
    const b = sxx > 0 ? sxy / sxx : NaN;
    if (!(b > 1e-6)) {
      chartOn[j] = 0; // no positive relation between skill and score: no V2 scale for this chart
      dropped = true;
      continue;
    }
    sigma[j] = b;
    mu[j] = ym - b * xm;
    omega[j] = Math.max(1e-6, omega[j] * Math.sqrt(psi2[j] / (beta * Math.max(1, n - 2))));
  }
  return dropped;
}

/** Player step: per player, a weighted regression through the origin of (t − mu) on sigma gives θ. */
export function playerStep(st: FitState): void {
  const { P, rowPtr, col, t, chartOn, playerOn, mu, sigma, omega, theta, c } = st;
  for (let i = 0; i < P; i++) {
    if (!playerOn[i]) continue;
    const th = theta[i];
    let num = 0;
    let den = 0;
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      const j = col[k];
      const tk = t[k];
      if (!chartOn[j] || tk !== tk) continue;
      const sj = sigma[j];
      const oj = omega[j];
      const d = tk - mu[j];
      const u = (d - sj * th) / oj;
      const au = u < 0 ? -u : u;
      const w = (au <= c ? 1 : c / au) / (oj * oj);
      num += w * sj * d;
      den += w * sj * sj;
    }
    if (den > 0) theta[i] = num / den;
  }
}
