/**
 * Step 4 of the solver (src/domain/optimizer/solver.ts): reduced-cost fixing. With the incumbent
 * costing U, an option whose Lagrangian bound L* + (c_ij + μ − λ g_ij − b_i) exceeds cap − 1 cannot
 * be in a choice costing less than the cap (integer costs) and is dropped; most items keep only
 * "unchanged" and a few cheap options.
 */
import { EPS, type DualPoint, type Problem } from './solver-items';

/** The options left under one cap, per item that may still change (in item order). */
export interface Fixed {
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

/** Fixing for one problem at its dual point: `fix(cap, U)` for each cap of the ladder (caps ≤ U). */
export function createFixing(p: Problem, d: DualPoint) {
  const { views, n } = p;
  const { lambda, mu, lStar } = d;
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
  const fix = (cap: number, U: number): Fixed => {
    const f: Fixed = {
      free: [],
      kept: [],
      keptCost: [],
      keptGain: [],
      skipKept: [],
      bKept: [],
      maxKeptGain: [],
      minValue: [],
      impossible: false,
    };
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
  return fix;
}
