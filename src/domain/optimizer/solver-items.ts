/**
 * The solver's view of its input (src/domain/optimizer/solver.ts): the items, their memoised gains
 * and the relaxation points of each (exact, or optimistic blocks for items with many options), and
 * the problem every stage reads.
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

/** Numerical tolerance of the bounds (costs are integers; gains are floats). */
export const EPS = 1e-7;
/** Items with more options than this start as optimistic blocks. */
const EXACT_SIZE = 96;
const BLOCKS = 48;

/** Grown buffer size: at least `want`, doubling. */
export const grownSize = (have: number, want: number) => Math.max(want, 2 * have, 1024);

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
export class ItemView {
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
    this.memo =
      item.gainMemo && item.gainMemo.length >= item.size ? item.gainMemo : new Float64Array(item.size).fill(NaN);
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

/** One solve's problem, as every stage reads it. */
export interface Problem {
  items: readonly SolverItem[];
  views: readonly ItemView[];
  n: number;
  /** The gain to reach (R). */
  need: number;
  /** At most this many items may change. */
  M: number;
}

/** The Lagrangian multipliers the relaxation settled on (step 2), and the bound L(λ*, μ*). */
export interface DualPoint {
  lambda: number;
  mu: number;
  lStar: number;
}

/** Cost, gain and number of changed items of a choice (option index per item, −1 = unchanged). */
export function choiceTotals(
  views: readonly ItemView[],
  ch: Int32Array,
): { cost: number; gain: number; count: number } {
  let cost = 0;
  let gain = 0;
  let count = 0;
  for (let i = 0; i < views.length; i++) {
    if (ch[i] < 0) continue;
    cost += views[i].cost(ch[i]);
    gain += views[i].gain(ch[i]);
    count++;
  }
  return { cost, gain, count };
}

/** The largest gain option of item i (its last option). */
export const maxGainOf = (views: readonly ItemView[], i: number) => views[i].gain(views[i].size - 1);
