/**
 * Steps 1 and 3 of the solver (src/domain/optimizer/solver.ts): the max plan (the largest gain
 * within M items: feasibility), and a first integral solution — the LP's segments walked in order,
 * closed at R by the cheapest exact move, then improved by a local search.
 */
import { choiceTotals, maxGainOf, type ItemView, type Problem } from './solver-items';
import type { Lp, Relaxation } from './solver-relaxation';

/** Step 1: the M largest per-item maxima (ties: cheaper, then key) — their sum, and the plan taking them. */
export function maxPlanOf(p: Problem): { top: number; maxPlan: () => Int32Array } {
  const { items, views, n, M } = p;
  const withOptions: number[] = [];
  for (let i = 0; i < n; i++) if (views[i].size > 0) withOptions.push(i);
  const lastOf = (i: number) => views[i].size - 1;
  const maxGain = (i: number) => views[i].gain(lastOf(i));
  withOptions.sort(
    (a, b) =>
      maxGain(b) - maxGain(a) || views[a].cost(lastOf(a)) - views[b].cost(lastOf(b)) || items[a].key - items[b].key,
  );
  const maxPlan = () => {
    const ch = new Int32Array(n).fill(-1);
    for (let t = 0; t < Math.min(M, withOptions.length); t++) ch[withOptions[t]] = lastOf(withOptions[t]);
    return ch;
  };
  let top = 0;
  for (let t = 0; t < Math.min(M, withOptions.length); t++) top += maxGain(withOptions[t]);
  return { top, maxPlan };
}

/** The cheapest single move (item, option) adding at least `r` gain to a choice of `cnt` items. */
type BestClosing = (
  ch: Int32Array,
  r: number,
  cnt: number,
  exclude?: number,
) => { i: number; j: number; delta: number } | null;

/**
 * Step 3: an integral solution from the LP, closed exactly, then improved locally. When the count
 * binds (μ* > 0), the walk is also tried at larger μ (fewer, bigger changes leave room for the
 * closing move); the cheapest result is kept: the incumbent and its cost U.
 */
export function firstSolution(
  p: Problem,
  relaxation: Relaxation,
  lp: Lp,
  mu: number,
  maxPlan: () => Int32Array,
): { best: Int32Array; U: number } {
  const { items, views, n, need, M } = p;
  const maxGain = (i: number) => maxGainOf(views, i);
  const summary = (ch: Int32Array) => choiceTotals(views, ch);
  const gainOf = (i: number, j: number) => (j < 0 ? 0 : views[i].gain(j));
  const costOf = (i: number, j: number) => (j < 0 ? 0 : views[i].cost(j));
  /** The cheapest single move (item, option) adding at least `r` gain to `ch`. */
  const bestClosing: BestClosing = (ch, r, cnt, exclude = -1) => {
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
      if (!best || delta < best.delta || (delta === best.delta && items[i].key < items[best.i].key))
        best = { i, j, delta };
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
      const alt = walk(relaxation.lpAt(mu * f));
      const c = summary(alt).cost;
      if (c < U) {
        U = c;
        best.set(alt);
      }
    }
  }
  return { best, U };
}

/**
 * Local search on a feasible choice: (a) spend the surplus gain where it saves most; (b) drop one
 * chosen item and close the gap with the cheapest single move elsewhere (first improvement, items
 * in key order). Repeats while the cost drops (each move lowers the integer cost, so it ends).
 */
function localSearch(views: readonly ItemView[], ch: Int32Array, need: number, bestClosing: BestClosing): void {
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
