import fc from 'fast-check';
import {
  DP_BOUND_FACTORS,
  explicitItem,
  solveMinCost,
  suffixLagrangian,
  topGains,
  upperHull,
  type SolverItem,
} from '../../src/domain/optimizer/solver';

/** Every combination (one option or none per item, at most M items): the least cost reaching `need`. */
function bruteForce(
  items: { costs: number[]; gains: number[] }[],
  need: number,
  M: number,
): { cost: number; maxGain: number } {
  let best = Infinity;
  let maxGain = 0;
  const walk = (i: number, cost: number, gain: number, count: number) => {
    if (i === items.length) {
      if (gain >= need) best = Math.min(best, cost);
      maxGain = Math.max(maxGain, gain);
      return;
    }
    walk(i + 1, cost, gain, count);
    if (count === M) return;
    items[i].costs.forEach((c, j) => walk(i + 1, cost + c, gain + items[i].gains[j], count + 1));
  };
  walk(0, 0, 0, 0);
  return { cost: best, maxGain };
}

/** Exact least cost without a count limit: a plain DP over the total cost. */
function dpMinCost(items: { costs: number[]; gains: number[] }[], need: number): number {
  const total = items.reduce((s, it) => s + it.costs[it.costs.length - 1], 0);
  const dp = new Float64Array(total + 1);
  for (const it of items) {
    for (let C = total; C >= 0; C--) {
      let g = dp[C];
      for (let j = 0; j < it.costs.length && it.costs[j] <= C; j++) g = Math.max(g, dp[C - it.costs[j]] + it.gains[j]);
      dp[C] = g;
    }
  }
  for (let C = 0; C <= total; C++) if (dp[C] >= need) return C;
  return Infinity;
}

const build = (raw: { costs: number[]; gains: number[] }[]): SolverItem[] =>
  raw.map((r, i) => explicitItem(i + 1, r.costs, r.gains));

/** An item: increasing integer costs, non-decreasing positive gains. */
const arbItem = (maxOptions: number, maxStep: number) =>
  fc
    .array(fc.record({ dc: fc.integer({ min: 1, max: maxStep }), dg: fc.double({ min: 0, max: 50, noNaN: true }) }), {
      minLength: 1,
      maxLength: maxOptions,
    })
    .map((steps) => {
      const costs: number[] = [];
      const gains: number[] = [];
      let c = 0;
      let g = 0.5;
      for (const s of steps) {
        c += s.dc;
        g += s.dg;
        costs.push(c);
        gains.push(g);
      }
      return { costs, gains };
    });

describe('solver', () => {
  it('upper hull from the origin keeps the efficient points only', () => {
    // Points (1,1), (2,4), (3,5), (4,8): from (0,0), (2,4) has slope 2; (4,8) is on the line through the origin
    // with slope 2 as well, so (2,4) lies on segment (0,0)→(4,8) and is dropped; (1,1) and (3,5) are below it.
    expect(Array.from(upperHull([1, 2, 3, 4], [1, 4, 5, 8]))).toEqual([3]);
    // Concave: (1,4), (2,6), (3,7): slopes 4, 2, 1 → all kept.
    expect(Array.from(upperHull([1, 2, 3], [4, 6, 7]))).toEqual([0, 1, 2]);
  });

  it('hand-worked: the repair beats the efficiency order', () => {
    // need 10. Item 1: cost 4 → gain 8 (2 per unit), cost 6 → gain 12. Item 2: cost 3 → gain 3, cost 5 → gain 6.
    // Item 3: cost 7 → gain 10.
    // Options reaching 10: item 1 at 6 (12) = 6; item 1 at 4 + item 2 at 3: 8 + 3 = 11 for 7; item 3: 7;
    // item 2 at 5 + item 1 at 4: 14 for 9. Least: 6 (item 1's second option alone).
    const items = build([
      { costs: [4, 6], gains: [8, 12] },
      { costs: [3, 5], gains: [3, 6] },
      { costs: [7], gains: [10] },
    ]);
    const r = solveMinCost(items, { need: 10, maxCount: 3 });
    expect(r).toMatchObject({ feasible: true, cost: 6, gain: 12, count: 1, optimal: true, lowerBound: 6 });
    expect(Array.from(r.choice)).toEqual([1, -1, -1]);
  });

  it('hand-worked: the count limit changes the answer', () => {
    // need 9. Items: A cost 2 → 5, B cost 2 → 5, C cost 7 → 9.
    // M = 2: A + B = 4 (gain 10). M = 1: only C reaches 9 → 7.
    const items = build([
      { costs: [2], gains: [5] },
      { costs: [2], gains: [5] },
      { costs: [7], gains: [9] },
    ]);
    expect(solveMinCost(items, { need: 9, maxCount: 2 })).toMatchObject({ cost: 4, count: 2, optimal: true });
    expect(solveMinCost(items, { need: 9, maxCount: 1 })).toMatchObject({ cost: 7, count: 1, optimal: true });
    // need 11 with M = 1: out of reach; the max plan is C (the largest gain, 9).
    const r = solveMinCost(items, { need: 11, maxCount: 1 });
    expect(r).toMatchObject({ feasible: false, gain: 9, cost: 7 });
  });

  it('ties go to the smaller key', () => {
    // Two identical items: the one with key 1 (index 0) is chosen.
    const r = solveMinCost(
      build([
        { costs: [3], gains: [5] },
        { costs: [3], gains: [5] },
      ]),
      { need: 4, maxCount: 1 },
    );
    expect(Array.from(r.choice)).toEqual([0, -1]);
  });

  it('equals the exhaustive optimum on small random instances (with the DP, and with the branch-and-bound alone)', () => {
    fc.assert(
      fc.property(
        fc.array(arbItem(5, 8), { minLength: 1, maxLength: 6 }),
        fc.double({ min: 0.1, max: 1.2, noNaN: true }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        (raw, frac, M, withDp) => {
          const total = raw.reduce((s, r) => s + r.gains[r.gains.length - 1], 0);
          const need = total * frac;
          const r = solveMinCost(build(raw), { need, maxCount: M, dpLimit: withDp ? undefined : 0 });
          const bf = bruteForce(raw, need, M);
          if (bf.cost === Infinity) {
            expect(r.feasible).toBe(false);
            expect(r.gain).toBeCloseTo(bf.maxGain, 9);
          } else {
            expect(r.feasible).toBe(true);
            expect(r.cost).toBe(bf.cost);
            expect(r.gain).toBeGreaterThanOrEqual(need);
            expect(r.count).toBeLessThanOrEqual(M);
            expect(r.optimal).toBe(true);
            expect(r.lowerBound).toBe(r.cost);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('equals an exact DP on larger instances (items long enough to start as blocks)', () => {
    fc.assert(
      fc.property(
        fc.array(arbItem(160, 3), { minLength: 2, maxLength: 14 }),
        fc.double({ min: 0.05, max: 0.9, noNaN: true }),
        (raw, frac) => {
          const total = raw.reduce((s, r) => s + r.gains[r.gains.length - 1], 0);
          const need = total * frac;
          const r = solveMinCost(build(raw), { need, maxCount: raw.length });
          expect(r.feasible).toBe(true);
          expect(r.gain).toBeGreaterThanOrEqual(need);
          expect(r.lowerBound).toBeLessThanOrEqual(r.cost);
          if (r.optimal) expect(r.cost).toBe(dpMinCost(raw, need));
          else expect(r.lowerBound).toBeLessThanOrEqual(dpMinCost(raw, need));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the counting DP and the branch-and-bound agree on medium instances with a binding count', () => {
    fc.assert(
      fc.property(
        fc.array(arbItem(8, 6), { minLength: 8, maxLength: 24 }),
        fc.double({ min: 0.2, max: 0.9, noNaN: true }),
        fc.integer({ min: 2, max: 6 }),
        (raw, frac, M) => {
          const top = raw
            .map((r) => r.gains[r.gains.length - 1])
            .sort((a, b) => b - a)
            .slice(0, M)
            .reduce((s, g) => s + g, 0);
          const need = top * frac;
          const dp = solveMinCost(build(raw), { need, maxCount: M });
          const bb = solveMinCost(build(raw), { need, maxCount: M, dpLimit: 0, workLimit: 5_000_000 });
          expect(dp.optimal).toBe(true);
          expect(dp.count).toBeLessThanOrEqual(M);
          expect(dp.gain).toBeGreaterThanOrEqual(need);
          if (bb.optimal) expect(dp.cost).toBe(bb.cost);
          else expect(dp.cost).toBeLessThanOrEqual(bb.cost);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('suffix Lagrangian bounds of the DP, hand-worked', () => {
    // μ = 1. Item 0: (cost 2, gain 4), (5, 6), may stay; item 1: (3, 2), must change; item 2: (1, 1), (4, 5), may stay.
    // λ = 1: item 0: min(0, 2+1−4 = −1, 5+1−6 = 0) = −1; item 1: 3+1−2 = 2; item 2: min(0, 1+1−1 = 1, 4+1−5 = 0) = 0.
    //   suffixes from d = 0..3: −1+2+0 = 1, 2+0 = 2, 0, 0.
    // λ = 2: item 0: min(0, 2+1−8 = −5, 5+1−12 = −6) = −6; item 1: 3+1−4 = 0; item 2: min(0, 1+1−2 = 0, 4+1−10 = −5) = −5.
    //   suffixes: −6+0−5 = −11, 0−5 = −5, −5, 0.
    const items = [
      { costs: [2, 5], gains: [4, 6], mayStay: true },
      { costs: [3], gains: [2], mayStay: false },
      { costs: [1, 4], gains: [1, 5], mayStay: true },
    ];
    const s = suffixLagrangian([1, 2], 1, items);
    expect(Array.from(s)).toEqual([1, 2, 0, 0, -11, -5, -5, 0]);
    // As a bound from the start (C = 0, r = 7 still missing, m = 2 items allowed): λ = 1: 0 + 7 − 1·2 + 1 = 6;
    // λ = 2: 14 − 2 − 11 = 1. The cheapest completion: item 1 must change (cost 3, gain 2), 5 more from one
    // other item: item 2's (4, 5) → cost 7 (item 0's (5, 6) → 8; item 0's (2, 4) leaves 1 missing).
    // 7 ≥ max(6, 1): the bounds hold.
    const bound = (k: number, lambda: number) => 0 + lambda * 7 - 1 * 2 + s[k * 4];
    expect(bound(0, 1)).toBe(6);
    expect(bound(1, 2)).toBe(1);
  });

  it('reach bound of the DP (topGains), hand-worked', () => {
    // Largest kept gains of the items in DP order: 2, 7, 1, 5.
    // Without a count (M = 0): suffix sums 2+7+1+5 = 15, 7+1+5 = 13, 1+5 = 6, 5, 0.
    expect(Array.from(topGains([2, 7, 1, 5], 0))).toEqual([15, 13, 6, 5, 0]);
    // M = 2: row d = [0, the largest of d.., the two largest of d..]:
    // d = 0 {2, 7, 1, 5}: 7, 7+5 = 12; d = 1 {7, 1, 5}: 7, 12; d = 2 {1, 5}: 5, 6; d = 3 {5}: 5, 5; d = 4 {}: 0, 0.
    expect(Array.from(topGains([2, 7, 1, 5], 2))).toEqual([0, 7, 12, 0, 7, 12, 0, 5, 6, 0, 5, 5, 0, 0, 0]);
    // In use: need 13, at most 2 items. Items (cost → gain): A 1 → 2, B 4 → 7, C 1 → 1, D 3 → 5.
    // Two items reach at most 7 + 5 = 12 < 13: out of reach; the max plan is B + D (gain 12).
    const items = build([
      { costs: [1], gains: [2] },
      { costs: [4], gains: [7] },
      { costs: [1], gains: [1] },
      { costs: [3], gains: [5] },
    ]);
    expect(solveMinCost(items, { need: 13, maxCount: 2 })).toMatchObject({ feasible: false, gain: 12 });
    // need 12 with 3 items: B + D = 7 + 5 = 12 for 4 + 3 = 7; A + B + D = 14 for 8; A + B + C = 10 (short).
    // Least: 7 (B + D).
    const r = solveMinCost(items, { need: 12, maxCount: 3 });
    expect(r).toMatchObject({ feasible: true, cost: 7, gain: 12, optimal: true });
    expect(Array.from(r.choice)).toEqual([-1, 0, -1, 0]);
  });

  it("the DP's extra completion bounds change the work, never the answer", () => {
    fc.assert(
      fc.property(
        fc.array(arbItem(12, 4), { minLength: 6, maxLength: 30 }),
        fc.double({ min: 0.1, max: 0.8, noNaN: true }),
        fc.integer({ min: 1, max: 30 }),
        (raw, frac, M) => {
          const top = raw
            .map((r) => r.gains[r.gains.length - 1])
            .sort((a, b) => b - a)
            .slice(0, M)
            .reduce((s, g) => s + g, 0);
          const need = top * frac;
          const plain = solveMinCost(build(raw), { need, maxCount: M, dpBoundFactors: [] });
          const tight = solveMinCost(build(raw), { need, maxCount: M });
          expect(Array.from(tight.choice)).toEqual(Array.from(plain.choice));
          expect(tight).toMatchObject({ cost: plain.cost, optimal: plain.optimal, lowerBound: plain.lowerBound });
          expect(tight.dpWork).toBeLessThanOrEqual(plain.dpWork);
        },
      ),
      { numRuns: 200 },
    );
    // A fixed medium instance (an LCG): 60 items of 1–20 options with convex-then-flat gains; the extra bounds
    // drop states the bound at λ* keeps.
    let a = 7;
    const rnd = () => {
      a = (a * 1103515245 + 12345) % 2147483648;
      return a / 2147483648;
    };
    const raw = Array.from({ length: 60 }, () => {
      const k = 1 + Math.floor(rnd() * 20);
      let c = 0;
      let g = 0;
      const costs: number[] = [];
      const gains: number[] = [];
      for (let j = 0; j < k; j++) {
        c += 1 + Math.floor(rnd() * 3);
        g += 0.1 + rnd() * (j + 1);
        costs.push(c);
        gains.push(g);
      }
      return { costs, gains };
    });
    const need = raw.reduce((s, r) => s + r.gains[r.gains.length - 1], 0) * 0.3;
    const plain = solveMinCost(build(raw), { need, maxCount: 60, dpBoundFactors: [] });
    const tight = solveMinCost(build(raw), { need, maxCount: 60, dpBoundFactors: DP_BOUND_FACTORS });
    expect(plain.optimal && tight.optimal).toBe(true);
    expect(tight.cost).toBe(plain.cost);
    expect(tight.cost).toBe(dpMinCost(raw, need));
    expect(tight.dpWork).toBeLessThan(plain.dpWork);
  });

  it('branch-and-bound alone (no DP): exact within its budget, a valid bound when stopped', () => {
    // 40 random items (a fixed LCG), a binding count limit: one node of branch-and-bound proves nothing.
    let a = 13;
    const rnd = () => {
      a = (a * 1103515245 + 12345) % 2147483648;
      return a / 2147483648;
    };
    const raw = Array.from({ length: 40 }, () => {
      const k = 1 + Math.floor(rnd() * 4);
      let c = 0;
      let g = 0;
      const costs: number[] = [];
      const gains: number[] = [];
      for (let j = 0; j < k; j++) {
        c += 1 + Math.floor(rnd() * 6);
        g += 1 + rnd() * 8;
        costs.push(c);
        gains.push(Math.round(g * 100) / 100);
      }
      return { costs, gains };
    });
    const need = 60 + rnd() * 40;
    const M = 4 + Math.floor(rnd() * 5);
    const cut = solveMinCost(build(raw), { need, maxCount: M, workLimit: 1, dpLimit: 0 });
    expect(cut.optimal).toBe(false);
    expect(cut.feasible).toBe(true);
    expect(cut.gain).toBeGreaterThanOrEqual(need);
    expect(cut.count).toBeLessThanOrEqual(M);
    const bb = solveMinCost(build(raw), { need, maxCount: M, dpLimit: 0 });
    const dp = solveMinCost(build(raw), { need, maxCount: M });
    expect(bb.optimal).toBe(true);
    expect(dp.optimal).toBe(true);
    expect(bb.cost).toBe(dp.cost);
    expect(bb.lowerBound).toBe(bb.cost);
    expect(cut.lowerBound).toBeLessThanOrEqual(bb.cost);
    expect(bb.cost).toBeLessThan(cut.cost);
  });
});
