/**
 * Small numeric helpers of the BPI V2 fit: robust location/scale, rank correlation, the normal
 * distribution and Huber's M-estimation constants. Pure, deterministic, no dependencies.
 */

/** Median of the finite values (NaN when there is none). Does not modify its input. */
export function median(values: ArrayLike<number>): number {
  const xs: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) xs.push(values[i]);
  if (xs.length === 0) return NaN;
  xs.sort((a, b) => a - b);
  const h = xs.length >> 1;
  return xs.length % 2 === 1 ? xs[h] : (xs[h - 1] + xs[h]) / 2;
}

/**
 * Robust standard deviation: 1.4826 × the median absolute deviation from the median
 * (1.4826 = 1 / Φ⁻¹(3/4) makes it estimate σ for normal data). NaN when there is no value.
 */
export function robustSd(values: ArrayLike<number>): number {
  const m = median(values);
  if (!Number.isFinite(m)) return NaN;
  const dev: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) dev.push(Math.abs(values[i] - m));
  return 1.4826 * median(dev);
}

/** Ranks 1..n of the values, ties sharing their average rank. */
export function ranks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => values[a] - values[b] || a - b);
  const r = new Float64Array(n);
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && values[order[j]] === values[order[i]]) j++;
    const avg = (i + 1 + j) / 2; // ranks i+1 … j share their mean
    for (let k = i; k < j; k++) r[order[k]] = avg;
    i = j;
  }
  return r;
}

/** Pearson correlation of two equally long series (NaN when either has no spread). */
export function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  if (n !== b.length) throw new RangeError('pearson: series of different lengths');
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i] - ma;
    const db = b[i] - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** Spearman rank correlation (Pearson correlation of the average ranks). */
export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return pearson(ranks(a), ranks(b));
}

/** Standard normal density φ(x). */
export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/**
 * Standard normal distribution function Φ(x), through erf by Abramowitz & Stegun 7.1.26
 * (absolute error < 1.5e-7, ample for the constants below).
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const k = 1 / (1 + 0.3275911 * z);
  const erf =
    1 -
    ((((1.061405429 * k - 1.453152027) * k + 1.421413741) * k - 0.284496736) * k + 0.254829592) * k * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/**
 * β(c) = E[ψ_c(Z)²] for Z ~ N(0, 1) and Huber's ψ_c(u) = max(−c, min(c, u)):
 * 2Φ(c) − 1 − 2cφ(c) + 2c²(1 − Φ(c)). Dividing the mean squared ψ by β makes Huber's scale
 * estimate ("proposal 2") consistent for normal residuals. β(∞) = 1 (plain least squares).
 * For c = 1.345 (Φ = 0.910687, φ = 0.161468): 0.821375 − 0.434348 + 0.323138 = 0.710165.
 */
export function huberBeta(c: number): number {
  if (!Number.isFinite(c)) return 1;
  const P = normalCdf(c);
  return 2 * P - 1 - 2 * c * normalPdf(c) + 2 * c * c * (1 - P);
}
