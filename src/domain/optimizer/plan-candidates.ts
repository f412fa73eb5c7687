/**
 * The candidates of a plan (src/domain/optimizer/plan.ts): each chart the filters let through, with
 * its option grid and lazily computed gains, and the solver item it becomes under the caps at a
 * given total.
 */
import { calcBpi, safeBpi } from '../bpi';
import { RADAR_CATEGORIES, type RadarCategory } from '../constants';
import type { OptimizeSettings } from './input';
import type { PowerMean } from './math';
import { capEx, defOf, exLow, firstEx, humanCap, MAX_BPI, UNPLAYED_BPI } from './plan-caps';
import type { OptimizerChart, OptimizerTuning, RadarBpis } from './plan-types';
import type { SolverItem } from './solver';

/** One plan's fixed inputs, shared by its searches. */
export interface PlanContext {
  charts: readonly OptimizerChart[];
  fromBpis: number[];
  pm: PowerMean;
  initialSum: number;
  initialTotal: number;
  currentTotalBpi: number;
  settings: OptimizeSettings;
  radar: RadarBpis | null;
  strong: Set<RadarCategory>;
  tuning: OptimizerTuning;
}

/** A candidate chart, independent of the caps: its options are EX = first + j·step up to a cap's EX. */
export interface Candidate {
  chart: OptimizerChart;
  fromBpi: number;
  radarBpi: number | null;
  /** The first option's EX (the first on the grid at or above the minimum gain whose BPI beats fromBpi). */
  first: number;
  step: number;
  /** Option gains (NaN = not computed yet), filled lazily and shared by every search of the plan (the solver's gainMemo). */
  gains: Float64Array;
  gain(j: number): number;
}

export const exOf = (cand: Candidate, j: number) => cand.first + j * cand.step;

/** contribution(b) for BPIs rounded to 2 decimals (calcBpi's values), memoised per plan. */
export function contributionMemo(pm: PowerMean): (bpi: number) => number {
  const OFFSET = 1500; // index 0 = BPI −15.00
  const table = new Float64Array(OFFSET + 20_001).fill(NaN);
  return (b) => {
    const idx = Math.round(b * 100) + OFFSET;
    if (idx < 0 || idx >= table.length) return pm.contribution(b);
    let v = table[idx];
    if (Number.isNaN(v)) {
      v = pm.contribution(b);
      table[idx] = v;
    }
    return v;
  };
}

export function candidateOf(
  c: OptimizerChart,
  fromBpi: number,
  radarBpi: number | null,
  contribution: (b: number) => number,
  step: number,
): Candidate | null {
  const def = defOf(c);
  const m = c.notes * 2;
  if (capEx(c, MAX_BPI) === null) return null;
  // Below the first EX whose BPI beats fromBpi nothing is gained (e.g. the −15 floor of an unplayed chart).
  const rising = firstEx(exLow(c, fromBpi), m, (e) => (safeBpi(e, def) ?? -Infinity) > fromBpi);
  if (rising === null) return null;
  const first = Math.ceil(rising / step) * step;
  if (first > m) return null;
  const fromC = contribution(fromBpi);
  const cand: Candidate = {
    chart: c,
    fromBpi,
    radarBpi,
    first,
    step,
    gains: new Float64Array(Math.floor((m - first) / step) + 1).fill(NaN), // every option up to 2·notes
    // calcBpi is non-decreasing in the EX score, so gains are too (null never occurs past `rising`).
    gain: (j) => {
      let g = cand.gains[j];
      if (Number.isNaN(g)) {
        g = contribution(calcBpi(exOf(cand, j), def) ?? fromBpi) - fromC;
        cand.gains[j] = g;
      }
      return g;
    },
  };
  return cand;
}

/** The highest new EX the caps allow on a candidate at a given total. */
export function hiAt(ctx: PlanContext, cand: Candidate, total: number): number {
  return capEx(cand.chart, humanCap(cand.fromBpi, cand.radarBpi, total, ctx.settings.considerCurrentTotalBpi)) ?? -1;
}

/** The solver item of a candidate under the caps at a given total (null when no option fits). */
export function itemAt(ctx: PlanContext, cand: Candidate, total: number): SolverItem | null {
  const hi = hiAt(ctx, cand, total);
  if (cand.first > hi) return null;
  const cur = cand.chart.exScore ?? 0;
  return {
    key: cand.chart.id,
    size: Math.floor((hi - cand.first) / cand.step) + 1,
    cost: (j) => exOf(cand, j) - cur,
    gain: cand.gain,
    gainMemo: cand.gains,
  };
}

export const isEffectivelyUnplayed = (c: OptimizerChart, fromBpi: number) =>
  c.exScore === null || fromBpi <= UNPLAYED_BPI;

/** The three strongest radar categories (ties: the category order NOTES, CHORD, PEAK, CHARGE, SCRATCH, SOFLAN). */
export function strongCategories(radar: RadarBpis | null): Set<RadarCategory> {
  if (!radar) return new Set();
  const withValue = RADAR_CATEGORIES.filter((c) => typeof radar[c] === 'number');
  withValue.sort((a, b) => radar[b]! - radar[a]! || RADAR_CATEGORIES.indexOf(a) - RADAR_CATEGORIES.indexOf(b));
  return new Set(withValue.slice(0, 3));
}
