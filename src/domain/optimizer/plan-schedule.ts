/**
 * A plan's steps in the order the reference's rule allows (src/domain/optimizer/plan.ts): the
 * schedule of one solution, the search through the total the caps are computed from, and the
 * result built from the best attempt.
 */
import { round2 } from '../bpi';
import { UNPLAYED_BPI } from './plan-caps';
import { hiAt, type Candidate, type PlanContext } from './plan-candidates';
import type { OptimizationResult, OptimizationStep } from './plan-types';
import type { SolveResult } from './solver';

export interface Chosen {
  cand: Candidate;
  ex: number;
  toBpi: number;
  cost: number;
}

export interface Attempt {
  capTotal: number;
  sol: SolveResult;
  /** The steps in the order the plan presents them. */
  ordered: Chosen[];
  /** null when every step fits the cap at the total reached before it; else the total where none of the rest fits. */
  stuckAt: number | null;
}

/**
 * The reference's rule (docs/domain/optimizer.md#caps): a step's cap is computed from the total
 * reached before it. Steps are applied in batches: every remaining step that fits the cap at the
 * current total (by total gain per EX, ties by chart id), then the total is updated. Stuck when
 * none fits.
 */
export function schedule(ctx: PlanContext, chosen: Chosen[]): { ordered: Chosen[]; stuckAt: number | null } {
  const { pm } = ctx;
  const gainOf = (s: Chosen) => pm.contribution(s.toBpi) - pm.contribution(s.cand.fromBpi);
  let pending = [...chosen].sort(
    (a, b) => gainOf(b) / b.cost - gainOf(a) / a.cost || a.cand.chart.id - b.cand.chart.id,
  );
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
export function scheduledSearch(
  current: number,
  top: number,
  solveAt: (capTotal: number) => Attempt,
  steps: number,
  fastest: boolean,
): Attempt {
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

/** The result of the best attempt: its steps in order, with the total-BPI gain and running total of each. */
export function buildResult(
  ctx: PlanContext,
  best: Attempt,
  target: number,
  originalTargetTotalBpi: number | null,
  autoAdjustmentNote: string | null,
): OptimizationResult {
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
