/**
 * "Which charts should I improve, and by how much, to reach total BPI X?" (issue #16) — one
 * deterministic plan with the least EX points asked, within the reference's per-chart realism caps.
 * Inputs and result shape follow domain-stats.md §6.1–§6.7; the search is src/domain/optimizer/solver.ts.
 *
 * Model (integer EX throughout; BPI from src/domain/bpi calcBpi, the total from its power mean):
 * - Song set = the charts passed in (the caller's total-BPI set: SP ☆12 with a definition,
 *   available in the version); N = their number; a chart's current BPI is the BPI of the player's
 *   best EX on it, −15 when unplayed (§6.2).
 * - Candidates = charts passing the strategy (unplayed = no score or BPI ≤ −15, else played),
 *   difficulty and radar-element filters (§6.5 step 2; the radar filter is active when fewer than
 *   all six elements are selected, and a chart without a category then never qualifies).
 * - A candidate's new EX e is its current EX c (unchanged) or an integer in [lo, hi]:
 *   lo = the smaller of c + 5 and the first EX that gains +0.5 BPI (the reference keeps a step when
 *   either holds, §6.5 f); hi = min(2·notes, max(⌈EX for humanCap⌉, c + 5)) with humanCap of §6.5 b:
 *   min(100, max(min(radar + 3, T + 12) — or T + 12 without a radar value —, from + 5)), or 100
 *   when considerCurrentTotalBpi is false. The reference recomputes T (the current total) as its
 *   plan proceeds, so later steps of its plan get larger caps; we use the player's current total
 *   for every chart — a cap never above the reference's at any step, so every plan of ours is also
 *   within the reference's limits (measured cost of that choice: bench/optimizer.ts).
 *   The cost of a change is e − c EX points (an unplayed chart counts from 0, as the reference's
 *   exScoreGap); its gain is the change in the chart's contribution to the power sum.
 * - flexible (default): the least total EX with at most maxSteps charts changed.
 *   fastest: the fewest charts that can reach the target (each at most to its cap), and among the
 *   plans with that many charts the least total EX.
 * - Target auto-raise (§6.5 step 4) and the radar-filter fallback (§6.6) as the reference.
 * - Unreachable target: the plan reaching the highest total within maxSteps (each of the charts
 *   with the largest possible gains at its cap), achievable = false, maxAchievableBpi = that total.
 * - Steps ordered by total-BPI gain per EX point, descending (ties: chart id); bpiGain is the
 *   total-BPI increase of the step in that order, cumulativeTotalBpi the total after it (the real
 *   total: the reference overwrites the last one with the target).
 */
import { calcBpi, exScoreForBpi, round2, safeBpi, totalBpi, type ChartDef } from '../bpi';
import { RADAR_CATEGORIES, type Difficulty, type RadarCategory } from '../constants';
import type { OptimizeSettings } from './input';
import { PowerMean } from './math';
import { DEFAULT_WORK_LIMIT, solveMinCost, type SolveResult, type SolverItem } from './solver';

export interface OptimizerChart {
  /** Chart id (ties are broken by it). */
  id: number;
  title: string;
  difficulty: Difficulty;
  level: number;
  notes: number;
  kaidenAvg: number | null;
  wr: number | null;
  coef: number | null;
  radarCategory: RadarCategory | null;
  /** The player's best EX score on the chart; null = unplayed. */
  exScore: number | null;
}

/** The player's radar value per category (src/domain/radar.ts computeRadar); null = no radar. */
export type RadarBpis = Partial<Record<RadarCategory, number>>;

export interface OptimizerTuning {
  /** New EX scores only on multiples of this (1 = every EX score; coarse grids for tests). */
  exStep?: number;
  /** Branch-and-bound node budget (see solver.ts). */
  workLimit?: number;
  /** Dynamic-programme work budget (see solver.ts). */
  dpLimit?: number;
  /**
   * The total BPI the per-chart caps are computed from (default: the player's current total).
   * For measurement only (bench/optimizer.ts): the target total gives caps at least as large as
   * any the reference's growing total reaches.
   */
  capTotal?: number;
}

export interface OptimizationStep {
  rank: number;
  chartId: number;
  title: string;
  difficulty: Difficulty;
  level: number;
  fromBpi: number;
  toBpi: number;
  /** null when unplayed. */
  fromExScore: number | null;
  toExScore: number;
  /** toExScore − fromExScore (from 0 when unplayed). */
  exScoreGap: number;
  /** Increase of the TOTAL BPI by this step (in step order), rounded to 2 decimals. */
  bpiGain: number;
  /** Total BPI after this step, rounded to 2 decimals. */
  cumulativeTotalBpi: number;
  isUnplayed: boolean;
  radarCategory: RadarCategory | null;
  isRadarStrength: boolean;
}

export interface OptimizationResult {
  steps: OptimizationStep[];
  currentTotalBpi: number;
  /** The effective target (after an auto-raise), unrounded. */
  targetTotalBpi: number;
  /** The asked target when it was raised; else null. */
  originalTargetTotalBpi: number | null;
  achievable: boolean;
  alreadyAchieved: boolean;
  totalSongCount: number;
  autoAdjustmentNote: string | null;
  /** When not achievable: the highest total reachable within maxSteps; else null. */
  maxAchievableBpi: number | null;
  /** Σ exScoreGap of the plan. */
  totalExScoreGap: number;
  /**
   * A proven lower bound on the EX any plan reaching the target needs (= totalExScoreGap when
   * provenOptimal). When the target is out of reach: the EX of the plan to the highest total.
   */
  exLowerBound: number;
  /** The plan is proven to need the least EX (the search completed). */
  provenOptimal: boolean;
}

export const MIN_BPI_GAIN = 0.5;
export const MIN_EX_GAIN = 5;
const CAP_RADAR_MARGIN = 3;
const CAP_TOTAL_MARGIN = 12;
const CAP_BASE_MARGIN = 5;
const MAX_BPI = 100;
const UNPLAYED_BPI = -15;
const RAISE_MULTIPLIER = 1.3;
const RAISE_MARGIN = 0.5;

export const raiseNote = (raised: number) => `指定された楽曲数ではより高い総合BPIが見込まれるため、自動的に目標総合BPIを${raised.toFixed(2)}へ引き上げました。`;
export const FALLBACK_NOTE = '選択された要素の楽曲のみでは目標に到達できなかったため、全楽曲から再探索しました。';

const defOf = (c: OptimizerChart): ChartDef => ({ notes: c.notes, kaidenAvg: c.kaidenAvg, wr: c.wr, coef: c.coef });

/** The chart's current BPI as the optimiser sees it: the best EX's BPI, −15 when unplayed. */
export function currentBpiOf(c: OptimizerChart): number {
  return c.exScore === null ? UNPLAYED_BPI : (safeBpi(c.exScore, defOf(c)) ?? UNPLAYED_BPI);
}

/** humanCap of §6.5 b with a fixed current total. */
export function humanCap(fromBpi: number, radarBpi: number | null, currentTotal: number, considerCurrentTotalBpi: boolean): number {
  const base = considerCurrentTotalBpi
    ? Math.min(MAX_BPI, radarBpi !== null ? Math.min(radarBpi + CAP_RADAR_MARGIN, currentTotal + CAP_TOTAL_MARGIN) : currentTotal + CAP_TOTAL_MARGIN)
    : MAX_BPI;
  return Math.min(MAX_BPI, Math.max(base, fromBpi + CAP_BASE_MARGIN));
}

/** The allowed new EX range [lo, hi] of a chart (empty when lo > hi), see the module comment. */
export function exRange(c: OptimizerChart, fromBpi: number, cap: number): { lo: number; hi: number } | null {
  const def = defOf(c);
  const m = c.notes * 2;
  const cur = c.exScore ?? 0;
  const capEx = exScoreForBpi(Math.min(cap, MAX_BPI), def);
  if (capEx === null || !(m > 0)) return null;
  const hi = Math.min(m, Math.max(capEx, cur + MIN_EX_GAIN));
  const half = firstEx(cur + 1, m, (e) => (safeBpi(e, def) ?? -Infinity) >= fromBpi + MIN_BPI_GAIN);
  const lo = Math.max(cur + 1, Math.min(cur + MIN_EX_GAIN, half ?? Infinity));
  return lo <= hi ? { lo, hi } : null;
}

/** The smallest e in [from, to] with ok(e) (ok monotone), or null. */
function firstEx(from: number, to: number, ok: (e: number) => boolean): number | null {
  if (from > to || !ok(to)) return null;
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

interface Candidate {
  chart: OptimizerChart;
  fromBpi: number;
  /** New EX of option j. */
  exOf(j: number): number;
  item: SolverItem;
}

/** contribution(b) for BPIs rounded to 2 decimals (calcBpi's values), memoised per plan. */
function contributionMemo(pm: PowerMean): (bpi: number) => number {
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

/**
 * The options of one candidate: new EX on the grid in [lo, hi] from the first that beats the
 * current BPI; option j = first + j·step. Gains are evaluated lazily by the solver.
 */
function candidateOptions(c: OptimizerChart, fromBpi: number, cap: number, contribution: (b: number) => number, step: number): Candidate | null {
  const range = exRange(c, fromBpi, cap);
  if (!range) return null;
  const def = defOf(c);
  const cur = c.exScore ?? 0;
  const fromC = contribution(fromBpi);
  // Below the first EX whose BPI beats fromBpi nothing is gained (e.g. the −15 floor of an unplayed chart).
  const rising = firstEx(range.lo, range.hi, (e) => (safeBpi(e, def) ?? -Infinity) > fromBpi);
  if (rising === null) return null;
  const first = Math.ceil(rising / step) * step;
  if (first > range.hi) return null;
  const size = Math.floor((range.hi - first) / step) + 1;
  const exOf = (j: number) => first + j * step;
  return {
    chart: c,
    fromBpi,
    exOf,
    item: {
      key: c.id,
      size,
      cost: (j) => exOf(j) - cur,
      // calcBpi is non-decreasing in the EX score, so gains are too (null never occurs past `rising`).
      gain: (j) => contribution(calcBpi(exOf(j), def) ?? fromBpi) - fromC,
    },
  };
}

const isEffectivelyUnplayed = (c: OptimizerChart, fromBpi: number) => c.exScore === null || fromBpi <= UNPLAYED_BPI;

/** The three strongest radar categories (ties: the category order NOTES, CHORD, PEAK, CHARGE, SCRATCH, SOFLAN). */
export function strongCategories(radar: RadarBpis | null): Set<RadarCategory> {
  if (!radar) return new Set();
  const withValue = RADAR_CATEGORIES.filter((c) => typeof radar[c] === 'number');
  withValue.sort((a, b) => radar[b]! - radar[a]! || RADAR_CATEGORIES.indexOf(a) - RADAR_CATEGORIES.indexOf(b));
  return new Set(withValue.slice(0, 3));
}

/**
 * The plan for one player. `charts` is the song set (N = charts.length) with the player's best EX
 * per chart; `radar` the player's radar values (caps, strong categories).
 */
export function optimizePlan(input: readonly OptimizerChart[], settings: OptimizeSettings, radar: RadarBpis | null, tuning: OptimizerTuning = {}): OptimizationResult {
  // By chart id: the plan must not depend on the order the charts arrive in (float sums do).
  const charts = [...input].sort((a, b) => a.id - b.id);
  const n = charts.length;
  const base = {
    originalTargetTotalBpi: null,
    autoAdjustmentNote: null,
    maxAchievableBpi: null,
    totalExScoreGap: 0,
    exLowerBound: 0,
    provenOptimal: true,
  };
  if (n === 0) {
    return { ...base, steps: [], currentTotalBpi: UNPLAYED_BPI, targetTotalBpi: settings.targetBpi, achievable: false, alreadyAchieved: false, totalSongCount: 0 };
  }
  const pm = new PowerMean(n);
  const fromBpis = charts.map(currentBpiOf);
  let initialSum = 0;
  for (const b of fromBpis) initialSum += pm.contribution(b);
  const initialTotal = pm.totalFromSum(initialSum);
  const currentTotalBpi = totalBpi(fromBpis, n);
  if (initialTotal >= settings.targetBpi) {
    return { ...base, steps: [], currentTotalBpi, targetTotalBpi: settings.targetBpi, achievable: true, alreadyAchieved: true, totalSongCount: n };
  }
  const strong = strongCategories(radar);
  const ctx: PlanContext = { charts, fromBpis, pm, initialSum, initialTotal, currentTotalBpi, settings, radar, strong, tuning };

  const radarFilter = settings.radarElements.size < RADAR_CATEGORIES.length;
  const first = planFor(ctx, radarFilter);
  if (!radarFilter || first.achievable) return first;
  const wide = planFor(ctx, false);
  const better = wide.achievable || (wide.maxAchievableBpi ?? -Infinity) > (first.maxAchievableBpi ?? -Infinity);
  if (!better) return first;
  return { ...wide, autoAdjustmentNote: FALLBACK_NOTE + (wide.autoAdjustmentNote ?? '') };
}

interface PlanContext {
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

function planFor(ctx: PlanContext, radarFilter: boolean): OptimizationResult {
  const { charts, fromBpis, pm, initialSum, initialTotal, settings, radar } = ctx;
  const step = Math.max(1, Math.floor(ctx.tuning.exStep ?? 1));

  // Candidates (§6.5 step 2).
  const candidateIdx: number[] = [];
  charts.forEach((c, i) => {
    if (radarFilter && (!c.radarCategory || !settings.radarElements.has(c.radarCategory))) return;
    const unplayed = isEffectivelyUnplayed(c, fromBpis[i]);
    if (!settings.strategies.has(unplayed ? 'unplayed' : 'played')) return;
    if (!settings.difficulties.has(c.difficulty)) return;
    candidateIdx.push(i);
  });

  // Target auto-raise (§6.5 step 4).
  let target = settings.targetBpi;
  let originalTargetTotalBpi: number | null = null;
  let autoAdjustmentNote: string | null = null;
  if (candidateIdx.length > 0 && settings.maxSteps > 1) {
    const minViable = Math.abs(pm.contribution(initialTotal + MIN_BPI_GAIN) - pm.contribution(initialTotal));
    const gap = pm.sumForBpi(target) - initialSum;
    if (gap > 0 && gap / settings.maxSteps < minViable) {
      const raised = Math.min(MAX_BPI, pm.totalFromSum(initialSum + minViable * settings.maxSteps * RAISE_MULTIPLIER));
      if (raised > target + RAISE_MARGIN) {
        originalTargetTotalBpi = target;
        target = raised;
        autoAdjustmentNote = raiseNote(raised);
      }
    }
  }

  // Options per candidate, caps from the player's current total.
  const candidates: Candidate[] = [];
  const contribution = contributionMemo(pm);
  for (const i of candidateIdx) {
    const c = charts[i];
    const radarBpi = c.radarCategory && radar && typeof radar[c.radarCategory] === 'number' ? radar[c.radarCategory]! : null;
    const cap = humanCap(fromBpis[i], radarBpi, ctx.tuning.capTotal ?? initialTotal, settings.considerCurrentTotalBpi);
    const cand = candidateOptions(c, fromBpis[i], cap, contribution, step);
    if (cand) candidates.push(cand);
  }
  const targetSum = pm.sumForBpi(target);
  // A hair above the exact gap so that float summation order can never leave the plan a ulp short.
  const need = targetSum - initialSum + Math.abs(targetSum) * 1e-12;
  const items = candidates.map((c) => c.item);
  const workLimit = ctx.tuning.workLimit ?? DEFAULT_WORK_LIMIT;
  let maxCount = settings.maxSteps;
  if (settings.searchMode === 'fastest') {
    const maxima = items.map((it) => it.gain(it.size - 1)).sort((a, b) => b - a);
    let acc = 0;
    for (let m = 1; m <= Math.min(maxima.length, settings.maxSteps); m++) {
      acc += maxima[m - 1];
      if (acc >= need) {
        maxCount = m;
        break;
      }
    }
  }
  const sol = solveMinCost(items, { need, maxCount, workLimit, dpLimit: ctx.tuning.dpLimit });
  return buildResult(ctx, candidates, sol, target, originalTargetTotalBpi, autoAdjustmentNote);
}

function buildResult(ctx: PlanContext, candidates: Candidate[], sol: SolveResult, target: number, originalTargetTotalBpi: number | null, autoAdjustmentNote: string | null): OptimizationResult {
  const { pm, initialSum, initialTotal, strong } = ctx;
  const chosen: { cand: Candidate; ex: number; toBpi: number; gain: number; cost: number }[] = [];
  candidates.forEach((cand, k) => {
    const j = sol.choice[k];
    if (j < 0) return;
    const ex = cand.exOf(j);
    chosen.push({ cand, ex, toBpi: calcBpi(ex, defOf(cand.chart))!, gain: cand.item.gain(j), cost: cand.item.cost(j) });
  });
  chosen.sort((a, b) => b.gain / b.cost - a.gain / a.cost || a.cand.chart.id - b.cand.chart.id);
  let sum = initialSum;
  let prevTotal = initialTotal;
  let totalEx = 0;
  const steps: OptimizationStep[] = chosen.map((s, k) => {
    sum += pm.contribution(s.toBpi) - pm.contribution(s.cand.fromBpi);
    const total = pm.totalFromSum(sum);
    const c = s.cand.chart;
    const step: OptimizationStep = {
      rank: k + 1,
      chartId: c.id,
      title: c.title,
      difficulty: c.difficulty,
      level: c.level,
      fromBpi: s.cand.fromBpi,
      toBpi: round2(s.toBpi),
      fromExScore: c.exScore,
      toExScore: s.ex,
      exScoreGap: s.cost,
      bpiGain: round2(total - prevTotal),
      cumulativeTotalBpi: round2(total),
      isUnplayed: s.cand.fromBpi <= UNPLAYED_BPI,
      radarCategory: c.radarCategory,
      isRadarStrength: c.radarCategory !== null && strong.has(c.radarCategory),
    };
    prevTotal = total;
    totalEx += s.cost;
    return step;
  });
  const achievable = sol.feasible;
  return {
    steps,
    currentTotalBpi: ctx.currentTotalBpi,
    targetTotalBpi: target,
    originalTargetTotalBpi,
    achievable,
    alreadyAchieved: false,
    totalSongCount: ctx.charts.length,
    autoAdjustmentNote,
    maxAchievableBpi: achievable ? null : round2(prevTotal),
    totalExScoreGap: totalEx,
    exLowerBound: sol.lowerBound,
    provenOptimal: sol.optimal,
  };
}
