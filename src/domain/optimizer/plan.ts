/**
 * "Which charts should I improve, and by how much, to reach total BPI X?" (issue #16) — one
 * deterministic plan with the least EX points asked, within the reference's per-chart realism caps.
 * Inputs and result shape follow docs/domain/optimizer.md#arguments; the search is src/domain/optimizer/solver.ts.
 *
 * Model (integer EX throughout; BPI from src/domain/bpi calcBpi, the total from its power mean):
 * - Song set = the charts passed in (the caller's total-BPI set: SP ☆12 with a definition,
 *   available in the version); N = their number; a chart's current BPI is the BPI of the player's
 *   best EX on it, −15 when unplayed (docs/domain/optimizer.md#the-plan).
 * - Candidates = charts passing the strategy (unplayed = no score or BPI ≤ −15, else played),
 *   difficulty and radar-element filters (docs/domain/optimizer.md#arguments; the radar filter is
 *   active when fewer than all six elements are selected, and a chart without a category then
 *   never qualifies).
 * - A candidate's new EX e is its current EX c (unchanged) or an integer in [lo, hi]:
 *   lo = the smaller of c + 5 and the first EX that gains +0.5 BPI (the reference keeps a step when
 *   either holds, docs/domain/optimizer.md#the-plan); hi = min(2·notes, max(⌈EX for humanCap⌉, c + 5))
 *   with humanCap (docs/domain/optimizer.md#caps):
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
 * - Target auto-raise as the reference, and the radar-filter fallback
 *   (docs/domain/optimizer.md#target-raise-and-fallback): when the filtered charts cannot reach
 *   the target, the plan over all candidates is taken if it reaches it or a higher total (the
 *   reference: if it reaches it or has more steps), with its note first.
 * - Unreachable target: the plan reaching the highest total within maxSteps (each of the charts
 *   with the largest possible gains at its cap; with scheduled caps, the highest the search finds),
 *   achievable = false, maxAchievableBpi = that total.
 * - Steps ordered in batches: the steps that fit their caps at the current total, by total-BPI
 *   gain per EX point, descending (ties: chart id), then the next batch at the new total; bpiGain
 *   is the total-BPI increase of the step in that order, cumulativeTotalBpi the total after it
 *   (the real total: the reference overwrites the last one with the target).
 *
 * Files: plan-types.ts (input and result), plan-caps.ts (the per-chart caps and minimum gain),
 * plan-candidates.ts (candidates and their solver items), plan-schedule.ts (step order, the search
 * through the caps' total, the result); this file builds a plan from them.
 */
import { calcBpi, totalBpi } from '../bpi';
import { RADAR_CATEGORIES } from '../constants';
import { PowerMean } from './math';
import {
  currentBpiOf,
  defOf,
  FALLBACK_NOTE,
  MAX_BPI,
  MIN_BPI_GAIN,
  RAISE_MARGIN,
  RAISE_MULTIPLIER,
  raiseNote,
  UNPLAYED_BPI,
} from './plan-caps';
import {
  candidateOf,
  contributionMemo,
  exOf,
  isEffectivelyUnplayed,
  itemAt,
  strongCategories,
  type Candidate,
  type PlanContext,
} from './plan-candidates';
import { buildResult, schedule, scheduledSearch, type Attempt, type Chosen } from './plan-schedule';
import {
  CAP_SEARCH_STEPS,
  type OptimizationResult,
  type OptimizerTuning,
  type RadarBpis,
  type OptimizerChart,
} from './plan-types';
import { DEFAULT_WORK_LIMIT, solveMinCost, type SolverItem } from './solver';
import type { OptimizeSettings } from './input';

export {
  capEx,
  currentBpiOf,
  exLow,
  exRange,
  FALLBACK_NOTE,
  humanCap,
  MIN_BPI_GAIN,
  MIN_EX_GAIN,
  raiseNote,
} from './plan-caps';
export { strongCategories } from './plan-candidates';
export * from './plan-types';

/**
 * The plan for one player. `charts` is the song set (N = charts.length) with the player's best EX
 * per chart; `radar` the player's radar values (caps, strong categories).
 */
export function optimizePlan(
  input: readonly OptimizerChart[],
  settings: OptimizeSettings,
  radar: RadarBpis | null,
  tuning: OptimizerTuning = {},
): OptimizationResult {
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
    return {
      ...base,
      steps: [],
      currentTotalBpi: UNPLAYED_BPI,
      targetTotalBpi: settings.targetBpi,
      achievable: false,
      alreadyAchieved: false,
      totalSongCount: 0,
      capTotalBpi: UNPLAYED_BPI,
    };
  }
  const pm = new PowerMean(n);
  const fromBpis = charts.map(currentBpiOf);
  let initialSum = 0;
  for (const b of fromBpis) initialSum += pm.contribution(b);
  const initialTotal = pm.totalFromSum(initialSum);
  const currentTotalBpi = totalBpi(fromBpis, n);
  if (initialTotal >= settings.targetBpi) {
    return {
      ...base,
      steps: [],
      currentTotalBpi,
      targetTotalBpi: settings.targetBpi,
      achievable: true,
      alreadyAchieved: true,
      totalSongCount: n,
      capTotalBpi: initialTotal,
    };
  }
  const strong = strongCategories(radar);
  // The time budget latches: once spent, every later solve stops at once, and the plan is not proven optimal.
  let stopped = false;
  const ask = tuning.shouldStop;
  const latched = ask ? { ...tuning, shouldStop: () => stopped || (stopped = ask()) } : tuning;
  const ctx: PlanContext = {
    charts,
    fromBpis,
    pm,
    initialSum,
    initialTotal,
    currentTotalBpi,
    settings,
    radar,
    strong,
    tuning: latched,
  };

  const radarFilter = settings.radarElements.size < RADAR_CATEGORIES.length;
  const unproven = (r: OptimizationResult): OptimizationResult => (stopped ? { ...r, provenOptimal: false } : r);
  const first = planFor(ctx, radarFilter);
  if (!radarFilter || first.achievable) return unproven(first);
  const wide = planFor(ctx, false);
  const better = wide.achievable || (wide.maxAchievableBpi ?? -Infinity) > (first.maxAchievableBpi ?? -Infinity);
  if (!better) return unproven(first);
  return unproven({ ...wide, autoAdjustmentNote: FALLBACK_NOTE + (wide.autoAdjustmentNote ?? '') });
}

function planFor(ctx: PlanContext, radarFilter: boolean): OptimizationResult {
  const { charts, fromBpis, pm, initialSum, initialTotal, settings, radar } = ctx;
  const step = Math.max(1, Math.floor(ctx.tuning.exStep ?? 1));

  // Candidates (docs/domain/optimizer.md#arguments).
  const candidateIdx: number[] = [];
  charts.forEach((c, i) => {
    if (radarFilter && (!c.radarCategory || !settings.radarElements.has(c.radarCategory))) return;
    const unplayed = isEffectivelyUnplayed(c, fromBpis[i]);
    if (!settings.strategies.has(unplayed ? 'unplayed' : 'played')) return;
    if (!settings.difficulties.has(c.difficulty)) return;
    candidateIdx.push(i);
  });

  // Target auto-raise (docs/domain/optimizer.md#target-raise-and-fallback).
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
    const radarBpi =
      c.radarCategory && radar && typeof radar[c.radarCategory] === 'number' ? radar[c.radarCategory]! : null;
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
    const sol = solveMinCost(items, {
      need,
      maxCount,
      workLimit: ctx.tuning.workLimit ?? DEFAULT_WORK_LIMIT,
      dpLimit: ctx.tuning.dpLimit,
      shouldStop: ctx.tuning.shouldStop,
    });
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
  else
    best = scheduledSearch(
      initialTotal,
      Math.max(initialTotal, target),
      solveAt,
      ctx.tuning.capSearchSteps ?? CAP_SEARCH_STEPS,
      settings.searchMode === 'fastest',
    );
  return buildResult(ctx, best, target, originalTargetTotalBpi, autoAdjustmentNote);
}
