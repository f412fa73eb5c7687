/** The optimizer's input and result types (src/domain/optimizer/plan.ts). */
import type { Difficulty, RadarCategory } from '../constants';

export interface OptimizerChart {
  /** Chart id (ties are broken by it). */
  id: number;
  title: string;
  difficulty: Difficulty;
  level: number;
  notes: number;
  kaidenAvg: number | null;
  wr: number | null;
  coef: number | null;
  radarCategory: RadarCategory | null;
  /** The player's best EX score on the chart; null = unplayed. */
  exScore: number | null;
}

/** The player's radar value per category (src/domain/radar.ts computeRadar); null = no radar. */
export type RadarBpis = Partial<Record<RadarCategory, number>>;

export interface OptimizerTuning {
  /** New EX scores only on multiples of this (1 = every EX score; coarse grids for tests). */
  exStep?: number;
  /** Branch-and-bound node budget (see solver.ts). */
  workLimit?: number;
  /** Dynamic-programme work budget (see solver.ts). */
  dpLimit?: number;
  /**
   * The caller's time budget (solver.ts SolveOptions.shouldStop): once true, every search stops with
   * the best plan found so far and the result says `provenOptimal: false`.
   */
  shouldStop?: () => boolean;
  /**
   * How the caps' "current total" is taken (see the module comment): `scheduled` (default) — the
   * total reached before each step, as the reference; `current` — the player's current total for
   * every step (static; the least EX within those caps is exact); `target` — the target total for
   * every step (more than the reference allows; for measurement only).
   */
  caps?: CapMode;
  /** Bisection steps of the scheduled-caps search (default CAP_SEARCH_STEPS). */
  capSearchSteps?: number;
}

export type CapMode = 'scheduled' | 'current' | 'target';

/** Bisection steps of the scheduled-caps search (solves: 1 + this + 1 at most). */
export const CAP_SEARCH_STEPS = 5;

export interface OptimizationStep {
  rank: number;
  chartId: number;
  title: string;
  difficulty: Difficulty;
  level: number;
  fromBpi: number;
  toBpi: number;
  /** null when unplayed. */
  fromExScore: number | null;
  toExScore: number;
  /** toExScore − fromExScore (from 0 when unplayed). */
  exScoreGap: number;
  /** Increase of the TOTAL BPI by this step (in step order), rounded to 2 decimals. */
  bpiGain: number;
  /** Total BPI after this step, rounded to 2 decimals. */
  cumulativeTotalBpi: number;
  isUnplayed: boolean;
  radarCategory: RadarCategory | null;
  isRadarStrength: boolean;
}

export interface OptimizationResult {
  steps: OptimizationStep[];
  currentTotalBpi: number;
  /** The effective target (after an auto-raise), unrounded. */
  targetTotalBpi: number;
  /** The asked target when it was raised; else null. */
  originalTargetTotalBpi: number | null;
  achievable: boolean;
  alreadyAchieved: boolean;
  totalSongCount: number;
  autoAdjustmentNote: string | null;
  /** When not achievable: the highest total reachable within maxSteps; else null. */
  maxAchievableBpi: number | null;
  /** Σ exScoreGap of the plan. */
  totalExScoreGap: number;
  /**
   * A proven lower bound on the EX a plan reaching the target needs within the caps computed from
   * capTotalBpi (= totalExScoreGap when provenOptimal). When the target is out of reach: the EX of
   * the plan to the highest total.
   */
  exLowerBound: number;
  /** The plan is proven to need the least EX within the caps computed from capTotalBpi. */
  provenOptimal: boolean;
  /** The total BPI the caps of the final search were computed from (unrounded). */
  capTotalBpi: number;
}
