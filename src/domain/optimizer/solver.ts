/**
 * Minimum-cost covering with one choice per item and a cardinality limit — the optimisation behind
 * the BPI plan (src/domain/optimizer/plan.ts), free of BPI so it can be tested on its own.
 *
 * Problem. Items i (charts) each offer options j (new EX scores) with an integer cost c_ij > 0
 * (EX points asked), increasing in j, and a gain g_ij > 0 (increase of the total-BPI power sum),
 * non-decreasing in j; "unchanged" costs and gains 0. Choose at most one option per item and at
 * most M items (maxSteps) so that Σ g ≥ R (the sum still missing to the target), minimising Σ c.
 * A multiple-choice knapsack in covering form (NP-hard). A chart's gain is not concave in its EX
 * score (the contribution is |BPI|^K, K = log2 N ≈ 9), so the reference's marginal greedy — pick
 * the best contribution per EX point, raise it, repeat — is not optimal, and its randomised variant
 * (docs/domain/optimizer.md#the-plan) is not repeatable.
 *
 * Method (deterministic; ties broken by item key = chart id, then option index):
 * 1. Feasibility: the largest reachable gain is the sum of the M largest per-item maxima; below R
 *    the answer is that "max plan" (each of those items at its last option).
 * 2. Lagrangian relaxation. Per item, the upper convex hull of its (cost, gain) points from the
 *    origin. Relaxing the covering constraint with λ ≥ 0 and the cardinality with μ ≥ 0 gives
 *      L(λ, μ) = λR − μM + Σ_i min(0, min_j (c_ij + μ − λ g_ij)),
 *    a lower bound on the optimal cost for every λ, μ ≥ 0 (weak duality). For a fixed μ the best λ
 *    comes from the LP relaxation (hull segments by gain per cost, filled greedily up to R; λ = cost
 *    per gain of the segment that closes R); μ by bisection on the subgradient (items used − M).
 *    Options are evaluated lazily (a gain costs a BPI evaluation): an item with many options is
 *    first seen through optimistic block points (the cost of a block's first option with the gain
 *    of its last one — a concave majorant, so every bound stays valid) and refined to its exact
 *    options when the LP puts weight on it.
 * 3. A first solution: walk the LP's segments in order (respecting M) and, at the segment that
 *    would close R, take the cheapest exact repair — the item (new, or one already chosen raised
 *    further) whose smallest option closing the rest costs least (binary search on its gains;
 *    integer EX, no rounding games). Then a local search: spend surplus gain where it saves most,
 *    drop one item and re-close elsewhere. When the count binds (μ* > 0) the walk is also tried at
 *    larger μ; the cheapest result is the incumbent, cost U.
 * 4. Reduced-cost fixing: an option whose Lagrangian bound L* + (c_ij + μ − λ g_ij − b_i) exceeds
 *    U − 1 cannot be in a cheaper solution (integer costs) and is dropped (whole blocks at once
 *    through their optimistic point); most items keep only "unchanged" and a few cheap options.
 * 5. A dynamic programme over the integer cost on the options left (per number of items used when
 *    the count binds), each state pruned by Lagrangian bounds of its completion — at λ* and at
 *    a few larger λ (DP_BOUND_FACTORS: the items late in the order are the less efficient ones,
 *    for which λ* is loose) —, by reach (the largest kept gains of the items left, at most as many
 *    as the count still allows: topGains) and by dominance (a cheaper state of the same layer with
 *    at least as much gain), so only a narrow window of costs stays alive. Exact: its answer is
 *    the optimum (`optimal`, `lowerBound` = cost), or proves the incumbent optimal when no state
 *    reaches R below U. A bound only ever drops states no choice below the cap passes through, so
 *    the bounds change the work, never the answer (same optimum, same tie-breaks).
 * 6. Only if the DP exceeds its work budget: depth-first branch-and-bound over the items left,
 *    children in order of their bound (the Lagrangian bound at (λ*, μ*), O(1) per node), an option
 *    that closes R ending its branch, within a node budget. Both budgets count work, never time,
 *    so the answer is deterministic. When the search does not complete, `lowerBound` (⌈L*⌉, or the
 *    count-free DP's optimum) tells how far from optimal the answer can be.
 *
 * Files, one per step: solver-items.ts (the items as the solver sees them, the problem),
 * solver-heuristic.ts (1 and 3), solver-relaxation.ts (2), solver-fixing.ts (4), solver-dp.ts (5),
 * solver-bnb.ts (6); this file runs them in order.
 */
import { branchAndBound } from './solver-bnb';
import { dpSolve, type DpLimits } from './solver-dp';
import { createFixing, type Fixed } from './solver-fixing';
import { firstSolution, maxPlanOf } from './solver-heuristic';
import { choiceTotals, EPS, ItemView, type Problem, type SolverItem } from './solver-items';
import { createRelaxation } from './solver-relaxation';

export { suffixLagrangian, topGains } from './solver-dp';
export { explicitItem, upperHull, type SolverItem } from './solver-items';

export interface SolveOptions {
  /** The gain to reach (R). */
  need: number;
  /** At most this many items may change (M). */
  maxCount: number;
  /** Node budget of the branch-and-bound (the deterministic stand-in for a time limit). */
  workLimit?: number;
  /** Work budget of the dynamic programme (state × option updates); 0 skips it. */
  dpLimit?: number;
  /** The DP's further completion bounds, as multiples of λ* (default DP_BOUND_FACTORS; [] = λ* alone). */
  dpBoundFactors?: readonly number[];
  /**
   * Asked between DP layers and every 1,024 branch-and-bound nodes: true stops the search there as a
   * spent budget would (the best choice so far, `optimal` false). The caller's time budget.
   */
  shouldStop?: () => boolean;
}

export interface SolveResult {
  /** false: R is out of reach; `choice` is then the plan with the largest gain (the max plan). */
  feasible: boolean;
  /** Option index per item, −1 = unchanged. */
  choice: Int32Array;
  cost: number;
  gain: number;
  count: number;
  /** A proven lower bound on the optimal cost (an integer); = cost when `optimal`. */
  lowerBound: number;
  optimal: boolean;
  /** Branch-and-bound nodes visited. */
  work: number;
  /** Gains evaluated (the expensive part). */
  evaluations: number;
  /** Cost of the heuristic solution (step 3) before the branch-and-bound; diagnostics. */
  heuristicCost: number;
  /** Items left to the branch-and-bound after reduced-cost fixing; diagnostics. */
  freeItems: number;
  /** Work of the dynamic programme (state × option updates, all passes); diagnostics. */
  dpWork: number;
}

export const DEFAULT_WORK_LIMIT = 50_000;
/** Work budget of the dynamic programme (option × state updates, both passes together). */
export const DEFAULT_DP_LIMIT = 60_000_000;
/**
 * The DP's further completion bounds: Lagrangian bounds of the items left at these multiples of λ*
 * (step 5). Measured on the bench's slow players (bench/optimizer-time.ts): DP work ÷ 4.7; factors
 * below 1 pruned nothing there.
 */
export const DP_BOUND_FACTORS: readonly number[] = [1.1, 1.25, 1.5, 2, 3, 5, 8];

export function solveMinCost(items: readonly SolverItem[], opts: SolveOptions): SolveResult {
  const n = items.length;
  const need = opts.need;
  const M = Math.max(0, Math.min(opts.maxCount, n));
  const workLimit = opts.workLimit ?? DEFAULT_WORK_LIMIT;
  const stop = opts.shouldStop ?? (() => false);
  const limits: DpLimits = {
    dpLimit: opts.dpLimit ?? DEFAULT_DP_LIMIT,
    dpBoundFactors: opts.dpBoundFactors ?? DP_BOUND_FACTORS,
    stop,
  };
  const counter = { evaluations: 0 };
  const views = items.map((it) => new ItemView(it, counter));
  const p: Problem = { items, views, n, need, M };
  const summary = (ch: Int32Array) => choiceTotals(views, ch);
  const diag = { heuristicCost: 0, freeItems: 0 };
  const dp = { dpWork: 0 };
  const done = (
    feasible: boolean,
    ch: Int32Array,
    lowerBound: number | null,
    optimal: boolean,
    work: number,
  ): SolveResult => {
    const s = summary(ch);
    return {
      feasible,
      choice: ch,
      ...s,
      lowerBound: lowerBound ?? s.cost,
      optimal,
      work,
      evaluations: counter.evaluations,
      ...diag,
      dpWork: dp.dpWork,
    };
  };
  if (need <= 0) return done(true, new Int32Array(n).fill(-1), 0, true, 0);

  // 1. Feasibility: the M largest maxima.
  const { top, maxPlan } = maxPlanOf(p);
  if (top < need) return done(false, maxPlan(), null, true, 0);

  // 2. The Lagrangian dual, refining the items the LP leans on.
  const relaxation = createRelaxation(p);
  const { lp, dual } = relaxation.solve();
  const { mu, lStar } = dual;

  // 3. An integral solution from the LP, closed exactly, then improved locally.
  const inc = firstSolution(p, relaxation, lp, mu, maxPlan);
  const best = inc.best;
  diag.heuristicCost = inc.U;

  // 4.–6. Fixing, DP and (as a fallback) branch-and-bound, for a cap: look for a choice costing at
  //    most cap − 1. Run as a ladder of caps between L* and U: a pass that finds nothing proves the
  //    optimum ≥ its cap (the reported bound rises); a pass that finds a choice has found the
  //    optimum; low caps are cheap, as fixing then leaves few options.
  const fix = createFixing(p, dual);
  let lowerBound = Math.max(0, Math.ceil(lStar - EPS));
  let proven = inc.U <= lowerBound;
  let lastFixed: Fixed | null = null;
  let lastCap = -1;
  if (!proven) {
    const U = inc.U;
    const gap = U - lStar;
    const caps = [
      ...new Set([
        ...[1 / 16, 1 / 8, 1 / 4, 3 / 8, 1 / 2, 3 / 4]
          .map((x) => Math.ceil(lStar + x * gap))
          .filter((c) => c > lowerBound && c < U),
        U,
      ]),
    ];
    for (const cap of caps) {
      const f = fix(cap, U);
      lastFixed = f;
      lastCap = cap;
      if (f.impossible) {
        lowerBound = cap; // nothing below the cap
        if (cap === U) proven = true;
        continue;
      }
      if (limits.dpLimit <= 0 || cap < 1) break;
      let r = dpSolve(p, dual, f, cap, mu > 0, limits, dp);
      if (r.status === 'found' && r.used > M) {
        lowerBound = Math.max(lowerBound, r.cost); // the least cost without the count limit bounds the one with it
        r = dpSolve(p, dual, f, cap, true, limits, dp);
      }
      if (r.status === 'found') {
        best.set(r.choice);
        inc.U = r.cost;
        proven = true;
        break;
      }
      if (r.status === 'aborted') break;
      lowerBound = cap; // no choice costs less than the cap
      if (cap === U) proven = true; // …and the incumbent costs U
    }
  }
  diag.freeItems = lastFixed ? lastFixed.free.length : 0;

  // 6. Branch-and-bound over the items left (only when the DP ran out of budget).
  let work = 0;
  if (!proven) {
    const f = lastFixed && lastCap === inc.U ? lastFixed : fix(inc.U, inc.U);
    if (f.impossible) proven = true;
    else {
      const r = branchAndBound(p, dual, f, inc, workLimit, stop);
      work = r.work;
      if (!r.aborted) proven = true;
    }
  }
  const final = summary(best);
  return done(true, best, proven ? final.cost : Math.min(final.cost, lowerBound), proven, work);
}
