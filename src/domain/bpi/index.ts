/**
 * BPI (Beat Power Indicator), the reference system's V1 definition, exactly as
 * docs/domain/bpi.md: kaiden average → 0, world record → 100, floor -15.
 */
export const DEFAULT_COEF = 1.175;
export const BPI_FLOOR = -15;

export interface ChartDef {
  notes: number;
  /** kaiden average EX score; null/undefined/≤0 = unknown */
  kaidenAvg: number | null | undefined;
  /** world-record EX score; null/undefined/≤0 = unknown */
  wr: number | null | undefined;
  coef?: number | null;
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;

export function effectiveCoef(coef: number | null | undefined): number {
  return coef === null || coef === undefined || !Number.isFinite(coef) || coef <= 0 ? DEFAULT_COEF : coef;
}

/** The "pika-great function" of an EX score s on a chart with max EX m. */
export function pgf(s: number, m: number): number {
  if (s === m) return m * 0.8;
  return 1 + (s / m - 0.5) / (1 - s / m);
}

const known = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

export class ExScoreOverMaxError extends Error {
  constructor(readonly max: number) {
    super(`exScore exceeds maximum (${max})`);
  }
}

/**
 * Single-chart BPI of EX score s, rounded to 2 decimals and floored at -15.
 * Throws ExScoreOverMaxError when s > 2·notes; returns null when the result is NaN.
 */
export function calcBpi(s: number, def: ChartDef): number | null {
  const m = def.notes * 2;
  if (def.notes > 0 && s > m) throw new ExScoreOverMaxError(m);
  if (!(def.notes > 0) || !known(def.kaidenAvg) || !known(def.wr) || s < 0) return BPI_FLOOR;
  const k = def.kaidenAvg;
  const z = def.wr;
  const p = effectiveCoef(def.coef);
  const pk = pgf(k, m);
  const S = pgf(s, m) / pk;
  const Z = pgf(z, m) / pk;
  const lnZ = Math.log(Z);
  if (Math.abs(lnZ) < 1e-5) return 0;
  // docs/domain/bpi.md#single-chart-bpi: the power of the absolute value, the sign from s ≥ k alone. (A chart whose
  // kaiden average is above its world record has ln Z < 0: raising the signed ratio gave NaN.)
  const raw = (s >= k ? 100 : -100) * Math.pow(Math.abs(Math.log(S) / lnZ), p);
  if (Number.isNaN(raw)) return null;
  return Math.max(BPI_FLOOR, round2(raw));
}

/** Like calcBpi but answers null instead of throwing for an over-max score (stored values). */
export function safeBpi(s: number, def: ChartDef): number | null {
  try {
    return calcBpi(s, def);
  } catch (err) {
    if (err instanceof ExScoreOverMaxError) return null;
    throw err;
  }
}

/**
 * EX score needed for target BPI t: ceiled unless raw is asked for; clamped to [0, 2·notes]; null
 * without a usable definition. The inverse of calcBpi on every chart: with
 * |ln S| = |ln Z|·(|t|/100)^(1/p) and ln S of the sign of t (S ≥ 1 exactly when s ≥ k), the
 * score is m·(S − 0.5)/S for S = pgf(k)·e^(sign(t)·(|t|/100)^(1/p)·|ln Z|). docs/domain/bpi.md's
 * `sign(t)·(|t|/100)^(1/p)·ln Z` is the same when the world record is above the kaiden average;
 * on charts whose average is above the record (ln Z < 0) it answered a score below the average
 * for a positive target — a score whose BPI is negative. The degenerate chart (ln Z ≈ 0, every
 * score BPI 0) answers the kaiden average.
 */
export function exScoreForBpi(t: number, def: ChartDef, raw = false): number | null {
  const m = def.notes * 2;
  if (!(def.notes > 0) || !known(def.kaidenAvg) || !known(def.wr) || !Number.isFinite(t)) return null;
  const p = effectiveCoef(def.coef);
  const pk = pgf(def.kaidenAvg, m);
  const lnZ = Math.log(pgf(def.wr, m) / pk);
  const inner = Math.sign(t) * Math.pow(Math.abs(t) / 100, 1 / p) * Math.abs(lnZ);
  const S = pk * Math.exp(inner);
  // a huge target overflows S to Infinity (∞/∞ would be NaN): its score is the maximum, as the clamp says
  let score = S === Infinity ? m : (m * (S - 0.5)) / S;
  score = Math.min(m, Math.max(0, score));
  // ceil, ignoring floating-point noise (the average's own BPI 0 must answer the average, not +1)
  return raw ? score : Math.ceil(score - 1e-9);
}

/**
 * Total BPI over N charts: the player's best single BPIs (missing charts filled with -15),
 * signed power mean with K = max(1, log2 N), rounded to 2 decimals. N = 0 → -15.
 */
export function totalBpi(bpis: readonly number[], n: number): number {
  if (n <= 0) return BPI_FLOOR;
  const K = Math.max(1, Math.log2(n));
  const values = [...bpis].sort((a, b) => b - a).slice(0, n);
  let sum = 0;
  for (const b of values) sum += (Math.sign(b) * Math.pow(Math.abs(b), K)) / n;
  const missing = n - values.length;
  if (missing > 0) sum += (missing * -Math.pow(15, K)) / n;
  return Math.sign(sum) * round2(Math.pow(Math.abs(sum), 1 / K));
}

/**
 * `totalBpi` kept up to date one chart at a time, for replays that need a total after every play
 * day (the trend, the monthly review): a set of N charts, each chart's BPI replaced as it
 * improves, charts not yet played counting −15. Each chart's term sign(b)·|b|^K / N is computed
 * once per change (the power is the expensive part) and the terms are summed afresh for each
 * total — no running sum that would drift — so `total()` equals `totalBpi(values, n)` up to the
 * order of the summation.
 */
export class RunningTotalBpi {
  private readonly k: number;
  private readonly index = new Map<number, number>();
  private readonly terms: Float64Array;
  private count = 0;

  constructor(private readonly n: number) {
    this.k = Math.max(1, Math.log2(n));
    this.terms = new Float64Array(Math.max(0, n));
  }

  /** The chart's BPI from now on (a chart of the set: at most N distinct charts). */
  set(chartId: number, bpi: number): void {
    let i = this.index.get(chartId);
    if (i === undefined) {
      if (this.count >= this.n) throw new Error(`RunningTotalBpi: more than ${this.n} charts`);
      this.index.set(chartId, (i = this.count++));
    }
    this.terms[i] = (Math.sign(bpi) * Math.pow(Math.abs(bpi), this.k)) / this.n;
  }

  /** Charts with a BPI so far. */
  get playedCount(): number {
    return this.count;
  }

  /** The total BPI now (totalBpi of the charts' BPIs over N). */
  total(): number {
    if (this.n <= 0) return BPI_FLOOR;
    let sum = 0;
    for (let i = 0; i < this.count; i++) sum += this.terms[i];
    const missing = this.n - this.count;
    if (missing > 0) sum += (missing * -Math.pow(15, this.k)) / this.n;
    return Math.sign(sum) * round2(Math.pow(Math.abs(sum), 1 / this.k));
  }
}

/** Estimated rank among all players from a total BPI. */
export function estimateRankFromTotal(total: number): number {
  return Math.ceil(Math.pow(2699, (100 - total) / 100));
}

/** Estimated rank on one chart from a single-chart BPI. */
export function estimateRankFromSingle(bpi: number): number {
  return Math.max(1, Math.ceil(Math.pow(2616, (100 - bpi) / 100)));
}

export type DjLevel = 'AAA' | 'AA' | 'A' | 'B' | 'C' | 'D' | 'E' | 'F';
const DJ_BORDERS: [DjLevel, number][] = [
  ['AAA', 8 / 9],
  ['AA', 7 / 9],
  ['A', 6 / 9],
  ['B', 5 / 9],
  ['C', 4 / 9],
  ['D', 3 / 9],
  ['E', 2 / 9],
];

/** DJ LEVEL from the EX score rate s / (2·notes). */
export function djLevel(s: number, notes: number): DjLevel {
  const r = notes > 0 ? s / (notes * 2) : 0;
  for (const [label, border] of DJ_BORDERS) if (r >= border) return label;
  return 'F';
}
