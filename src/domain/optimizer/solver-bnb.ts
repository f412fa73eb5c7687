/**
 * Step 6 of the solver (src/domain/optimizer/solver.ts), only when the DP ran out of budget: a
 * depth-first branch-and-bound over the items fixing left, children in order of their Lagrangian
 * bound at (λ*, μ*) (O(1) per node), an option that closes R ending its branch, within a node
 * budget (work, never time: the answer is deterministic).
 */
import { EPS, type DualPoint, type Problem } from './solver-items';
import type { Fixed } from './solver-fixing';

/**
 * Searches for a choice cheaper than the incumbent (`inc.best`, cost `inc.U`), improving it in
 * place. `aborted`: the node budget ran out before the search completed (no optimality proof).
 */
export function branchAndBound(
  p: Problem,
  dual: DualPoint,
  f: Fixed,
  inc: { best: Int32Array; U: number },
  workLimit: number,
  stop: () => boolean = () => false,
): { work: number; aborted: boolean } {
  const { items, views, need, M } = p;
  const { lambda, mu } = dual;
  const best = inc.best;
  let U = inc.U;
  let work = 0;
  let aborted = false;
  const F = f.free.length;
  const ord = f.free
    .map((_, t) => t)
    .sort((x, y) => f.minValue[x] - f.minValue[y] || items[f.free[x]].key - items[f.free[y]].key);
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
  inc.U = U;
  return { work, aborted };
}
