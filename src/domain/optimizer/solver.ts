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
 *    options when the LP puts weight on it. ⌈L*⌉ is the reported lower bound unless optimality is
 *    proven.
 * 3. An integral solution: walk the LP's segments in order (respecting M) and, at the segment that
 *    would close R, take the cheapest exact repair — the item (new, or one already chosen raised
 *    further) whose smallest option closing the rest costs least (binary search on its gains;
 *    integer EX, no rounding games). Then a local search: lower one chosen item as far as the
 *    surplus allows, or drop it and re-close elsewhere, while the cost drops.
 * 4. Reduced-cost fixing: with U the incumbent's cost, an option whose Lagrangian bound
 *    L* + (c_ij + μ − λ g_ij − b_i) exceeds U − 1 cannot be in a cheaper solution (integer costs)
 *    and is dropped (whole blocks at once through their optimistic point); most items keep only
 *    "unchanged".
 * 5. Depth-first branch-and-bound over the items left, children in order of their bound, with the
 *    Lagrangian bound at (λ*, μ*) in O(1) per node from suffix sums; an option that already closes R
 *    ends its branch (larger options of that item are dominated). The search is bounded by a node
 *    budget, never by time, so the answer is deterministic. When it completes, the incumbent is
 *    optimal (`optimal`, `lowerBound` = its cost) — on small inputs it always does; otherwise
 *    `lowerBound` bounds how far from optimal the answer can be.
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
}

export const DEFAULT_WORK_LIMIT = 200_000;
/** Items with more options than this start as optimistic blocks. */
const EXACT_SIZE = 96;
const BLOCKS = 48;
const EPS = 1e-7;
/** Largest dynamic programme (option × cost-cell updates) tried. */
const DP_LIMIT = 40_000_000;

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
    this.memo = new Float64Array(item.size).fill(NaN);
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

export function solveMinCost(items: readonly SolverItem[], opts: SolveOptions): SolveResult {
  const n = items.length;
  const need = opts.need;
  const M = Math.max(0, Math.min(opts.maxCount, n));
  const workLimit = opts.workLimit ?? DEFAULT_WORK_LIMIT;
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
  const done = (feasible: boolean, ch: Int32Array, lowerBound: number | null, optimal: boolean, work: number): SolveResult => {
    const s = summary(ch);
    return { feasible, choice: ch, ...s, lowerBound: lowerBound ?? s.cost, optimal, work, evaluations: counter.evaluations, ...diag };
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
  const lpAt = (mu: number): Lp => {
    let segCount = 0;
    for (const v of views) segCount += v.hull.length;
    const segItem = new Int32Array(segCount);
    const segFrom = new Int32Array(segCount);
    const segTo = new Int32Array(segCount);
    const segDc = new Float64Array(segCount);
    const segDg = new Float64Array(segCount);
    const segSlope = new Float64Array(segCount);
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
    const order = new Int32Array(s);
    for (let t = 0; t < s; t++) order[t] = t;
    order.sort((a, b) => segSlope[b] - segSlope[a] || items[segItem[a]].key - items[segItem[b]].key || a - b);
    let rem = need;
    let cost = 0;
    let used = 0;
    let lambda = 0;
    let touched = s;
    for (let t = 0; t < s; t++) {
      const g = order[t];
      if (segDg[g] >= rem) {
        const frac = rem / segDg[g];
        cost += frac * segDc[g];
        if (segFrom[g] < 0) used += frac;
        lambda = segDc[g] / segDg[g];
        touched = t + 1;
        break;
      }
      cost += segDc[g];
      rem -= segDg[g];
      if (segFrom[g] < 0) used += 1;
    }
    return { cost, used, lambda, order, touched, segItem, segFrom, segTo, segDg };
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
    let lpHi = lpAt(hi);
    while (lpHi.used > M + EPS && hi < 1e15) {
      lo = hi;
      hi *= 4;
      lpHi = lpAt(hi);
    }
    for (let it = 0; it < 60 && hi - lo > 1e-9 * Math.max(1, hi); it++) {
      const mid = (lo + hi) / 2;
      if (lpAt(mid).used > M + EPS) lo = mid;
      else hi = mid;
    }
    const lpLo = lpAt(lo);
    lpHi = lpAt(hi);
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

  // 3. An integral solution from the LP, closed exactly, then improved locally.
  const cur = new Int32Array(n).fill(-1);
  let rem = need;
  let count = 0;
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
  for (let t = 0; t < lp.order.length && rem > 0; t++) {
    const g = lp.order[t];
    const i = lp.segItem[g];
    if (lp.segFrom[g] < 0) {
      if (cur[i] >= 0 || count >= M) continue;
    } else if (cur[i] !== lp.segFrom[g]) continue;
    if (lp.segDg[g] >= rem) {
      const c = bestClosing(cur, rem, count);
      if (c) {
        if (cur[c.i] < 0) count++;
        rem -= gainOf(c.i, c.j) - gainOf(c.i, cur[c.i]);
        cur[c.i] = c.j;
        break;
      }
    }
    if (lp.segFrom[g] < 0) count++;
    rem -= gainOf(i, lp.segTo[g]) - gainOf(i, cur[i]);
    cur[i] = lp.segTo[g];
  }
  if (rem > 0) {
    const c = bestClosing(cur, rem, count);
    if (c) cur[c.i] = c.j;
    else cur.set(maxPlan()); // nothing closes within M: the max plan reaches R (checked above)
  }
  localSearch(views, cur, need, bestClosing);
  let U = summary(cur).cost;
  diag.heuristicCost = U;
  const best = Int32Array.from(cur);

  // 4. Reduced-cost fixing.
  const free: number[] = [];
  const kept: Int32Array[] = [];
  const skipKept: boolean[] = [];
  const bKept: number[] = [];
  const maxKeptGain: number[] = [];
  const minValue: number[] = [];
  let proven = U - 1 < lStar - EPS;
  if (!proven) {
    for (let i = 0; i < n; i++) {
      const v = views[i];
      let b = 0;
      for (let t = 0; t < v.hull.length; t++) b = Math.min(b, v.pc[v.hull[t]] + mu - lambda * v.pg[v.hull[t]]);
      const limit = U - 1 + EPS - lStar + b; // keep option j iff c + μ − λg ≤ limit
      const ks: number[] = [];
      let a = Infinity;
      for (let p = 0; p < v.pc.length; p++) {
        if (v.pc[p] + mu - lambda * v.pg[p] > limit) continue; // the block's optimistic value already fails
        const first = p * v.block;
        for (let j = first; j <= v.popt[p]; j++) {
          const val = v.cost(j) + mu - lambda * v.gain(j);
          if (val <= limit) {
            ks.push(j);
            a = Math.min(a, val);
          }
        }
      }
      const sk = 0 <= limit;
      if (ks.length === 0) {
        if (sk) continue; // fixed to "unchanged"
        proven = true; // the item would have to change but cannot: nothing cheaper than U exists
        break;
      }
      free.push(i);
      kept.push(Int32Array.from(ks));
      skipKept.push(sk);
      bKept.push(sk ? Math.min(0, a) : a);
      maxKeptGain.push(v.gain(ks[ks.length - 1]));
      minValue.push(a);
    }
  }

  // 6. Branch-and-bound over the items left.
  let work = 0;
  let aborted = false;
  diag.freeItems = free.length;

  // 5. Dynamic programme over the integer cost on the options left, items in order of their
  //    Lagrangian value: dp[C] = the most gain of a choice on the items so far costing ≤ C. A state is
  //    dropped when even the Lagrangian bound of its completion, C + λ·(R − G) − μM + Σ_{items
  //    after} b, exceeds U − 1 — so only a narrow window of costs is alive (at the start [0, U − 1 − L*]).
  //    Exact, but without the cardinality: its answer is optimal when it uses ≤ M items, otherwise
  //    a lower bound (the branch-and-bound then looks for a solution within M). Bounded by a work
  //    budget; when exceeded, the branch-and-bound takes over.
  const ordFree = free.map((_, t) => t).sort((x, y) => minValue[x] - minValue[y] || items[free[x]].key - items[free[y]].key);
  let dpBound = -Infinity;
  let dpWork = 0;
  if (!proven && U >= 1) {
    const B = U - 1;
    const F = ordFree.length;
    const suff = new Float64Array(F + 1);
    for (let d = F - 1; d >= 0; d--) suff[d] = suff[d + 1] + bKept[ordFree[d]];
    let dp = new Float64Array(B + 1).fill(-Infinity);
    let next = new Float64Array(B + 1).fill(-Infinity);
    const alive = (C: number, G: number, d: number) => G > -Infinity && C + lambda * Math.max(0, need - G) - mu * M + suff[d] <= B + EPS;
    let lo = 0;
    let hi = -1;
    for (let C = 0; C <= B; C++) {
      if (!alive(C, 0, 0)) break;
      dp[C] = 0;
      hi = C;
    }
    const picks: { lo: number; pick: Uint16Array }[] = [];
    let cStar = -1;
    for (let d = 0; d < F && hi >= lo; d++) {
      const t = ordFree[d];
      const v = views[free[t]];
      const ks = kept[t];
      const kc = Array.from(ks, (j) => v.cost(j));
      const kg = Array.from(ks, (j) => v.gain(j));
      const nhi = Math.min(B, hi + kc[kc.length - 1]);
      const pick = new Uint16Array(nhi - lo + 1);
      let newLo = -1;
      let newHi = -1;
      for (let C = lo; C <= nhi; C++) {
        let bestG = C <= hi ? dp[C] : -Infinity;
        let bq = 0;
        for (let q = 0; q < kc.length && kc[q] <= C - lo; q++) {
          const prev = dp[C - kc[q]];
          if (prev === -Infinity || C - kc[q] > hi) continue;
          const g = prev + kg[q];
          if (g > bestG) {
            bestG = g;
            bq = q + 1;
          }
        }
        dpWork += kc.length;
        if (alive(C, bestG, d + 1)) {
          next[C] = bestG;
          pick[C - lo] = bq;
          if (newLo < 0) newLo = C;
          newHi = C;
        } else next[C] = -Infinity;
      }
      picks.push({ lo, pick });
      for (let C = lo; C <= hi; C++) dp[C] = -Infinity;
      [dp, next] = [next, dp];
      if (newLo < 0) {
        hi = -1;
        break;
      }
      lo = newLo;
      hi = newHi;
      if (dpWork > DP_LIMIT) break;
    }
    const finished = dpWork <= DP_LIMIT;
    if (finished) {
      for (let C = lo; C <= hi; C++) {
        if (dp[C] >= need) {
          cStar = C;
          break;
        }
      }
      if (cStar < 0) {
        proven = true; // no state reaches R within U − 1: the incumbent is optimal
      } else {
        const ch = new Int32Array(n).fill(-1);
        let C = cStar;
        let used = 0;
        for (let d = picks.length - 1; d >= 0; d--) {
          const q = picks[d].pick[C - picks[d].lo];
          if (q === 0) continue;
          const t = ordFree[d];
          ch[free[t]] = kept[t][q - 1];
          C -= views[free[t]].cost(kept[t][q - 1]);
          used++;
        }
        if (used <= M) {
          best.set(ch);
          U = cStar;
          proven = true;
        } else {
          dpBound = cStar;
        }
      }
    }
  }
  if (!proven) {
    const F = free.length;
    const ord = free.map((_, t) => t).sort((x, y) => minValue[x] - minValue[y] || items[free[x]].key - items[free[y]].key);
    const fItem = ord.map((t) => free[t]);
    const fKept = ord.map((t) => kept[t]);
    const fSkip = ord.map((t) => skipKept[t]);
    const suffB = new Float64Array(F + 1);
    const suffG = new Float64Array(F + 1);
    for (let d = F - 1; d >= 0; d--) {
      suffB[d] = suffB[d + 1] + bKept[ord[d]];
      suffG[d] = suffG[d + 1] + maxKeptGain[ord[d]];
    }
    const path = new Int32Array(F).fill(-1);
    const record = (d: number, j: number, cost: number) => {
      U = cost;
      best.fill(-1);
      for (let t = 0; t < d; t++) if (path[t] >= 0) best[fItem[t]] = path[t];
      best[fItem[d]] = j;
    };
    const dfs = (d: number, r: number, m: number, C: number): void => {
      if (++work > workLimit) {
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
  }
  const optimal = !aborted;
  const final = summary(best);
  return done(true, best, optimal ? final.cost : Math.min(final.cost, Math.max(0, Math.ceil(lStar - EPS), dpBound)), optimal, work);
}

/**
 * First-improvement local search on a feasible choice: (a) lower one chosen item to its cheapest
 * option the surplus allows (or leave it unchanged when the others cover the need); (b) drop one
 * chosen item and close the gap with the cheapest single move elsewhere. Items in key order;
 * repeats while the cost drops (each accepted move lowers the integer cost, so it ends).
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
    let improved = false;
    for (const i of order) {
      const own = ch[i];
      if (own < 0) continue;
      const v = views[i];
      const gi = v.gain(own);
      const ci = v.cost(own);
      const surplus = gain - need;
      // (a) lower item i
      if (surplus > 0) {
        if (gi <= surplus) {
          ch[i] = -1;
          gain -= gi;
          count--;
          improved = true;
          continue;
        }
        const j = v.firstAtLeast(gi - surplus);
        if (j >= 0 && j < own) {
          ch[i] = j;
          gain += v.gain(j) - gi;
          improved = true;
          continue;
        }
      }
      // (b) drop item i and re-close elsewhere
      ch[i] = -1;
      const c = bestClosing(ch, need - (gain - gi), count - 1, i);
      if (c && c.delta < ci) {
        const prev = ch[c.i];
        ch[c.i] = c.j;
        gain += views[c.i].gain(c.j) - (prev >= 0 ? views[c.i].gain(prev) : 0) - gi;
        if (prev >= 0) count--;
        improved = true;
        continue;
      }
      ch[i] = own;
    }
    if (!improved) break;
  }
}
