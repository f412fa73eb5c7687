/**
 * The reference system's optimiser (domain-stats.md §6.5–§6.6), ported for comparison only: a
 * randomised greedy — score every remaining candidate by contribution gained per EX point (plus
 * bonuses), pick one of the top 5 / 20 at random, raise it by a heuristic amount, repeat — run up
 * to 100 times within a shared budget of 2,000,000 candidate scorings. Math.random is replaced by a
 * seeded generator so that the bench is repeatable. Not used by the service.
 *
 * Same inputs as src/domain/optimizer (chart list = the song set, settings, radar values); every
 * execution's result is kept so the bench can take the best of the retries, and `answer` is what
 * the reference returns (the first achievable execution, else the one with the highest total).
 */
import { calcBpi, exScoreForBpi, round2 } from '../src/domain/bpi';
import { RADAR_CATEGORIES } from '../src/domain/constants';
import type { OptimizeSettings } from '../src/domain/optimizer/input';
import { PowerMean } from '../src/domain/optimizer/math';
import {
  currentBpiOf,
  raiseNote,
  strongCategories,
  type OptimizerChart,
  type RadarBpis,
} from '../src/domain/optimizer/plan';

/** mulberry32: a small seeded PRNG with values in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GreedyStep {
  chartId: number;
  fromBpi: number;
  toBpi: number;
  fromExScore: number | null;
  toExScore: number;
  exScoreGap: number;
  cumulativeTotalBpi: number;
}

export interface GreedyRun {
  steps: GreedyStep[];
  /** Unrounded total after the last step. */
  finalTotal: number;
  targetTotalBpi: number;
  achievable: boolean;
  alreadyAchieved: boolean;
  maxAchievableBpi: number | null;
  autoAdjustmentNote: string | null;
  totalExScoreGap: number;
}

export interface GreedyOutcome {
  /** What the reference answers (first achievable run, else the highest maxAchievableBpi). */
  answer: GreedyRun;
  /** Every execution, in order. */
  runs: GreedyRun[];
  /** Candidate scorings spent (budget 2,000,000). */
  ops: number;
}

const MIN_BPI_GAIN = 0.5;
const MIN_EX_GAIN = 5;
const FLEXIBLE_BUFFER = 1.15;
const ABSOLUTE_MAX_STEPS = 600;
const MAX_TOTAL_SCORING_OPS = 2_000_000;
const MAX_RETRIES = 100;

interface Song {
  chart: OptimizerChart;
  currentBpi: number;
  radarBpi: number | null;
}

export function referenceGreedy(
  charts: readonly OptimizerChart[],
  settings: OptimizeSettings,
  radar: RadarBpis | null,
  rng: () => number,
): GreedyOutcome {
  const budget = { left: MAX_TOTAL_SCORING_OPS };
  const radarFilter = settings.radarElements.size < RADAR_CATEGORIES.length;
  const runs: GreedyRun[] = [];
  let answer: GreedyRun | null = null;
  for (let r = 0; r < MAX_RETRIES; r++) {
    const run = execute(charts, settings, radar, rng, budget, radarFilter);
    runs.push(run);
    if (run.achievable || run.alreadyAchieved) {
      answer = run;
      break;
    }
    const score = (x: GreedyRun) => x.maxAchievableBpi ?? -Infinity;
    if (!answer || score(run) > score(answer)) answer = run;
  }
  return { answer: answer!, runs, ops: MAX_TOTAL_SCORING_OPS - budget.left };
}

/**
 * All 100 executions regardless of success (the bench's "best of its 100 retries"), sharing the
 * one scoring budget as the reference's retries do.
 */
export function referenceGreedyAllRuns(
  charts: readonly OptimizerChart[],
  settings: OptimizeSettings,
  radar: RadarBpis | null,
  rng: () => number,
): GreedyRun[] {
  const budget = { left: MAX_TOTAL_SCORING_OPS };
  const radarFilter = settings.radarElements.size < RADAR_CATEGORIES.length;
  const runs: GreedyRun[] = [];
  for (let r = 0; r < MAX_RETRIES; r++) runs.push(execute(charts, settings, radar, rng, budget, radarFilter));
  return runs;
}

function execute(
  charts: readonly OptimizerChart[],
  settings: OptimizeSettings,
  radar: RadarBpis | null,
  rng: () => number,
  budget: { left: number },
  radarFilter: boolean,
): GreedyRun {
  const n = charts.length;
  const target = settings.targetBpi;
  const empty = (over: Partial<GreedyRun>): GreedyRun => ({
    steps: [],
    finalTotal: -15,
    targetTotalBpi: target,
    achievable: false,
    alreadyAchieved: false,
    maxAchievableBpi: null,
    autoAdjustmentNote: null,
    totalExScoreGap: 0,
    ...over,
  });
  if (n === 0) return empty({});
  const pm = new PowerMean(n);
  const fastest = settings.searchMode === 'fastest';
  const consider = settings.considerCurrentTotalBpi;
  const strong = strongCategories(radar);
  const songs: Song[] = charts.map((c) => ({
    chart: c,
    currentBpi: currentBpiOf(c),
    radarBpi: c.radarCategory && radar && typeof radar[c.radarCategory] === 'number' ? radar[c.radarCategory]! : null,
  }));
  const unplayedOf = (s: Song) => s.chart.exScore === null || s.currentBpi <= -15;
  const candidates = songs.filter((s) => {
    if (radarFilter && (!s.chart.radarCategory || !settings.radarElements.has(s.chart.radarCategory))) return false;
    if (!settings.strategies.has(unplayedOf(s) ? 'unplayed' : 'played')) return false;
    if (s.chart.level !== 12) return false;
    return settings.difficulties.has(s.chart.difficulty);
  });
  let initialSum = 0;
  for (const s of songs) initialSum += pm.contribution(s.currentBpi);
  const initialTotal = pm.totalFromSum(initialSum);
  if (initialTotal >= target) return empty({ finalTotal: initialTotal, achievable: true, alreadyAchieved: true });

  let effective = target;
  let note: string | null = null;
  if (candidates.length > 0 && settings.maxSteps > 1) {
    const minViable = Math.abs(pm.contribution(initialTotal + MIN_BPI_GAIN) - pm.contribution(initialTotal));
    const gap = pm.sumForBpi(target) - initialSum;
    if (gap > 0 && gap / settings.maxSteps < minViable) {
      const raised = Math.min(100, pm.totalFromSum(initialSum + minViable * settings.maxSteps * 1.3));
      if (raised > target + 0.5) {
        effective = raised;
        note = raiseNote(raised);
      }
    }
  }
  const targetSum = pm.sumForBpi(effective);
  const steps: GreedyStep[] = [];
  const used = new Set<number>();
  let sum = initialSum;
  let total = initialTotal;
  let carry = 0;
  let totalEx = 0;
  const caps = (s: Song) => {
    const capBase = consider ? total : target;
    const userCapability = Math.max(capBase, s.radarBpi ?? capBase);
    const hb = consider ? Math.min(100, s.radarBpi !== null ? Math.min(s.radarBpi + 3, total + 12) : total + 12) : 100;
    return { userCapability, humanCap: Math.min(100, Math.max(hb, s.currentBpi + 5)) };
  };
  const def = (s: Song) => ({ notes: s.chart.notes, kaidenAvg: s.chart.kaidenAvg, wr: s.chart.wr, coef: s.chart.coef });

  while (
    total < effective - 0.001 &&
    steps.length < settings.maxSteps &&
    steps.length < ABSOLUTE_MAX_STEPS &&
    budget.left > 0
  ) {
    const pool = candidates.filter((s) => !used.has(s.chart.id));
    if (pool.length === 0) break;
    budget.left -= pool.length;
    const remainingSteps = Math.max(1, settings.maxSteps - steps.length);
    const remainingGap = targetSum - sum;
    const scored: { s: Song; score: number }[] = [];
    for (const s of pool) {
      const from = s.currentBpi;
      const { userCapability, humanCap } = caps(s);
      const unplayed = unplayedOf(s);
      let est: number;
      if (unplayed) {
        const bonus = fastest ? 2 + rng() * 3 : rng() * 2;
        est = Math.min(userCapability + bonus, humanCap);
      } else {
        est = pm.bpiFromContribution(
          pm.contribution(from) + remainingGap / (remainingSteps * (fastest ? 1 : FLEXIBLE_BUFFER)),
        );
        est = Math.min(est, humanCap);
      }
      est = Math.min(Math.max(est, from + MIN_BPI_GAIN, -15), 100);
      const dC = Math.max(0, pm.contribution(est) - pm.contribution(from));
      const exGain = Math.max(1, (exScoreForBpi(est, def(s)) ?? 0) - (s.chart.exScore ?? 0));
      if (exGain < MIN_EX_GAIN && est - from < MIN_BPI_GAIN) continue;
      let score = (dC / exGain) * 1000;
      if (unplayed) score += 0.4;
      if (s.chart.radarCategory && strong.has(s.chart.radarCategory)) score += 0.3;
      if (s.radarBpi !== null) {
        const weakness = total - s.radarBpi;
        if (weakness > 10) score -= 0.15 * (weakness / 10);
      }
      scored.push({ s, score });
    }
    if (scored.length === 0) break;
    scored.sort((a, b) => b.score - a.score);
    const top = scored.slice(0, Math.min(scored.length, fastest ? 5 : 20));
    const pick =
      top.length > 1 ? (fastest ? Math.floor(Math.pow(rng(), 2) * top.length) : Math.floor(rng() * top.length)) : 0;
    const s = top[pick].s;
    const from = s.currentBpi;
    const { userCapability, humanCap } = caps(s);
    let next: number;
    if (fastest) {
      const growth = from < 0 ? 15 : Math.max(3, 10 - from / 20);
      const required = pm.bpiFromContribution(pm.contribution(from) + remainingGap);
      next = Math.max(Math.min(required, humanCap, from + growth), from + MIN_BPI_GAIN);
    } else {
      if (unplayedOf(s)) {
        next = Math.max(Math.min(userCapability + rng() * 2, humanCap), from + MIN_BPI_GAIN);
      } else {
        const ideal = pm.bpiFromContribution(pm.contribution(from) + remainingGap / (remainingSteps * FLEXIBLE_BUFFER));
        const limit = userCapability - from > 15 ? 8 : 3;
        next = Math.max(Math.min(ideal, from + limit + rng(), humanCap), from + MIN_BPI_GAIN);
      }
      if (steps.length === settings.maxSteps - 1 || pool.length === 1) {
        const closing = pm.bpiFromContribution(pm.contribution(from) + remainingGap);
        if (closing <= humanCap && closing > from + MIN_BPI_GAIN) next = closing;
      }
    }
    next = Math.min(100, next);
    const currentEx = s.chart.exScore ?? 0;
    const raw = (exScoreForBpi(next, def(s)) ?? 0) + carry;
    let toEx = Math.round(raw);
    carry = raw - toEx;
    if (toEx < currentEx + MIN_EX_GAIN) {
      toEx = currentEx + MIN_EX_GAIN;
      carry = 0;
    }
    if (toEx > s.chart.notes * 2) {
      toEx = s.chart.notes * 2;
      carry = 0;
    }
    const actual = calcBpi(toEx, def(s)) ?? from;
    used.add(s.chart.id);
    if (toEx - currentEx < MIN_EX_GAIN && actual - from < MIN_BPI_GAIN) continue;
    sum += pm.contribution(actual) - pm.contribution(from);
    const nextTotal = pm.totalFromSum(sum);
    steps.push({
      chartId: s.chart.id,
      fromBpi: from,
      toBpi: round2(actual),
      fromExScore: s.chart.exScore,
      toExScore: toEx,
      exScoreGap: toEx - currentEx,
      cumulativeTotalBpi: round2(nextTotal),
    });
    totalEx += toEx - currentEx;
    total = nextTotal;
  }
  const achievable = total >= effective - 0.05;
  return {
    steps,
    finalTotal: total,
    targetTotalBpi: effective,
    achievable,
    alreadyAchieved: false,
    maxAchievableBpi: achievable
      ? null
      : steps.length > 0
        ? steps[steps.length - 1].cumulativeTotalBpi
        : round2(initialTotal),
    autoAdjustmentNote: note,
    totalExScoreGap: totalEx,
  };
}
