/**
 * The per-chart rules of a plan step (src/domain/optimizer/plan.ts): the realism cap (humanCap),
 * the minimum gain, and the new-EX range they leave.
 */
import { exScoreForBpi, safeBpi, type ChartDef } from '../bpi';
import type { OptimizerChart } from './plan-types';

export const MIN_BPI_GAIN = 0.5;
export const MIN_EX_GAIN = 5;
const CAP_RADAR_MARGIN = 3;
const CAP_TOTAL_MARGIN = 12;
const CAP_BASE_MARGIN = 5;
export const MAX_BPI = 100;
export const UNPLAYED_BPI = -15;
export const RAISE_MULTIPLIER = 1.3;
export const RAISE_MARGIN = 0.5;

export const raiseNote = (raised: number) =>
  `指定された楽曲数ではより高い総合BPIが見込まれるため、自動的に目標総合BPIを${raised.toFixed(2)}へ引き上げました。`;
export const FALLBACK_NOTE = '選択された要素の楽曲のみでは目標に到達できなかったため、全楽曲から再探索しました。';

export const defOf = (c: OptimizerChart): ChartDef => ({
  notes: c.notes,
  kaidenAvg: c.kaidenAvg,
  wr: c.wr,
  coef: c.coef,
});

/** The chart's current BPI as the optimiser sees it: the best EX's BPI, −15 when unplayed. */
export function currentBpiOf(c: OptimizerChart): number {
  return c.exScore === null ? UNPLAYED_BPI : (safeBpi(c.exScore, defOf(c)) ?? UNPLAYED_BPI);
}

/** humanCap (docs/domain/optimizer.md#caps) with a fixed current total. */
export function humanCap(
  fromBpi: number,
  radarBpi: number | null,
  currentTotal: number,
  considerCurrentTotalBpi: boolean,
): number {
  const base = considerCurrentTotalBpi
    ? Math.min(
        MAX_BPI,
        radarBpi !== null
          ? Math.min(radarBpi + CAP_RADAR_MARGIN, currentTotal + CAP_TOTAL_MARGIN)
          : currentTotal + CAP_TOTAL_MARGIN,
      )
    : MAX_BPI;
  return Math.min(MAX_BPI, Math.max(base, fromBpi + CAP_BASE_MARGIN));
}

/** The highest new EX a cap allows: min(2·notes, max(⌈EX for the cap⌉, current + 5)); null without a definition. */
export function capEx(c: OptimizerChart, cap: number): number | null {
  const m = c.notes * 2;
  const ex = exScoreForBpi(Math.min(cap, MAX_BPI), defOf(c));
  if (ex === null || !(m > 0)) return null;
  return Math.min(m, Math.max(ex, (c.exScore ?? 0) + MIN_EX_GAIN));
}

/** The lowest new EX the minimum-gain rule allows: the smaller of +5 EX and the first EX gaining +0.5 BPI. */
export function exLow(c: OptimizerChart, fromBpi: number): number {
  const def = defOf(c);
  const cur = c.exScore ?? 0;
  const half = firstEx(cur + 1, c.notes * 2, (e) => (safeBpi(e, def) ?? -Infinity) >= fromBpi + MIN_BPI_GAIN);
  return Math.max(cur + 1, Math.min(cur + MIN_EX_GAIN, half ?? Infinity));
}

/** The allowed new EX range [lo, hi] of a chart under a cap (null when empty), see the module comment. */
export function exRange(c: OptimizerChart, fromBpi: number, cap: number): { lo: number; hi: number } | null {
  const hi = capEx(c, cap);
  if (hi === null) return null;
  const lo = exLow(c, fromBpi);
  return lo <= hi ? { lo, hi } : null;
}

/** The smallest e in [from, to] with ok(e) (ok monotone), or null. */
export function firstEx(from: number, to: number, ok: (e: number) => boolean): number | null {
  if (from > to || !ok(to)) return null;
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
