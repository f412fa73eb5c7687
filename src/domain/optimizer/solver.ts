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
 * (domain-stats.md §6.5) is not repeatable.
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
 */

export interface SolverItem {
  /** Tie-break key (the chart id); smaller first. */
  key: number;
  /** Number of options (0 = the item cannot change). */
  size: number;
  /** Cost of option j: an integer > 0, increasing in j. Cheap. */
  cost(j: number): number;
  /** Gain of option j: > 0, non-decreasing in j. May be expensive; the solver asks for few. */
  gain(j: number): number;
  /**
   * Optional memo of gain(j) (NaN = not computed yet; length ≥ size), which the solver fills and
   * reads instead of its own: an item solved again (the plan's successive solves) keeps its gains.
   */
  gainMemo?: Float64Array;
}

/** An item from explicit arrays (tests, small inputs). */
export function explicitItem(key: number, costs: readonly number[], gains: readonly number[]): SolverItem {
  return { key, size: costs.length, cost: (j) => costs[j], gain: (j) => gains[j] };
}

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
/** Items with more options than this start as optimistic blocks. */
const EXACT_SIZE = 96;
const BLOCKS = 48;
const EPS = 1e-7;
/** Work budget of the dynamic programme (option × state updates, both passes together). */
export const DEFAULT_DP_LIMIT = 60_000_000;
/**
 * The DP's further completion bounds: Lagrangian bounds of the items left at these multiples of λ*
 * (step 5). Measured on the bench's slow players (bench/optimizer-time.ts): DP work ÷ 4.7; factors
 * below 1 pruned nothing there.
 */
export const DP_BOUND_FACTORS: readonly number[] = [1.1, 1.25, 1.5, 2, 3, 5, 8];

/**
 * Suffix sums of Lagrangian item values, one row per λ in `lambdas`: row k, entry d =
 * Σ_{t ≥ d} min over item t's options (and 0 when it may stay unchanged) of cost + μ − λ_k·gain.
 * With r still missing and m items still allowed, C + λ_k·r − μ·m + row_k[d] is a lower bound on
 * the cost of any completion of a partial choice of cost C over the items from d on (weak
 * duality; valid for every λ_k ≥ 0), so the DP may drop a state when any row's bound exceeds its
 * budget. Result: lambdas.length × (items.length + 1), row-major.
 */
export function suffixLagrangian(
  lambdas: ArrayLike<number>,
  mu: number,
  items: readonly { costs: ArrayLike<number>; gains: ArrayLike<number>; mayStay: boolean }[],
): Float64Array {
  const F = items.length;
  const out = new Float64Array(lambdas.length * (F + 1));
  for (let k = 0; k < lambdas.length; k++) {
    const lk = lambdas[k];
    const base = k * (F + 1);
    for (let d = F - 1; d >= 0; d--) {
      const it = items[d];
      let b = it.mayStay ? 0 : Infinity;
      for (let q = 0; q < it.costs.length; q++) b = Math.min(b, it.costs[q] + mu - lk * it.gains[q]);
      out[base + d] = out[base + d + 1] + b;
    }
  }
  return out;
}

/** Point indices on the upper convex hull of {(0,0)} ∪ {(pc_t, pg_t)} (pc increasing), left to right. */
export function upperHull(pc: ArrayLike<number>, pg: ArrayLike<number>): Int32Array {
  const st: number[] = [];
  for (let j = 0; j < pc.length; j++) {
    while (st.length >= 1) {
      const b = st[st.length - 1];
      const a = st.length >= 2 ? st[st.length - 2] : -1;
      const ca = a < 0 ? 0 : pc[a];
      const ga = a < 0 ? 0 : pg[a];
      // b is dropped when it lies on or below the segment a → j.
      if ((pg[b] - ga) * (pc[j] - ca) <= (pg[j] - ga) * (pc[b] - ca)) st.pop();
      else break;
    }
    st.push(j);
  }
  return Int32Array.from(st);
}

/** One item as the solver sees it: memoised gains and the points its relaxation uses. */
class ItemView {
  private readonly memo: Float64Array;
  exact: boolean;
  /** Block size (1 when exact). */
  block: number;
  /** Relaxation points: cost (of the block's first option), gain (of its last), the last option's index. */
  private points: { pc: Float64Array; pg: Float64Array; popt: Int32Array; hull: Int32Array } | null = null;

  constructor(
    readonly item: SolverItem,
    private readonly counter: { evaluations: number },
  ) {
    this.memo = item.gainMemo && item.gainMemo.length >= item.size ? item.gainMemo : new Float64Array(item.size).fill(NaN);
    this.exact = item.size <= EXACT_SIZE;
    this.block = this.exact ? 1 : Math.ceil(item.size / BLOCKS);
  }

  get pc(): Float64Array {
    return (this.points ??= this.build()).pc;
  }
  get pg(): Float64Array {
    return (this.points ??= this.build()).pg;
  }
  get popt(): Int32Array {
    return (this.points ??= this.build()).popt;
  }
  get hull(): Int32Array {
    return (this.points ??= this.build()).hull;
  }

  get size(): number {
    return this.item.size;
  }

  cost(j: number): number {
    return this.item.cost(j);
  }

  gain(j: number): number {
    let g = this.memo[j];
    if (Number.isNaN(g)) {
      g = this.item.gain(j);
      this.memo[j] = g;
      this.counter.evaluations++;
    }
    return g;
  }

  /** The first option whose gain is ≥ g (binary search), or −1. */
  firstAtLeast(g: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.gain(mid) >= g) hi = mid;
      else lo = mid + 1;
    }
    return lo < this.size ? lo : -1;
  }

  refine(): void {
    if (this.exact) return;
    this.exact = true;
    this.block = 1;
    this.points = null;
  }

  private build(): { pc: Float64Array; pg: Float64Array; popt: Int32Array; hull: Int32Array } {
    const count = Math.ceil(this.size / this.block);
    const pc = new Float64Array(count);
    const pg = new Float64Array(count);
    const popt = new Int32Array(count);
    for (let b = 0; b < count; b++) {
      const first = b * this.block;
      const last = Math.min(this.size, first + this.block) - 1;
      pc[b] = this.cost(first);
      pg[b] = this.gain(last);
      popt[b] = last;
    }
    return { pc, pg, popt, hull: count > 0 ? upperHull(pc, pg) : new Int32Array(0) };
  }
}

interface Lp {
  /** LP cost including μ per item used. */
  cost: number;
  /** Fractional number of items used. */
  used: number;
  /** Cost per gain of the segment that closes R. */
  lambda: number;
  /** Segments in fill order, and how many of them the fill touched. */
  order: Int32Array;
  touched: number;
  segItem: Int32Array;
  /** Option index before / after the segment (−1 = unchanged). */
  segFrom: Int32Array;
  segTo: Int32Array;
  segDg: Float64Array;
}

/** Grown buffer size: at least `want`, doubling. */
const grownSize = (have: number, want: number) => Math.max(want, 2 * have, 1024);

/**
 * The DP's buffers, reused from one solve to the next (a plan runs up to 7 solves, each a ladder
 * of DP passes; fresh typed arrays per stage and layer made the allocation the DP's largest cost).
 * Buffers that grew past SCRATCH_KEEP entries are not kept (at most 2 × 16 MiB + 4 MiB stay allocated).
 */
const SCRATCH_KEEP = 1 << 21;
const scratch: { gA: Float64Array; gB: Float64Array; pick: Uint16Array; keep(a: Float64Array, b: Float64Array, pick: Uint16Array): void } = {
  gA: new Float64Array(0),
  gB: new Float64Array(0),
  pick: new Uint16Array(0),
  keep(a: Float64Array, b: Float64Array, pick: Uint16Array): void {
    this.gA = a.length <= SCRATCH_KEEP ? a : new Float64Array(0);
    this.gB = b.length <= SCRATCH_KEEP ? b : new Float64Array(0);
    this.pick = pick.length <= SCRATCH_KEEP ? pick : new Uint16Array(0);
  },
};

/**
 * For the DP's reach bound: row d (d = 0..n), entry m (m = 0..M) = the sum of the m largest of
 * maxGains[d..n−1] (all of them when fewer). With M = 0, entry 0 of row d = the sum of all of
 * maxGains[d..n−1] (no count limit). Result: (n + 1) × (M + 1), row-major.
 */
export function topGains(maxGains: readonly number[], M: number): Float64Array {
  const n = maxGains.length;
  const out = new Float64Array((n + 1) * (M + 1));
  if (M === 0) {
    for (let d = n - 1; d >= 0; d--) out[d] = out[d + 1] + maxGains[d];
    return out;
  }
  const top: number[] = []; // the M largest seen so far, descending
  for (let d = n - 1; d >= 0; d--) {
    const g = maxGains[d];
    let at = top.length;
    while (at > 0 && top[at - 1] < g) at--;
    if (at < M) {
      top.splice(at, 0, g);
      if (top.length > M) top.pop();
    }
    let acc = 0;
    for (let m = 1; m <= M; m++) {
      if (m <= top.length) acc += top[m - 1];
      out[d * (M + 1) + m] = acc;
    }
  }
  return out;
}

export function solveMinCost(items: readonly SolverItem[], opts: SolveOptions): SolveResult {
  const n = items.length;
  const need = opts.need;
  const M = Math.max(0, Math.min(opts.maxCount, n));
  const workLimit = opts.workLimit ?? DEFAULT_WORK_LIMIT;
  const dpLimit = opts.dpLimit ?? DEFAULT_DP_LIMIT;
  const stop = opts.shouldStop ?? (() => false);
  const dpBoundFactors = opts.dpBoundFactors ?? DP_BOUND_FACTORS;
  const counter = { evaluations: 0 };
  const views = items.map((it) => new ItemView(it, counter));
  const summary = (ch: Int32Array) => {
    let cost = 0;
    let gain = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (ch[i] < 0) continue;
      cost += views[i].cost(ch[i]);
      gain += views[i].gain(ch[i]);
      count++;
    }
    return { cost, gain, count };
  };
  const diag = { heuristicCost: 0, freeItems: 0 };
  let dpWork = 0;
  const done = (feasible: boolean, ch: Int32Array, lowerBound: number | null, optimal: boolean, work: number): SolveResult => {
    const s = summary(ch);
    return { feasible, choice: ch, ...s, lowerBound: lowerBound ?? s.cost, optimal, work, evaluations: counter.evaluations, ...diag, dpWork };
  };
  if (need <= 0) return done(true, new Int32Array(n).fill(-1), 0, true, 0);

  // 1. Feasibility: the M largest maxima (ties: cheaper, then key).
  const withOptions: number[] = [];
  for (let i = 0; i < n; i++) if (views[i].size > 0) withOptions.push(i);
  const lastOf = (i: number) => views[i].size - 1;
  const maxGain = (i: number) => views[i].gain(lastOf(i));
  withOptions.sort((a, b) => maxGain(b) - maxGain(a) || views[a].cost(lastOf(a)) - views[b].cost(lastOf(b)) || items[a].key - items[b].key);
  const maxPlan = () => {
    const ch = new Int32Array(n).fill(-1);
    for (let t = 0; t < Math.min(M, withOptions.length); t++) ch[withOptions[t]] = lastOf(withOptions[t]);
    return ch;
  };
  let top = 0;
  for (let t = 0; t < Math.min(M, withOptions.length); t++) top += maxGain(withOptions[t]);
  if (top < need) return done(false, maxPlan(), null, true, 0);

  // 2. The Lagrangian dual, refining the items the LP leans on.
  /** Buffers of segmentsAt(μ, true): the bisection on μ needs one set at a time. */
  let segScratch: { segItem: Int32Array; segFrom: Int32Array; segTo: Int32Array; segDc: Float64Array; segDg: Float64Array; segSlope: Float64Array } | null = null;
  /** The LP's segments at μ (unsorted); in reused buffers when `scratch` (valid until the next such call). */
  const segmentsAt = (mu: number, scratch = false) => {
    let segCount = 0;
    for (const v of views) segCount += v.hull.length;
    if (scratch && (!segScratch || segScratch.segItem.length < segCount)) {
      const size = grownSize(segScratch ? segScratch.segItem.length : 0, segCount);
      segScratch = { segItem: new Int32Array(size), segFrom: new Int32Array(size), segTo: new Int32Array(size), segDc: new Float64Array(size), segDg: new Float64Array(size), segSlope: new Float64Array(size) };
    }
    const segItem = scratch ? segScratch!.segItem : new Int32Array(segCount);
    const segFrom = scratch ? segScratch!.segFrom : new Int32Array(segCount);
    const segTo = scratch ? segScratch!.segTo : new Int32Array(segCount);
    const segDc = scratch ? segScratch!.segDc : new Float64Array(segCount);
    const segDg = scratch ? segScratch!.segDg : new Float64Array(segCount);
    const segSlope = scratch ? segScratch!.segSlope : new Float64Array(segCount);
    let s = 0;
    for (let i = 0; i < n; i++) {
      const { hull: h, pc, pg, popt } = views[i];
      if (h.length === 0) continue;
      let best = 0;
      let bestR = pg[h[0]] / (pc[h[0]] + mu);
      for (let t = 1; t < h.length; t++) {
        const r = pg[h[t]] / (pc[h[t]] + mu);
        if (r > bestR) {
          best = t;
          bestR = r;
        }
      }
      segItem[s] = i;
      segFrom[s] = -1;
      segTo[s] = popt[h[best]];
      segDc[s] = pc[h[best]] + mu;
      segDg[s] = pg[h[best]];
      segSlope[s] = bestR;
      s++;
      for (let t = best + 1; t < h.length; t++) {
        segItem[s] = i;
        segFrom[s] = popt[h[t - 1]];
        segTo[s] = popt[h[t]];
        segDc[s] = pc[h[t]] - pc[h[t - 1]];
        segDg[s] = pg[h[t]] - pg[h[t - 1]];
        segSlope[s] = segDg[s] / segDc[s];
        s++;
      }
    }
    return { s, segItem, segFrom, segTo, segDc, segDg, segSlope };
  };
  type Segments = ReturnType<typeof segmentsAt>;
  /** The LP's fill order: gain per cost descending, ties by item key, then segment. */
  const bySlope = (sg: Segments) => (a: number, b: number) => sg.segSlope[b] - sg.segSlope[a] || items[sg.segItem[a]].key - items[sg.segItem[b]].key || a - b;
  /** Fills R along `order` (its first `count` segments); closed = false when they do not reach R. */
  const fill = (sg: Segments, order: Int32Array, count: number) => {
    const { segFrom, segDc, segDg } = sg;
    let rem = need;
    let cost = 0;
    let used = 0;
    let lambda = 0;
    let touched = count;
    let closed = false;
    for (let t = 0; t < count; t++) {
      const g = order[t];
      if (segDg[g] >= rem) {
        const frac = rem / segDg[g];
        cost += frac * segDc[g];
        if (segFrom[g] < 0) used += frac;
        lambda = segDc[g] / segDg[g];
        touched = t + 1;
        closed = true;
        break;
      }
      cost += segDc[g];
      rem -= segDg[g];
      if (segFrom[g] < 0) used += 1;
    }
    return { cost, used, lambda, touched, closed };
  };
  const lpAt = (mu: number): Lp => {
    const sg = segmentsAt(mu);
    const { s, segItem, segFrom, segTo, segDg } = sg;
    const order = new Int32Array(s);
    for (let t = 0; t < s; t++) order[t] = t;
    order.sort(bySlope(sg));
    const { cost, used, lambda, touched } = fill(sg, order, s);
    return { cost, used, lambda, order, touched, segItem, segFrom, segTo, segDg };
  };
  /**
   * lpAt(mu).used without sorting every segment: only those at or above a slope τ whose gains
   * already reach R (with a margin), sorted as lpAt sorts them — the first segments of lpAt's
   * order, so the fill is the same; when they do not close R after all, lpAt itself.
   */
  const usedAt = (mu: number): number => {
    const sg = segmentsAt(mu, true);
    const { s, segSlope, segDg } = sg;
    const target = need * (1 + 1e-9);
    const sumFrom = (tau: number) => {
      let g = 0;
      for (let t = 0; t < s; t++) if (segSlope[t] >= tau) g += segDg[t];
      return g;
    };
    const sorted = segSlope.slice(0, s).sort(); // ascending
    if (s > 0 && sumFrom(sorted[0]) >= target) {
      // the fewest top slopes k whose segments reach the target
      let lo = 1;
      let hi = s;
      while (lo < hi) {
        const k = (lo + hi) >>> 1;
        if (sumFrom(sorted[s - k]) >= target) hi = k;
        else lo = k + 1;
      }
      const tau = sorted[s - lo];
      const sub: number[] = [];
      for (let t = 0; t < s; t++) if (segSlope[t] >= tau) sub.push(t);
      sub.sort(bySlope(sg));
      const r = fill(sg, Int32Array.from(sub), sub.length);
      if (r.closed) return r.used;
    }
    return lpAt(mu).used;
  };

  /** L(λ, μ): a lower bound for any λ, μ ≥ 0 (over the relaxation points, optimistic for blocks). */
  const dual = (lambda: number, mu: number): number => {
    let v = lambda * need - mu * M;
    for (const it of views) {
      let b = 0;
      for (let t = 0; t < it.hull.length; t++) b = Math.min(b, it.pc[it.hull[t]] + mu - lambda * it.pg[it.hull[t]]);
      v += b;
    }
    return v;
  };

  const solveDual = (): { lp: Lp; mu: number } => {
    const lp0 = lpAt(0);
    if (lp0.used <= M + EPS) return { lp: lp0, mu: 0 };
    let lo = 0;
    let hi = 1;
    while (usedAt(hi) > M + EPS && hi < 1e15) {
      lo = hi;
      hi *= 4;
    }
    for (let it = 0; it < 60 && hi - lo > 1e-9 * Math.max(1, hi); it++) {
      const mid = (lo + hi) / 2;
      if (usedAt(mid) > M + EPS) lo = mid;
      else hi = mid;
    }
    const lpLo = lpAt(lo);
    const lpHi = lpAt(hi);
    return dual(lpLo.lambda, lo) >= dual(lpHi.lambda, hi) ? { lp: lpLo, mu: lo } : { lp: lpHi, mu: hi };
  };

  let { lp, mu } = solveDual();
  for (;;) {
    let refined = false;
    for (let t = 0; t < lp.touched; t++) {
      const v = views[lp.segItem[lp.order[t]]];
      if (!v.exact) {
        v.refine();
        refined = true;
      }
    }
    if (!refined) break;
    ({ lp, mu } = solveDual());
  }
  const lambda = lp.lambda;
  const lStar = dual(lambda, mu);

  // 3. An integral solution from the LP, closed exactly, then improved locally. When the count
  //    binds (μ* > 0), the walk is also tried at larger μ (fewer, bigger changes leave room for the
  //    closing move); the cheapest result is kept.
  const gainOf = (i: number, j: number) => (j < 0 ? 0 : views[i].gain(j));
  const costOf = (i: number, j: number) => (j < 0 ? 0 : views[i].cost(j));
  /** The cheapest single move (item, option) adding at least `r` gain to `ch`. */
  const bestClosing = (ch: Int32Array, r: number, cnt: number, exclude = -1): { i: number; j: number; delta: number } | null => {
    let best: { i: number; j: number; delta: number } | null = null;
    if (!(r > 0)) return null;
    for (let i = 0; i < n; i++) {
      if (i === exclude || views[i].size === 0) continue;
      if (ch[i] < 0 && cnt >= M) continue;
      const target = gainOf(i, ch[i]) + r;
      if (maxGain(i) < target) continue;
      // The cheapest option that closes costs at least the next option's cost: skip hopeless items.
      const floor = views[i].cost(ch[i] + 1) - costOf(i, ch[i]);
      if (best && floor > best.delta) continue;
      const j = views[i].firstAtLeast(target);
      const delta = views[i].cost(j) - costOf(i, ch[i]);
      if (!best || delta < best.delta || (delta === best.delta && items[i].key < items[best.i].key)) best = { i, j, delta };
    }
    return best;
  };
  const walk = (order: Lp): Int32Array => {
    const cur = new Int32Array(n).fill(-1);
    let rem = need;
    let count = 0;
    for (let t = 0; t < order.order.length && rem > 0; t++) {
      const g = order.order[t];
      const i = order.segItem[g];
      if (order.segFrom[g] < 0) {
        if (cur[i] >= 0 || count >= M) continue;
      } else if (cur[i] !== order.segFrom[g]) continue;
      if (order.segDg[g] >= rem) {
        const c = bestClosing(cur, rem, count);
        if (c) {
          if (cur[c.i] < 0) count++;
          rem -= gainOf(c.i, c.j) - gainOf(c.i, cur[c.i]);
          cur[c.i] = c.j;
          break;
        }
      }
      if (order.segFrom[g] < 0) count++;
      rem -= gainOf(i, order.segTo[g]) - gainOf(i, cur[i]);
      cur[i] = order.segTo[g];
    }
    if (rem > 0) {
      const c = bestClosing(cur, rem, count);
      if (c) cur[c.i] = c.j;
      else cur.set(maxPlan()); // nothing closes within M: the max plan reaches R (checked above)
    }
    localSearch(views, cur, need, bestClosing);
    return cur;
  };
  const best = walk(lp);
  let U = summary(best).cost;
  if (mu > 0) {
    for (const f of [1.5, 2, 4, 8]) {
      const alt = walk(lpAt(mu * f));
      const c = summary(alt).cost;
      if (c < U) {
        U = c;
        best.set(alt);
      }
    }
  }
  diag.heuristicCost = U;

  // 4.–6. Fixing, DP and (as a fallback) branch-and-bound, for a cap: look for a choice costing at
  //    most cap − 1. Run as a ladder of caps between L* and U: a pass that finds nothing proves the
  //    optimum ≥ its cap (the reported bound rises); a pass that finds a choice has found the
  //    optimum; low caps are cheap, as fixing then leaves few options.
  interface Fixed {
    free: number[];
    kept: Int32Array[];
    /** Cost and gain of each kept option. */
    keptCost: number[][];
    keptGain: number[][];
    skipKept: boolean[];
    /** Lagrangian value of the best kept choice (0 for "unchanged"). */
    bKept: number[];
    maxKeptGain: number[];
    /** Lagrangian value of the best kept option. */
    minValue: number[];
    /** Some item would have to change but cannot: nothing below the cap exists. */
    impossible: boolean;
  }
  const bOf = views.map((v) => {
    let b = 0;
    for (let t = 0; t < v.hull.length; t++) b = Math.min(b, v.pc[v.hull[t]] + mu - lambda * v.pg[v.hull[t]]);
    return b;
  });
  /**
   * Per item, the options that can be in a choice costing ≤ listCap − 1 (the largest cap asked
   * for), with their cost, gain and Lagrangian value: computed once, filtered by each cap's limit.
   * An option kept under a smaller cap is in the list (its block's optimistic value is at most its
   * own), so filtering gives the same options as scanning every item's blocks again.
   */
  let listCap = -Infinity;
  let lists: { js: Int32Array; cs: Float64Array; gs: Float64Array; vals: Float64Array }[] = [];
  const optionLists = (cap: number) => {
    if (cap <= listCap) return lists;
    listCap = cap;
    lists = views.map((v, i) => {
      const limit = cap - 1 + EPS - lStar + bOf[i];
      const js: number[] = [];
      for (let p = 0; p < v.pc.length; p++) {
        if (v.pc[p] + mu - lambda * v.pg[p] > limit) continue; // the block's optimistic value already fails
        for (let j = p * v.block; j <= v.popt[p]; j++) if (v.cost(j) + mu - lambda * v.gain(j) <= limit) js.push(j);
      }
      const cs = Float64Array.from(js, (j) => v.cost(j));
      const gs = Float64Array.from(js, (j) => v.gain(j));
      return { js: Int32Array.from(js), cs, gs, vals: Float64Array.from(js, (j, t) => cs[t] + mu - lambda * gs[t]) };
    });
    return lists;
  };
  /** 4. Reduced-cost fixing: the options that can be in a choice costing ≤ cap − 1. */
  const fix = (cap: number): Fixed => {
    const f: Fixed = { free: [], kept: [], keptCost: [], keptGain: [], skipKept: [], bKept: [], maxKeptGain: [], minValue: [], impossible: false };
    const ls = optionLists(Math.max(cap, U)); // the ladder's caps rise to U: one list for all of them
    for (let i = 0; i < n; i++) {
      const limit = cap - 1 + EPS - lStar + bOf[i]; // keep option j iff c + μ − λg ≤ limit
      const { js, cs, gs, vals } = ls[i];
      const ks: number[] = [];
      const kc: number[] = [];
      const kg: number[] = [];
      let a = Infinity;
      for (let t = 0; t < js.length; t++) {
        const val = vals[t];
        if (val <= limit) {
          ks.push(js[t]);
          kc.push(cs[t]);
          kg.push(gs[t]);
          a = Math.min(a, val);
        }
      }
      const sk = 0 <= limit;
      if (ks.length === 0) {
        if (sk) continue; // fixed to "unchanged"
        f.impossible = true;
        return f;
      }
      f.free.push(i);
      f.kept.push(Int32Array.from(ks));
      f.keptCost.push(kc);
      f.keptGain.push(kg);
      f.skipKept.push(sk);
      f.bKept.push(sk ? Math.min(0, a) : a);
      f.maxKeptGain.push(kg[kg.length - 1]);
      f.minValue.push(a);
    }
    return f;
  };

  //    5. Dynamic programme over the integer cost on the kept options, items in order of their
  //    Lagrangian value: per number of items used m (only when counting), dp[C] = the most gain of
  //    a choice on the items so far costing C. A state is dropped when even the Lagrangian bound
  //    of its completion, C + λ·(R − G) − μ·(M − m) + Σ_{items after} b (−μM when not counting),
  //    exceeds cap − 1, or the same at λ_k = λ·DP_BOUND_FACTORS[k] (suffixLagrangian); when the
  //    items left cannot add the gain still missing (topGains); or when a cheaper state of the same
  //    layer has at least as much gain. So only a narrow window of costs stays alive, and the
  //    transitions are pushed from its live states only (ties to the smallest pick, as a pull over
  //    the options in order would keep; dpWork counts those transitions). Exact: each
  //    rule drops only states no choice below the cap passes through, so none changes the answer
  //    or its tie-breaks (checked on the bench's 200 plans: identical).
  type DpResult = { status: 'found'; choice: Int32Array; cost: number; used: number } | { status: 'none' } | { status: 'aborted' };
  const dpSolve = (f: Fixed, cap: number, counting: boolean): DpResult => {
    const B = cap - 1;
    const ordFree = f.free.map((_, t) => t).sort((x, y) => f.minValue[x] - f.minValue[y] || items[f.free[x]].key - items[f.free[y]].key);
    const F = ordFree.length;
    const suffFree = new Float64Array(F + 1);
    for (let d = F - 1; d >= 0; d--) suffFree[d] = suffFree[d + 1] + f.bKept[ordFree[d]];
    // Further bounds of the completion: Lagrangian bounds of the items left at multiples of λ
    // (the one at λ* is tightest for the whole problem, not for what is left late in the order).
    const K = dpBoundFactors.length;
    const lamK = Float64Array.from(dpBoundFactors, (x) => lambda * x);
    const kept = ordFree.map((t) => ({ costs: f.keptCost[t], gains: f.keptGain[t], mayStay: f.skipKept[t] }));
    const suffK = suffixLagrangian(lamK, mu, kept);
    const slackK = new Float64Array(K);
    // The most gain the items after d can still add with m more items (topGain[d·(Mc+1) + m]; without the
    // count, Mc = 0 and the sum of every item's largest kept gain): a state short of R by more is dead.
    const Mc = counting ? M : 0;
    const topGain = topGains(kept.map((k) => k.gains[k.gains.length - 1]), Mc);
    const needLow = need - Math.abs(need) * 1e-9; // float sums in another order: never drop a state that reaches R
    const L = counting ? M : 0;
    // Layers live in two reused buffers (this stage's and the next one's), the picks of every
    // stage in one append-only buffer (DpScratch): no typed array per stage and layer.
    interface Layer {
      lo: number;
      hi: number;
      /** Offset of g[lo] in its stage's buffer. */
      off: number;
    }
    let gRead = scratch.gA;
    let gWrite = scratch.gB;
    let pickBuf = scratch.pick;
    let pickLen = 0;
    let layers: (Layer | null)[] = Array.from({ length: L + 1 }, () => null);
    {
      let hi = -1;
      while (hi + 1 <= B && hi + 1 + lambda * need - mu * M + suffFree[0] <= B + EPS) hi++;
      if (hi < 0) return { status: 'none' };
      if (gRead.length < hi + 1) gRead = new Float64Array(grownSize(gRead.length, hi + 1));
      gRead.fill(0, 0, hi + 1);
      layers[0] = { lo: 0, hi, off: 0 };
    }
    const picks: ({ lo: number; off: number } | null)[][] = [];
    const winLo = new Float64Array(L + 1);
    const winHi = new Float64Array(L + 1);
    try {
      for (let d = 0; d < F; d++) {
        const kc = kept[d].costs;
        const kg = kept[d].gains;
        // This stage's windows, and room for them.
        let need1 = 0;
        let needPick = 0;
        for (let l = 0; l <= L; l++) {
          const same = layers[l];
          const from = counting ? (l >= 1 ? layers[l - 1] : null) : layers[l];
          const lo = Math.min(same ? same.lo : Infinity, from ? from.lo + kc[0] : Infinity);
          const hi = Math.min(B, Math.max(same ? same.hi : -Infinity, from ? from.hi + kc[kc.length - 1] : -Infinity));
          winLo[l] = lo;
          winHi[l] = hi;
          if (lo <= hi) {
            need1 += hi - lo + 1;
            needPick += hi - lo + 1;
          }
        }
        if (gWrite.length < need1) gWrite = new Float64Array(grownSize(gWrite.length, need1));
        if (pickBuf.length < pickLen + needPick) {
          const grown = new Uint16Array(grownSize(pickBuf.length, pickLen + needPick));
          grown.set(pickBuf.subarray(0, pickLen));
          pickBuf = grown;
        }
        const next: (Layer | null)[] = [];
        const stagePicks: ({ lo: number; off: number } | null)[] = [];
        let any = false;
        let gOff = 0;
        const topBase = (d + 1) * (Mc + 1);
        for (let l = 0; l <= L; l++) {
          const same = layers[l];
          const from = counting ? (l >= 1 ? layers[l - 1] : null) : layers[l];
          const reach = topGain[topBase + (counting ? M - l : 0)];
          const lo = winLo[l];
          const hi = winHi[l];
          if (!(lo <= hi)) {
            next.push(null);
            stagePicks.push(null);
            continue;
          }
          const gBase = gOff - lo; // g[C] at gWrite[gBase + C]
          const pBase = pickLen - lo;
          let newLo = -1;
          let newHi = -1;
          // alive ⇔ C + λ·max(0, R − G) + slack ≤ 0
          const slack = -mu * (counting ? M - l : M) + suffFree[d + 1] - B - EPS;
          for (let k = 0; k < K; k++) slackK[k] = -mu * (counting ? M - l : M) + suffK[k * (F + 1) + d + 1] - B - EPS;
          const sLo = same ? same.lo : 1;
          const sHi = same ? same.hi : 0;
          const sBase = same ? same.off - same.lo : 0;
          const fLo = from ? from.lo : 1;
          const fHi = from ? from.hi : 0;
          const fBase = from ? from.off - from.lo : 0;
          const last = kc.length - 1;
          // Transitions pushed from the live states of the layer below (dead ones, −∞, are
          // skipped): the best gain per cost C, ties to the smallest pick (unchanged = 0 first,
          // then options in order — what a pull over the options in order would keep).
          for (let C = lo; C <= hi; C++) {
            gWrite[gBase + C] = C >= sLo && C <= sHi ? gRead[sBase + C] : -Infinity;
            pickBuf[pBase + C] = 0;
          }
          if (from) {
            for (let p = fLo; p <= fHi; p++) {
              const prev = gRead[fBase + p];
              if (prev === -Infinity) continue;
              for (let q = 0; q <= last; q++) {
                const C = p + kc[q];
                if (C > hi) break;
                const val = prev + kg[q];
                const cur = gWrite[gBase + C];
                if (val > cur || (val === cur && q + 1 < pickBuf[pBase + C])) {
                  gWrite[gBase + C] = val;
                  pickBuf[pBase + C] = q + 1;
                }
                dpWork++;
              }
            }
          }
          // The most gain of a live state of this layer at a lower cost: a state with no more gain
          // than that is dominated (the same completion from the cheaper state costs less).
          let runMax = -Infinity;
          for (let C = lo; C <= hi; C++) {
            const bestG = gWrite[gBase + C];
            let alive = false;
            if (bestG > runMax) {
              const r = need > bestG ? need - bestG : 0;
              alive = C + lambda * r + slack <= 0 && (r === 0 || bestG + reach >= needLow);
              if (alive && r > 0) {
                for (let k = 0; k < K; k++) {
                  if (C + lamK[k] * r + slackK[k] > 0) {
                    alive = false;
                    break;
                  }
                }
              }
            }
            if (alive) {
              runMax = bestG;
              if (newLo < 0) newLo = C;
              newHi = C;
            } else gWrite[gBase + C] = -Infinity;
          }
          dpWork += hi - lo + 1;
          if (newLo < 0) {
            next.push(null);
            stagePicks.push(null);
          } else {
            any = true;
            next.push({ lo: newLo, hi: newHi, off: gBase + newLo });
            stagePicks.push({ lo, off: pickLen });
          }
          gOff += hi - lo + 1;
          pickLen += hi - lo + 1;
        }
        picks.push(stagePicks);
        layers = next;
        const swap = gRead;
        gRead = gWrite;
        gWrite = swap;
        if (!any) return { status: 'none' };
        if (dpWork > dpLimit || stop()) return { status: 'aborted' };
      }
    } finally {
      scratch.keep(gRead, gWrite, pickBuf);
    }
    // The cheapest final state reaching R (ties: fewer items).
    let cStar = Infinity;
    let lBest = -1;
    for (let l = 0; l <= L; l++) {
      const ly = layers[l];
      if (!ly) continue;
      for (let C = ly.lo; C <= Math.min(ly.hi, cStar - 1); C++) {
        if (gRead[ly.off + C - ly.lo] >= need) {
          cStar = C;
          lBest = l;
          break;
        }
      }
    }
    if (lBest < 0) return { status: 'none' };
    const choice = new Int32Array(n).fill(-1);
    let C = cStar;
    let l = lBest;
    let used = 0;
    for (let d = F - 1; d >= 0; d--) {
      const pk = picks[d][l]!;
      const q = pickBuf[pk.off + C - pk.lo];
      if (q === 0) continue;
      const t = ordFree[d];
      choice[f.free[t]] = f.kept[t][q - 1];
      C -= views[f.free[t]].cost(f.kept[t][q - 1]);
      if (counting) l--;
      used++;
    }
    return { status: 'found', choice, cost: cStar, used };
  };

  let lowerBound = Math.max(0, Math.ceil(lStar - EPS));
  let proven = U <= lowerBound;
  let lastFixed: Fixed | null = null;
  let lastCap = -1;
  if (!proven) {
    const gap = U - lStar;
    const caps = [...new Set([...[1 / 16, 1 / 8, 1 / 4, 3 / 8, 1 / 2, 3 / 4].map((x) => Math.ceil(lStar + x * gap)).filter((c) => c > lowerBound && c < U), U])];
    for (const cap of caps) {
      const f = fix(cap);
      lastFixed = f;
      lastCap = cap;
      if (f.impossible) {
        lowerBound = cap; // nothing below the cap
        if (cap === U) proven = true;
        continue;
      }
      if (dpLimit <= 0 || cap < 1) break;
      let r = dpSolve(f, cap, mu > 0);
      if (r.status === 'found' && r.used > M) {
        lowerBound = Math.max(lowerBound, r.cost); // the least cost without the count limit bounds the one with it
        r = dpSolve(f, cap, true);
      }
      if (r.status === 'found') {
        best.set(r.choice);
        U = r.cost;
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
  let aborted = false;
  if (!proven) {
    const f = lastFixed && lastCap === U ? lastFixed : fix(U);
    if (f.impossible) proven = true;
    else {
      const F = f.free.length;
      const ord = f.free.map((_, t) => t).sort((x, y) => f.minValue[x] - f.minValue[y] || items[f.free[x]].key - items[f.free[y]].key);
      const fItem = ord.map((t) => f.free[t]);
      const fKept = ord.map((t) => f.kept[t]);
      const fSkip = ord.map((t) => f.skipKept[t]);
      const suffB = new Float64Array(F + 1);
      const suffG = new Float64Array(F + 1);
      for (let d = F - 1; d >= 0; d--) {
        suffB[d] = suffB[d + 1] + f.bKept[ord[d]];
        suffG[d] = suffG[d + 1] + f.maxKeptGain[ord[d]];
      }
      const path = new Int32Array(F).fill(-1);
      const record = (d: number, j: number, cost: number) => {
        U = cost;
        best.fill(-1);
        for (let t = 0; t < d; t++) if (path[t] >= 0) best[fItem[t]] = path[t];
        best[fItem[d]] = j;
      };
      const dfs = (d: number, r: number, m: number, C: number): void => {
        if (++work > workLimit || ((work & 1023) === 0 && stop())) {
          aborted = true;
          return;
        }
        if (d === F || m === 0 || suffG[d] < r) return;
        if (C + lambda * r - mu * m + suffB[d] > U - 1 + EPS) return;
        const v = views[fItem[d]];
        const ks = fKept[d];
        const kids: { j: number; bound: number }[] = [];
        for (let t = 0; t < ks.length; t++) {
          const j = ks[t];
          const g = v.gain(j);
          if (g >= r) {
            if (C + v.cost(j) < U - 0.5) record(d, j, C + v.cost(j)); // integer costs: ≤ U − 1
            break;
          }
          if (m === 1) continue;
          const bound = C + v.cost(j) + lambda * (r - g) - mu * (m - 1) + suffB[d + 1];
          if (bound <= U - 1 + EPS) kids.push({ j, bound });
        }
        if (fSkip[d]) {
          const bound = C + lambda * r - mu * m + suffB[d + 1];
          if (bound <= U - 1 + EPS) kids.push({ j: -1, bound });
        }
        kids.sort((x, y) => x.bound - y.bound || (x.j < 0 ? 1 : y.j < 0 ? -1 : x.j - y.j));
        for (const k of kids) {
          if (k.bound > U - 1 + EPS) continue;
          path[d] = k.j;
          if (k.j < 0) dfs(d + 1, r, m, C);
          else dfs(d + 1, r - v.gain(k.j), m - 1, C + v.cost(k.j));
          path[d] = -1;
          if (aborted) return;
        }
      };
      dfs(0, need, M, 0);
      if (!aborted) proven = true;
    }
  }
  const final = summary(best);
  return done(true, best, proven ? final.cost : Math.min(final.cost, lowerBound), proven, work);
}

/**
 * Local search on a feasible choice: (a) spend the surplus gain where it saves most; (b) drop one
 * chosen item and close the gap with the cheapest single move elsewhere (first improvement, items
 * in key order). Repeats while the cost drops (each move lowers the integer cost, so it ends).
 */
function localSearch(
  views: readonly ItemView[],
  ch: Int32Array,
  need: number,
  bestClosing: (ch: Int32Array, r: number, cnt: number, exclude?: number) => { i: number; j: number; delta: number } | null,
): void {
  const n = views.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => views[a].item.key - views[b].item.key);
  for (;;) {
    let gain = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (ch[i] < 0) continue;
      gain += views[i].gain(ch[i]);
      count++;
    }
    // (a) spend the surplus where it saves most: lower the one item (as far as the surplus allows,
    //     possibly to unchanged) whose lowering saves the most cost; repeat.
    for (;;) {
      const surplus = gain - need;
      if (!(surplus > 0)) break;
      let bestI = -1;
      let bestJ = -1;
      let bestSave = 0;
      for (const i of order) {
        const own = ch[i];
        if (own < 0) continue;
        const v = views[i];
        const gi = v.gain(own);
        const j = gi <= surplus ? -1 : v.firstAtLeast(gi - surplus);
        if (j >= own) continue;
        const save = v.cost(own) - (j < 0 ? 0 : v.cost(j));
        if (save > bestSave) {
          bestSave = save;
          bestI = i;
          bestJ = j;
        }
      }
      if (bestI < 0) break;
      const v = views[bestI];
      gain += (bestJ < 0 ? 0 : v.gain(bestJ)) - v.gain(ch[bestI]);
      if (bestJ < 0) count--;
      ch[bestI] = bestJ;
    }
    // (b) drop one item and close the gap with the cheapest single move elsewhere (first improvement).
    let improved = false;
    for (const i of order) {
      const own = ch[i];
      if (own < 0) continue;
      const v = views[i];
      const gi = v.gain(own);
      const ci = v.cost(own);
      ch[i] = -1;
      const c = bestClosing(ch, need - (gain - gi), count - 1, i);
      if (c && c.delta < ci) {
        ch[c.i] = c.j;
        improved = true;
        break;
      }
      ch[i] = own;
    }
    if (!improved) break;
  }
}
