/**
 * BPI V2: a distribution-based BPI fitted from this server's own bests (issue #19 part 2).
 * The full definition, with the reasons, is in ./README.md; in short:
 *
 * 1. Transform. For an EX score s on a chart with max EX m = 2·notes:
 *      t(s) = −ln(max(0.5, m − clamp(s, 0, m)))
 *    (minus the log of the EX still missing; the 0.5 keeps the max score finite: t(m) = ln 2).
 *    t differs from V1's ln pgf(s) only by the per-chart constant ln(m/2).
 * 2. Skill model, fitted per definitions vintage (./fit.ts): t_ij = mu_j + sigma_j·θ_i + ε_ij,
 *    θ the player's skill (mean 0, sd 1 over the fitted players), ε_ij with sd omega_j.
 * 3. Skill level of a score: z = (t(s) − mu_j) / sigma_j (the skill whose typical score is s).
 * 4. BPI scale: r = (z − z0) / (z100_j − z0), BPI = 100·sign(r)·|r|^gamma_j, rounded to 2
 *    decimals, floored at −15 (as V1).
 *    - z0 (one value for all charts): the median over charts of the z of the chart's kaiden
 *      average — the skill level that typically scores the kaiden average → BPI 0.
 *    - z100_j: the z of the chart's world record → the WR is BPI 100 exactly. A chart without a
 *      usable WR takes the typical gap: z100_j = z0 + g̃ (g̃ = median WR gap over charts).
 *    - gamma_j, the outlier-corrected exponent: 1 for a chart whose gap g_j = z100_j − z0 lies in
 *      the band g̃ ± 2·(robust sd of the gaps); outside it the curve bends so that the player
 *      halfway up the chart's scale gets the BPI the band edge g*_j would give:
 *        g_j > g*_j: gamma_j = 1 / (1 + log2(g_j / g*_j))   (WR far out: lift the middle)
 *        g_j < g*_j: gamma_j = 1 + log2(g*_j / g_j)         (WR close: lower the middle)
 *      clamped to [0.5, 2]. BPI(z0) = 0 and BPI(z100_j) = 100 for every gamma.
 * 5. Total over N charts: the same signed power mean as V1 (src/domain/bpi totalBpi).
 */
import { BPI_FLOOR, ExScoreOverMaxError, round2, totalBpi } from '../bpi';
import { median, robustSd } from './stats';

/** t(s) = −ln(max(0.5, m − clamp(s, 0, m))) for an EX score s on a chart with max EX m. */
export function transformT(s: number, m: number): number {
  const c = s < 0 ? 0 : s > m ? m : s;
  return -Math.log(Math.max(0.5, m - c));
}

/** Inverse of transformT, unrounded: s = m − e^(−t), clamped to [0, m]. */
export function exFromT(t: number, m: number): number {
  const s = m - Math.exp(-t);
  return s < 0 ? 0 : s > m ? m : s;
}

/** What one chart needs for a V2 BPI: its fitted location/scale and its scale anchors. */
export interface BpiV2Params {
  /** chart location: the mean t of a player of skill 0 */
  mu: number;
  /** chart scale: t gained per unit (one population sd) of skill; > 0 */
  sigma: number;
  /** skill level at BPI 0 (the kaiden-average level; one value for every chart of a fit) */
  z0: number;
  /** skill level at BPI 100 (the chart's world record, or z0 + the typical gap); > z0 */
  z100: number;
  /** curve exponent (1 unless the chart's WR is an outlier); in [0.5, 2] */
  gamma: number;
}

/** Parameters usable by calcBpiV2: finite, sigma > 0, z100 > z0, gamma > 0. */
export function validParams(p: BpiV2Params | null | undefined): p is BpiV2Params {
  return (
    !!p &&
    Number.isFinite(p.mu) &&
    Number.isFinite(p.sigma) &&
    p.sigma > 0 &&
    Number.isFinite(p.z0) &&
    Number.isFinite(p.z100) &&
    p.z100 > p.z0 &&
    Number.isFinite(p.gamma) &&
    p.gamma > 0
  );
}

/** The skill level z = (t(s) − mu) / sigma of an EX score. */
export function skillOfScore(s: number, notes: number, p: Pick<BpiV2Params, 'mu' | 'sigma'>): number {
  return (transformT(s, notes * 2) - p.mu) / p.sigma;
}

/** BPI V2 from a skill level z (unrounded, no floor). */
export function bpiFromSkill(z: number, p: Pick<BpiV2Params, 'z0' | 'z100' | 'gamma'>): number {
  const r = (z - p.z0) / (p.z100 - p.z0);
  return 100 * Math.sign(r) * Math.pow(Math.abs(r), p.gamma);
}

/**
 * Single-chart BPI V2 of EX score s, rounded to 2 decimals and floored at −15 (as V1).
 * Throws ExScoreOverMaxError when s > 2·notes (as V1); s < 0 gives −15; null when the chart has
 * no usable V2 parameters (not fitted: too few players) or no notes — "no V2 value".
 */
export function calcBpiV2(s: number, notes: number, p: BpiV2Params | null | undefined): number | null {
  const m = notes * 2;
  if (notes > 0 && s > m) throw new ExScoreOverMaxError(m);
  if (!(notes > 0) || !validParams(p)) return null;
  if (s < 0) return BPI_FLOOR;
  const raw = bpiFromSkill(skillOfScore(s, notes, p), p);
  if (Number.isNaN(raw)) return null;
  return Math.max(BPI_FLOOR, round2(raw));
}

/** Like calcBpiV2 but null instead of throwing for an over-max score (stored values). */
export function safeBpiV2(s: number, notes: number, p: BpiV2Params | null | undefined): number | null {
  try {
    return calcBpiV2(s, notes, p);
  } catch (err) {
    if (err instanceof ExScoreOverMaxError) return null;
    throw err;
  }
}

/**
 * EX score needed for a target V2 BPI b: z = z0 + sign(b)·(|b|/100)^(1/gamma)·(z100 − z0),
 * t = mu + sigma·z, s = m − e^(−t); clamped to [0, m]; ceiled unless raw. Null without parameters.
 */
export function exScoreForBpiV2(
  b: number,
  notes: number,
  p: BpiV2Params | null | undefined,
  raw = false,
): number | null {
  if (!(notes > 0) || !validParams(p)) return null;
  const z = p.z0 + Math.sign(b) * Math.pow(Math.abs(b) / 100, 1 / p.gamma) * (p.z100 - p.z0);
  const s = exFromT(p.mu + p.sigma * z, notes * 2);
  return raw ? s : Math.ceil(s);
}

/** Total V2 BPI over N charts: V1's signed power mean (missing charts count −15). */
export function totalBpiV2(bpis: readonly number[], n: number): number {
  return totalBpi(bpis, n);
}

// ---------------------------------------------------------------------------------------------
// Anchors: how a fit turns its (mu, sigma) per chart into BPI scales.

/** Half-width of the band of "ordinary" WR gaps, in robust standard deviations of the gaps. */
export const OUTLIER_BAND = 2;
/** A WR gap below this fraction of the typical gap is treated as no WR (bad data: WR ≈ kaiden average). */
export const MIN_GAP_FRACTION = 0.25;
export const GAMMA_MIN = 0.5;
export const GAMMA_MAX = 2;

/** The scale anchors of one fit (shared by all its charts). */
export interface BpiV2Anchors {
  /** skill level of BPI 0 */
  z0: number;
  /** where z0 came from: the charts' kaiden averages, or 0 (population mean) when no chart has one */
  z0Source: 'kaidenAverage' | 'populationMean';
  /** typical WR gap g̃ = median over charts of (z(WR) − z0) */
  gap: number;
  /** where the gap came from: the charts' world records, or the best fitted player when none has one */
  gapSource: 'worldRecord' | 'bestPlayer';
  /** robust sd of the WR gaps (1.4826·MAD); 0 when fewer than 2 */
  gapSd: number;
  /** ordinary gaps lie in [gapLow, gapHigh]; outside, gamma ≠ 1 */
  gapLow: number;
  gapHigh: number;
}

/**
 * The anchors from the z of each fitted chart's kaiden average and world record (null = unknown).
 * Fallbacks: no kaiden average anywhere → z0 = 0 (the population mean); no WR anywhere (or a
 * non-positive median gap) → the gap of the best fitted player, bestSkill − z0 (else 1).
 */
export function computeAnchors(
  zKaiden: readonly (number | null)[],
  zWr: readonly (number | null)[],
  bestSkill: number,
): BpiV2Anchors {
  const ks = zKaiden.filter((z): z is number => z !== null && Number.isFinite(z));
  const z0 = ks.length > 0 ? median(ks) : 0;
  const gaps = zWr.filter((z): z is number => z !== null && Number.isFinite(z)).map((z) => z - z0);
  let gap = gaps.length > 0 ? median(gaps) : NaN;
  let gapSource: BpiV2Anchors['gapSource'] = 'worldRecord';
  if (!(gap > 0)) {
    gap = Number.isFinite(bestSkill) && bestSkill - z0 > 0 ? bestSkill - z0 : 1;
    gapSource = 'bestPlayer';
  }
  const usable = gapSource === 'worldRecord' ? gaps.filter((g) => g >= MIN_GAP_FRACTION * gap) : [];
  const gapSd = usable.length >= 2 ? robustSd(usable) : 0;
  return {
    z0,
    z0Source: ks.length > 0 ? 'kaidenAverage' : 'populationMean',
    gap,
    gapSource,
    gapSd,
    gapLow: Math.max(MIN_GAP_FRACTION * gap, gap - OUTLIER_BAND * gapSd),
    gapHigh: gap + OUTLIER_BAND * gapSd,
  };
}

/**
 * One chart's BPI-100 anchor and exponent from the z of its world record (null = unknown).
 * No WR, or a WR less than MIN_GAP_FRACTION of the typical gap above z0: z100 = z0 + gap, gamma 1.
 * Otherwise z100 = z(WR) and gamma as in the module comment (1 inside [gapLow, gapHigh]).
 */
export function chartCurve(zWr: number | null, a: BpiV2Anchors): { z100: number; gamma: number; wrAnchored: boolean } {
  const g = zWr === null ? NaN : zWr - a.z0;
  if (!Number.isFinite(g) || g < MIN_GAP_FRACTION * a.gap || a.gapSource !== 'worldRecord') {
    return { z100: a.z0 + a.gap, gamma: 1, wrAnchored: false };
  }
  const gStar = Math.min(a.gapHigh, Math.max(a.gapLow, g));
  let gamma = 1;
  if (g > gStar) gamma = 1 / (1 + Math.log2(g / gStar));
  else if (g < gStar) gamma = 1 + Math.log2(gStar / g);
  gamma = Math.min(GAMMA_MAX, Math.max(GAMMA_MIN, gamma));
  return { z100: zWr as number, gamma, wrAnchored: true };
}
