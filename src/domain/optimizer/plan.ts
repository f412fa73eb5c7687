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
 *   when considerCurrentTotalBpi is false. The cost of a change is e − c EX points (an unplayed
 *   chart counts from 0, as the reference's exScoreGap); its gain is the change in the chart's
 *   contribution to the power sum.
 * - T, "the current total": the reference recomputes it as its plan proceeds, so a step's cap comes
 *   from the total reached before it. We keep that rule (caps: `scheduled`, the default): the steps
 *   are presented in an order in which each fits the cap at the total reached before it, so every
 *   plan is within the reference's limits. The search goes through the total the caps are computed
 *   from: the least-EX plan within caps at total T (exact, solver.ts) is kept when its steps can be
 *   ordered that way; T = the target total first, then a bisection between the player's current
 *   total (always orderable: every step fits from the start) and the target (≤ 7 solves). Measured
 *   (bench/optimizer.ts): about half the EX of caps fixed at the player's current total, and
 *   targets reached that those caps cannot reach. `current` (caps from the player's current total
 *   for every step) is the conservative variant, exact for its caps; `target` exceeds the
 *   reference's limits and is for measurement only. provenOptimal / exLowerBound refer to the caps
 *   at capTotalBpi.
 * - flexible (default): the least total EX with at most maxSteps charts changed.
 *   fastest: the fewest charts that can reach the target (each at most to its cap), and among the
 *   plans with that many charts the least total EX.
 * - Target auto-raise (§6.5 step 4) as the reference. Radar-filter fallback (§6.6): when the
 *   filtered charts cannot reach the target, the plan over all candidates is taken if it reaches
 *   it or a higher total (the reference: if it reaches it or has more steps), with its note first.
 * - Unreachable target: the plan reaching the highest total within maxSteps (each of the charts
 *   with the largest possible gains at its cap; with scheduled caps, the highest the search finds),
 *   achievable = false, maxAchievableBpi = that total.
 * - Steps ordered in batches: the steps that fit their caps at the current total, by total-BPI
 *   gain per EX point, descending (ties: chart id), then the next batch at the new total; bpiGain
 *   is the total-BPI increase of the step in that order, cumulativeTotalBpi the total after it
 *   (the real total: the reference overwrites the last one with the target).
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
   * The caller's time budget (solver.ts SolveOptions.shouldStop): once true, every search stops with
   * the best plan found so far and the result says `provenOptimal: false`.
   */
  shouldStop?: () => boolean;
  /**
   * How the caps' "current total" is taken (see the module comment): `scheduled` (default) — the
   * total reached before each step, as the reference; `current` — the player's current total for
   * every step (static; the least EX within those caps is exact); `target` — the target total for
   * every step (more than the reference allows; for measurement only).
   */
  caps?: CapMode;
  /** Bisection steps of the scheduled-caps search (default CAP_SEARCH_STEPS). */
  capSearchSteps?: number;
}

export type CapMode = 'scheduled' | 'current' | 'target';

/** Bisection steps of the scheduled-caps search (solves: 1 + this + 1 at most). */
export const CAP_SEARCH_STEPS = 5;

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
   * A proven lower bound on the EX a plan reaching the target needs within the caps computed from
   * capTotalBpi (= totalExScoreGap when provenOptimal). When the target is out of reach: the EX of
   * the plan to the highest total.
   */
  exLowerBound: number;
  /** The plan is proven to need the least EX within the caps computed from capTotalBpi. */
  provenOptimal: boolean;
  /** The total BPI the caps of the final search were computed from (unrounded). */
  capTotalBpi: number;
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

/** The highest new EX a cap allows: min(2·notes, max(⌈EX for the cap⌉, current + 5)); null without a definition. */
export function capEx(c: OptimizerChart, cap: number): number | null {
  const m = c.notes * 2;
  const ex = exScoreForBpi(Math.min(cap, MAX_BPI), defOf(c));
  if (ex === null || !(m > 0)) return null;
  return Math.min(m, Math.max(ex, (c.exScore ?? 0) + MIN_EX_GAIN));
}

/** The lowest new EX the minimum-gain rule allows: the smaller of +5 EX and the first EX gaining +0.5 BPI. */
export function exLow(c: OptimizerChart, fromBpi: number): number {
  const def = defOf(c);
  const cur = c.exScore ?? 0;
  const half = firstEx(cur + 1, c.notes * 2, (e) => (safeBpi(e, def) ?? -Infinity) >= fromBpi + MIN_BPI_GAIN);
  return Math.max(cur + 1, Math.min(cur + MIN_EX_GAIN, half ?? Infinity));
}

/** The allowed new EX range [lo, hi] of a chart under a cap (null when empty), see the module comment. */
export function exRange(c: OptimizerChart, fromBpi: number, cap: number): { lo: number; hi: number } | null {
  const hi = capEx(c, cap);
  if (hi === null) return null;
  const lo = exLow(c, fromBpi);
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

/** A candidate chart, independent of the caps: its options are EX = first + j·step up to a cap's EX. */
interface Candidate {
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

const exOf = (cand: Candidate, j: number) => cand.first + j * cand.step;

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

function candidateOf(c: OptimizerChart, fromBpi: number, radarBpi: number | null, contribution: (b: number) => number, step: number): Candidate | null {
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
function hiAt(ctx: PlanContext, cand: Candidate, total: number): number {
  return capEx(cand.chart, humanCap(cand.fromBpi, cand.radarBpi, total, ctx.settings.considerCurrentTotalBpi)) ?? -1;
}

/** The solver item of a candidate under the caps at a given total (null when no option fits). */
function itemAt(ctx: PlanContext, cand: Candidate, total: number): SolverItem | null {
  const hi = hiAt(ctx, cand, total);
  if (cand.first > hi) return null;
  const cur = cand.chart.exScore ?? 0;
  return { key: cand.chart.id, size: Math.floor((hi - cand.first) / cand.step) + 1, cost: (j) => exOf(cand, j) - cur, gain: cand.gain, gainMemo: cand.gains };
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
    capTotalBpi: 0,
    originalTargetTotalBpi: null,
    autoAdjustmentNote: null,
    maxAchievableBpi: null,
    totalExScoreGap: 0,
    exLowerBound: 0,
    provenOptimal: true,
  };
  if (n === 0) {
    return { ...base, steps: [], currentTotalBpi: UNPLAYED_BPI, targetTotalBpi: settings.targetBpi, achievable: false, alreadyAchieved: false, totalSongCount: 0, capTotalBpi: UNPLAYED_BPI };
  }
  const pm = new PowerMean(n);
  const fromBpis = charts.map(currentBpiOf);
  let initialSum = 0;
  for (const b of fromBpis) initialSum += pm.contribution(b);
  const initialTotal = pm.totalFromSum(initialSum);
  const currentTotalBpi = totalBpi(fromBpis, n);
  if (initialTotal >= settings.targetBpi) {
    return { ...base, steps: [], currentTotalBpi, targetTotalBpi: settings.targetBpi, achievable: true, alreadyAchieved: true, totalSongCount: n, capTotalBpi: initialTotal };
  }
  const strong = strongCategories(radar);
  // The time budget latches: once spent, every later solve stops at once, and the plan is not proven optimal.
  let stopped = false;
  const ask = tuning.shouldStop;
  const latched = ask ? { ...tuning, shouldStop: () => stopped || (stopped = ask()) } : tuning;
  const ctx: PlanContext = { charts, fromBpis, pm, initialSum, initialTotal, currentTotalBpi, settings, radar, strong, tuning: latched };

  const radarFilter = settings.radarElements.size < RADAR_CATEGORIES.length;
  const unproven = (r: OptimizationResult): OptimizationResult => (stopped ? { ...r, provenOptimal: false } : r);
  const first = planFor(ctx, radarFilter);
  if (!radarFilter || first.achievable) return unproven(first);
  const wide = planFor(ctx, false);
  const better = wide.achievable || (wide.maxAchievableBpi ?? -Infinity) > (first.maxAchievableBpi ?? -Infinity);
  if (!better) return unproven(first);
  return unproven({ ...wide, autoAdjustmentNote: FALLBACK_NOTE + (wide.autoAdjustmentNote ?? '') });
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

  const contribution = contributionMemo(pm);
  const candidates: Candidate[] = [];
  for (const i of candidateIdx) {
    const c = charts[i];
    const radarBpi = c.radarCategory && radar && typeof radar[c.radarCategory] === 'number' ? radar[c.radarCategory]! : null;
    const cand = candidateOf(c, fromBpis[i], radarBpi, contribution, step);
    if (cand) candidates.push(cand);
  }
  const targetSum = pm.sumForBpi(target);
  // A hair above the exact gap so that float summation order can never leave the plan a ulp short.
  const need = targetSum - initialSum + Math.abs(targetSum) * 1e-12;

  /** The least-EX plan within the caps at `capTotal`, its steps in an order the reference's rule allows if there is one. */
  const solveAt = (capTotal: number): Attempt => {
    const used: Candidate[] = [];
    const items: SolverItem[] = [];
    for (const cand of candidates) {
      const item = itemAt(ctx, cand, capTotal);
      if (!item) continue;
      used.push(cand);
      items.push(item);
    }
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
    const sol = solveMinCost(items, { need, maxCount, workLimit: ctx.tuning.workLimit ?? DEFAULT_WORK_LIMIT, dpLimit: ctx.tuning.dpLimit, shouldStop: ctx.tuning.shouldStop });
    const chosen: Chosen[] = [];
    used.forEach((cand, k) => {
      const j = sol.choice[k];
      if (j < 0) return;
      const ex = exOf(cand, j);
      chosen.push({ cand, ex, toBpi: calcBpi(ex, defOf(cand.chart))!, cost: items[k].cost(j) });
    });
    return { capTotal, sol, ...schedule(ctx, chosen) };
  };

  let best: Attempt;
  const mode = settings.considerCurrentTotalBpi ? (ctx.tuning.caps ?? 'scheduled') : 'current';
  if (mode === 'current') best = solveAt(initialTotal);
  else if (mode === 'target') best = solveAt(Math.max(initialTotal, target));
  else best = scheduledSearch(initialTotal, Math.max(initialTotal, target), solveAt, ctx.tuning.capSearchSteps ?? CAP_SEARCH_STEPS, settings.searchMode === 'fastest');
  return buildResult(ctx, best, target, originalTargetTotalBpi, autoAdjustmentNote);
}

interface Chosen {
  cand: Candidate;
  ex: number;
  toBpi: number;
  cost: number;
}

interface Attempt {
  capTotal: number;
  sol: SolveResult;
  /** The steps in the order the plan presents them. */
  ordered: Chosen[];
  /** null when every step fits the cap at the total reached before it; else the total where none of the rest fits. */
  stuckAt: number | null;
}

/**
 * The reference's rule (§6.5 b): a step's cap is computed from the total reached before it. Steps
 * are applied in batches: every remaining step that fits the cap at the current total (by total
 * gain per EX, ties by chart id), then the total is updated. Stuck when none fits.
 */
function schedule(ctx: PlanContext, chosen: Chosen[]): { ordered: Chosen[]; stuckAt: number | null } {
  const { pm } = ctx;
  const gainOf = (s: Chosen) => pm.contribution(s.toBpi) - pm.contribution(s.cand.fromBpi);
  let pending = [...chosen].sort((a, b) => gainOf(b) / b.cost - gainOf(a) / a.cost || a.cand.chart.id - b.cand.chart.id);
  const ordered: Chosen[] = [];
  let sum = ctx.initialSum;
  while (pending.length > 0) {
    const total = pm.totalFromSum(sum);
    const fits = pending.filter((s) => s.ex <= hiAt(ctx, s.cand, total));
    if (fits.length === 0) return { ordered: [...ordered, ...pending], stuckAt: total };
    for (const s of fits) {
      ordered.push(s);
      sum += gainOf(s);
    }
    pending = pending.filter((s) => !fits.includes(s));
  }
  return { ordered, stuckAt: null };
}

/**
 * a is better than b: it reaches the target where b does not; both reaching it, fewer steps
 * (fastest only) then less EX; neither reaching it, a higher total.
 */
function better(a: Attempt, b: Attempt, fastest: boolean): boolean {
  if (a.sol.feasible !== b.sol.feasible) return a.sol.feasible;
  if (!a.sol.feasible) return a.sol.gain > b.sol.gain;
  if (fastest && a.sol.count !== b.sol.count) return a.sol.count < b.sol.count;
  return a.sol.cost < b.sol.cost;
}

/**
 * Caps from the total reached before each step (the reference's rule), searched through the total
 * the caps are computed from: a plan within caps at total T is kept when its steps can be ordered
 * so that each fits the cap at the total reached before it. Caps at the target total first; if that
 * plan cannot be ordered, bisection on T between the player's current total (whose plan always can
 * be ordered: every step fits from the start) and the target total, keeping the best orderable plan.
 */
function scheduledSearch(current: number, top: number, solveAt: (capTotal: number) => Attempt, steps: number, fastest: boolean): Attempt {
  const first = solveAt(top);
  if (first.stuckAt === null) return first;
  let best: Attempt | null = null;
  let lo = current;
  let hi = top;
  for (let k = 0; k < steps; k++) {
    const mid = (lo + hi) / 2;
    const a = solveAt(mid);
    if (a.stuckAt === null) {
      if (!best || better(a, best, fastest)) best = a;
      lo = mid;
    } else hi = mid;
  }
  const fallback = solveAt(current);
  return best && !better(fallback, best, fastest) ? best : fallback;
}


function buildResult(ctx: PlanContext, best: Attempt, target: number, originalTargetTotalBpi: number | null, autoAdjustmentNote: string | null): OptimizationResult {
  const { pm, initialSum, initialTotal, strong } = ctx;
  const { sol } = best;
  const chosen = best.ordered;
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
    capTotalBpi: best.capTotal,
  };
}
