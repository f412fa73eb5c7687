/**
 * The optimiser's arguments (docs/domain/optimizer.md#arguments) and their validation. Pure: returns typed
 * issues (the argument and a message) that the service maps to BAD_USER_INPUT. Where the reference
 * silently drops or reinterprets a bad entry (an unknown difficulty or radar element is
 * dropped, all-invalid difficulties mean "no restriction", any search mode but "fastest" means
 * "flexible"), we refuse it and name it.
 */
import { BPI_DIFFICULTIES, RADAR_CATEGORIES, type Difficulty, type RadarCategory } from '../constants';

export const OPTIMIZER_STRATEGIES = ['unplayed', 'played'] as const;
export type OptimizerStrategy = (typeof OPTIMIZER_STRATEGIES)[number];
export const SEARCH_MODES = ['fastest', 'flexible'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const TARGET_MIN = -15;
export const TARGET_MAX = 100;
export const MAX_STEPS_MIN = 1;
export const MAX_STEPS_MAX = 400;
export const DEFAULT_MAX_STEPS = 30;

/** Arguments as they arrive (absent = default). */
export interface OptimizeInput {
  targetBpi: number;
  maxSteps?: number | null;
  strategies?: readonly string[] | null;
  difficulties?: readonly string[] | null;
  searchMode?: string | null;
  radarElements?: readonly string[] | null;
  considerCurrentTotalBpi?: boolean | null;
}

/** Validated arguments with the defaults applied. */
export interface OptimizeSettings {
  targetBpi: number;
  maxSteps: number;
  strategies: ReadonlySet<OptimizerStrategy>;
  difficulties: ReadonlySet<Difficulty>;
  searchMode: SearchMode;
  radarElements: ReadonlySet<RadarCategory>;
  considerCurrentTotalBpi: boolean;
}

export interface InputIssue {
  /** The argument at fault, e.g. `targetBpi`, `difficulties`. */
  argument: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: InputIssue[] };

/** Members of a list argument, each checked against `allowed`; an empty list is refused too. */
function listOf<T extends string>(
  argument: string,
  raw: readonly string[] | null | undefined,
  allowed: readonly T[],
  fallback: readonly T[],
  issues: InputIssue[],
): Set<T> {
  if (raw === undefined || raw === null) return new Set(fallback);
  if (raw.length === 0) {
    issues.push({ argument, message: `${argument} must name at least one of ${allowed.join(', ')}` });
    return new Set();
  }
  const out = new Set<T>();
  for (const v of raw) {
    if ((allowed as readonly string[]).includes(v)) out.add(v as T);
    else
      issues.push({
        argument,
        message: `${argument}: unknown value ${JSON.stringify(v)} (allowed: ${allowed.join(', ')})`,
      });
  }
  return out;
}

export function validateOptimizeInput(input: OptimizeInput): Validated<OptimizeSettings> {
  const issues: InputIssue[] = [];
  const t = input.targetBpi;
  if (typeof t !== 'number' || !Number.isFinite(t) || t < TARGET_MIN || t > TARGET_MAX) {
    issues.push({
      argument: 'targetBpi',
      message: `targetBpi must be a number between ${TARGET_MIN} and ${TARGET_MAX}`,
    });
  }
  const maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < MAX_STEPS_MIN || maxSteps > MAX_STEPS_MAX) {
    issues.push({
      argument: 'maxSteps',
      message: `maxSteps must be an integer between ${MAX_STEPS_MIN} and ${MAX_STEPS_MAX}`,
    });
  }
  const strategies = listOf('strategies', input.strategies, OPTIMIZER_STRATEGIES, OPTIMIZER_STRATEGIES, issues);
  const difficulties = listOf<Difficulty>(
    'difficulties',
    input.difficulties,
    BPI_DIFFICULTIES,
    BPI_DIFFICULTIES,
    issues,
  );
  const radarElements = listOf<RadarCategory>(
    'radarElements',
    input.radarElements,
    RADAR_CATEGORIES,
    RADAR_CATEGORIES,
    issues,
  );
  const mode = input.searchMode ?? 'flexible';
  if (!(SEARCH_MODES as readonly string[]).includes(mode)) {
    issues.push({
      argument: 'searchMode',
      message: `searchMode: unknown value ${JSON.stringify(mode)} (allowed: ${SEARCH_MODES.join(', ')})`,
    });
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: {
      targetBpi: t,
      maxSteps,
      strategies,
      difficulties,
      searchMode: mode as SearchMode,
      radarElements,
      considerCurrentTotalBpi: input.considerCurrentTotalBpi ?? true,
    },
  };
}
