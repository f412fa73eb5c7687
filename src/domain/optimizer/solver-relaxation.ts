/**
 * Step 2 of the solver (src/domain/optimizer/solver.ts): the Lagrangian relaxation. For a fixed μ
 * (the price of one more changed item) the LP relaxation fills R along the items' hull segments by
 * gain per cost; λ is the cost per gain of the segment that closes R; μ comes from a bisection on
 * the subgradient (items used − M). Items seen through optimistic blocks are refined to their exact
 * options when the LP leans on them.
 */
import { EPS, grownSize, type DualPoint, type Problem } from './solver-items';

export interface Lp {
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

/** The relaxation of one problem: the LP at any μ, the dual bound L(λ, μ), and the solved dual. */
export function createRelaxation(p: Problem) {
  const { items, views, n, need, M } = p;
  /** Buffers of segmentsAt(μ, true): the bisection on μ needs one set at a time. */
  let segScratch: {
    segItem: Int32Array;
    segFrom: Int32Array;
    segTo: Int32Array;
    segDc: Float64Array;
    segDg: Float64Array;
    segSlope: Float64Array;
  } | null = null;
  /** The LP's segments at μ (unsorted); in reused buffers when `scratch` (valid until the next such call). */
  const segmentsAt = (mu: number, scratch = false) => {
    let segCount = 0;
    for (const v of views) segCount += v.hull.length;
    if (scratch && (!segScratch || segScratch.segItem.length < segCount)) {
      const size = grownSize(segScratch ? segScratch.segItem.length : 0, segCount);
      segScratch = {
        segItem: new Int32Array(size),
        segFrom: new Int32Array(size),
        segTo: new Int32Array(size),
        segDc: new Float64Array(size),
        segDg: new Float64Array(size),
        segSlope: new Float64Array(size),
      };
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
  const bySlope = (sg: Segments) => (a: number, b: number) =>
    sg.segSlope[b] - sg.segSlope[a] || items[sg.segItem[a]].key - items[sg.segItem[b]].key || a - b;
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

  /** Step 2 in full: the dual, re-solved while the LP's touched items still had blocks to refine. */
  const solve = (): { lp: Lp; dual: DualPoint } => {
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
    return { lp, dual: { lambda, mu, lStar: dual(lambda, mu) } };
  };

  return { lpAt, dual, solve };
}

export type Relaxation = ReturnType<typeof createRelaxation>;
