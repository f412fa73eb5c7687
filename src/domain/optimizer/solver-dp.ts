/**
 * Step 5 of the solver (src/domain/optimizer/solver.ts): the dynamic programme over the integer
 * cost on the options fixing left, with its completion bounds (suffixLagrangian, topGains) and the
 * buffers it reuses from one solve to the next.
 */
import { EPS, grownSize, type DualPoint, type Problem } from './solver-items';
import type { Fixed } from './solver-fixing';

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

/**
 * The DP's buffers, reused from one solve to the next (a plan runs up to 7 solves, each a ladder
 * of DP passes; fresh typed arrays per stage and layer made the allocation the DP's largest cost).
 * Buffers that grew past SCRATCH_KEEP entries are not kept (at most 2 × 16 MiB + 4 MiB stay allocated).
 */
const SCRATCH_KEEP = 1 << 21;
const scratch: {
  gA: Float64Array;
  gB: Float64Array;
  pick: Uint16Array;
  keep(a: Float64Array, b: Float64Array, pick: Uint16Array): void;
} = {
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

// 5. Dynamic programme over the integer cost on the kept options, items in order of their
// Lagrangian value: per number of items used m (only when counting), dp[C] = the most gain of
// a choice on the items so far costing C. A state is dropped when even the Lagrangian bound
// of its completion, C + λ·(R − G) − μ·(M − m) + Σ_{items after} b (−μM when not counting),
// exceeds cap − 1, or the same at λ_k = λ·DP_BOUND_FACTORS[k] (suffixLagrangian); when the
// items left cannot add the gain still missing (topGains); or when a cheaper state of the same
// layer has at least as much gain. So only a narrow window of costs stays alive, and the
// transitions are pushed from its live states only (ties to the smallest pick, as a pull over
// the options in order would keep; dpWork counts those transitions). Exact: each
// rule drops only states no choice below the cap passes through, so none changes the answer
// or its tie-breaks (checked on the bench's 200 plans: identical).
export type DpResult =
  { status: 'found'; choice: Int32Array; cost: number; used: number } | { status: 'none' } | { status: 'aborted' };

/** What the DP may spend and how tightly it bounds (SolveOptions.dpLimit / dpBoundFactors). */
export interface DpLimits {
  dpLimit: number;
  /** The caller's time budget (SolveOptions.shouldStop), asked between layers. */
  stop: () => boolean;
  dpBoundFactors: readonly number[];
}

/**
 * Looks for a choice costing at most cap − 1 on the kept options (per number of items used when
 * `counting`). `counter.dpWork` accumulates the work over every call of one solve; past
 * `limits.dpLimit` the call is aborted.
 */
export function dpSolve(
  p: Problem,
  dual: DualPoint,
  f: Fixed,
  cap: number,
  counting: boolean,
  limits: DpLimits,
  counter: { dpWork: number },
): DpResult {
  const { items, views, n, need, M } = p;
  const { lambda, mu } = dual;
  const { dpLimit, dpBoundFactors, stop } = limits;
  let dpWork = counter.dpWork;
  const B = cap - 1;
  const ordFree = f.free
    .map((_, t) => t)
    .sort((x, y) => f.minValue[x] - f.minValue[y] || items[f.free[x]].key - items[f.free[y]].key);
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
  const topGain = topGains(
    kept.map((k) => k.gains[k.gains.length - 1]),
    Mc,
  );
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
    counter.dpWork = dpWork;
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
}
