import { RadarCategory } from '../../src/domain/constants';
import {
  exRange,
  FALLBACK_NOTE,
  humanCap,
  optimizePlan,
  validateOptimizeInput,
  type OptimizeInput,
  type OptimizeSettings,
  type OptimizerChart,
} from '../../src/domain/optimizer';

/*
 * Fixture charts with exact BPIs. All have notes 1000 (max EX m = 2000) and coef 1, so
 * BPI(s) = ±100·|ln(pgf(s)/pgf(k))| / ln(pgf(z)/pgf(k)) with pgf(x) = 0.5 / (1 − x/2000):
 *   pgf(1000) = 1, pgf(1500) = 2, pgf(1750) = 4, pgf(1875) = 8.
 * Type Y: kaiden 1500, WR 1875 → ln Z = ln 4: BPI(1500) = 0, BPI(1750) = ln 2/ln 4 = 50, BPI(1875) = 100.
 * Type X: kaiden 1000, WR 1750 → ln Z = ln 4: BPI(1500) = 50, BPI(1750) = 100.
 * Player: A (Y) at 1750 = 50, B (Y) at 1500 = 0, C (X) at 1500 = 50, D (Y) unplayed = −15.
 * N = 4 → K = log2 4 = 2: contribution(b) = sign(b)·b²/4, total = √S.
 *   S0 = (50² + 0² + 50² − 15²)/4 = (2500 + 0 + 2500 − 225)/4 = 1193.75 → total √1193.75 = 34.5507 → 34.55.
 */
const Y = { notes: 1000, kaidenAvg: 1500, wr: 1875, coef: 1 };
const X = { notes: 1000, kaidenAvg: 1000, wr: 1750, coef: 1 };
const chart = (
  id: number,
  def: typeof Y,
  exScore: number | null,
  radarCategory: RadarCategory | null,
  difficulty: OptimizerChart['difficulty'] = 'ANOTHER',
): OptimizerChart => ({
  id,
  title: `Chart ${String.fromCharCode(64 + id)}`,
  difficulty,
  level: 12,
  ...def,
  radarCategory,
  exScore,
});
const A = chart(1, Y, 1750, 'NOTES');
const B = chart(2, Y, 1500, 'CHORD', 'HYPER');
const C = chart(3, X, 1500, 'PEAK');
const D = chart(4, Y, null, 'SOFLAN');
const SET = [A, B, C, D];
const RADAR = { NOTES: 40, CHORD: 30, PEAK: 20, CHARGE: 10 }; // strong = NOTES, CHORD, PEAK

function settings(input: Partial<OptimizeInput> & { targetBpi: number }): OptimizeSettings {
  const v = validateOptimizeInput({ considerCurrentTotalBpi: false, ...input });
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return v.value;
}

describe('optimizer: hand-worked plan (4 charts, K = 2)', () => {
  // considerCurrentTotalBpi = false: every cap is 100, so a chart may go up to its WR (1875 / 1750).
  it('reaches 70 with the least EX: A to its WR and C exactly as far as needed', () => {
    // Target 70 → S* = 70² = 4900; missing 4900 − 1193.75 = 3706.25.
    // A 1750 → 1875 (BPI 50 → 100): gain (100² − 50²)/4 = 1875 for 125 EX (15 per EX point).
    // C at its WR would also give 1875 (250 EX); with A at 100 the rest is 3706.25 − 1875 = 1831.25,
    // i.e. C needs b² ≥ 2500 + 4·1831.25 = 9825, b ≥ 99.12:
    //   C 1746: pgf 0.5/0.127 = 3.93701, ln 3.93701/ln 4 = 0.98846 → 98.85 (too little: S = 4886.58);
    //   C 1747: pgf 0.5/0.1265 = 3.95257 → 0.99138 → 99.14 → gain (99.14² − 2500)/4 = 1832.18, S = 4900.93.
    // So A +125 and C +247 = 372 EX. Any alternative costs more (B has no head start: 0 → 100 alone is
    // 375 EX; D unplayed costs ≥ 1384 EX before its BPI leaves −15; A 1874 (99.43) needs C ≥ 1749 → 373).
    const r = optimizePlan(SET, settings({ targetBpi: 70 }), RADAR);
    expect(r.currentTotalBpi).toBe(34.55);
    expect(r.targetTotalBpi).toBe(70);
    expect(r.achievable).toBe(true);
    expect(r.alreadyAchieved).toBe(false);
    expect(r.totalSongCount).toBe(4);
    expect(r.totalExScoreGap).toBe(372);
    expect(r.provenOptimal).toBe(true);
    expect(r.exLowerBound).toBe(372);
    expect(r.maxAchievableBpi).toBeNull();
    expect(r.autoAdjustmentNote).toBeNull();
    // Steps by gain per EX: A 1875/125 = 15, then C 1832.18/247 = 7.42.
    // After A: √(1193.75 + 1875) = √3068.75 = 55.3963 → gain 55.3963 − 34.5507 = 20.8456 → 20.85.
    // After C: √(3068.75 + 1832.18) = √4900.93 = 70.0066 → 70.01, gain 14.6104 → 14.61.
    expect(r.steps).toEqual([
      {
        rank: 1,
        chartId: 1,
        title: 'Chart A',
        difficulty: 'ANOTHER',
        level: 12,
        fromBpi: 50,
        toBpi: 100,
        fromExScore: 1750,
        toExScore: 1875,
        exScoreGap: 125,
        bpiGain: 20.85,
        cumulativeTotalBpi: 55.4,
        isUnplayed: false,
        radarCategory: 'NOTES',
        isRadarStrength: true,
      },
      {
        rank: 2,
        chartId: 3,
        title: 'Chart C',
        difficulty: 'ANOTHER',
        level: 12,
        fromBpi: 50,
        toBpi: 99.14,
        fromExScore: 1500,
        toExScore: 1747,
        exScoreGap: 247,
        bpiGain: 14.61,
        cumulativeTotalBpi: 70.01,
        isUnplayed: false,
        radarCategory: 'PEAK',
        isRadarStrength: true,
      },
    ]);
  });

  it('flexible asks the least EX, fastest the fewest charts', () => {
    // Target 60.77 → S* = 3692.9929; missing 2499.2429.
    // One chart: B 0 → 100 gives 100²/4 = 2500 ≥ 2499.24 for 375 EX (A or C alone give at most 1875).
    // Two charts: A to 100 (1875, 125 EX) + C needs 624.24 → b_C² ≥ 2500 + 2496.97, b_C ≥ 70.69:
    //   C 1625: pgf 0.5/0.1875 = 2.66667, ln 2.66667/ln 4 = 0.70752 → 70.75 (gain (70.75² − 2500)/4 = 626.39);
    //   C 1624: pgf 2.65957 → 0.70560 → 70.56 (too little). So 125 + 125 = 250 EX.
    const flexible = optimizePlan(SET, settings({ targetBpi: 60.77 }), RADAR);
    expect(flexible.totalExScoreGap).toBe(250);
    expect(flexible.steps.map((s) => [s.chartId, s.toExScore])).toEqual([
      [1, 1875],
      [3, 1625],
    ]);
    // √(1193.75 + 1875 + 626.39) = √3695.14 = 60.7877 → 60.79
    expect(flexible.steps[1].cumulativeTotalBpi).toBe(60.79);
    const fastest = optimizePlan(SET, settings({ targetBpi: 60.77, searchMode: 'fastest' }), RADAR);
    expect(fastest.totalExScoreGap).toBe(375);
    // √(1193.75 + 2500) = √3693.75 = 60.7762 → 60.78
    expect(fastest.steps).toEqual([
      expect.objectContaining({
        chartId: 2,
        fromBpi: 0,
        toBpi: 100,
        fromExScore: 1500,
        toExScore: 1875,
        exScoreGap: 375,
        bpiGain: 26.23,
        cumulativeTotalBpi: 60.78,
        isRadarStrength: true,
      }),
    ]);
  });

  it('an unreachable target answers the highest total within maxSteps', () => {
    // maxSteps 1: the chart with the largest possible gain at its cap is D, unplayed: −15 → 100,
    // gain (100² + 15²)/4 = 2556.25 (B: 2500, A and C: 1875), for 1875 EX counted from 0.
    // √(1193.75 + 2556.25) = √3750 = 61.237 → 61.24.
    const r = optimizePlan(SET, settings({ targetBpi: 70, maxSteps: 1 }), RADAR);
    expect(r.achievable).toBe(false);
    expect(r.maxAchievableBpi).toBe(61.24);
    expect(r.steps).toEqual([
      {
        rank: 1,
        chartId: 4,
        title: 'Chart D',
        difficulty: 'ANOTHER',
        level: 12,
        fromBpi: -15,
        toBpi: 100,
        fromExScore: null,
        toExScore: 1875,
        exScoreGap: 1875,
        bpiGain: 26.69,
        cumulativeTotalBpi: 61.24,
        isUnplayed: true,
        radarCategory: 'SOFLAN',
        isRadarStrength: false,
      },
    ]);
    // Played charts only: B (2500) → √3693.75 = 60.78.
    const played = optimizePlan(SET, settings({ targetBpi: 70, maxSteps: 1, strategies: ['played'] }), RADAR);
    expect(played.maxAchievableBpi).toBe(60.78);
    expect(played.steps.map((s) => s.chartId)).toEqual([2]);
    // HYPER only (B): the same; LEGGENDARIA only: nothing to change, the current total stays.
    expect(
      optimizePlan(SET, settings({ targetBpi: 70, difficulties: ['HYPER'] }), RADAR).steps.map((s) => s.chartId),
    ).toEqual([2]);
    const none = optimizePlan(SET, settings({ targetBpi: 70, difficulties: ['LEGGENDARIA'] }), RADAR);
    expect(none).toMatchObject({ steps: [], achievable: false, maxAchievableBpi: 34.55, totalExScoreGap: 0 });
  });

  it('an already reached target needs no step', () => {
    expect(optimizePlan(SET, settings({ targetBpi: 34 }), RADAR)).toMatchObject({
      steps: [],
      achievable: true,
      alreadyAchieved: true,
      currentTotalBpi: 34.55,
      targetTotalBpi: 34,
    });
  });

  it('an empty song set answers as the reference', () => {
    expect(optimizePlan([], settings({ targetBpi: 20 }), null)).toMatchObject({
      steps: [],
      currentTotalBpi: -15,
      targetTotalBpi: 20,
      achievable: false,
      alreadyAchieved: false,
      totalSongCount: 0,
    });
  });

  it('raises a target that maxSteps makes too easy (docs/domain/optimizer.md#target-raise-and-fallback)', () => {
    // T = 34.5507. minViable = contribution(T + 0.5) − contribution(T) = ((T + 0.5)² − T²)/4 = (T + 0.25)/4 = 8.70017.
    // Target 35: gap 35² − 1193.75 = 31.25; 31.25/30 = 1.04 < 8.70 → raised sum 1193.75 + 8.70017·30·1.3
    // = 1533.06 → √1533.06 = 39.1543 > 35 + 0.5: the target becomes 39.1543 ("39.15").
    const r = optimizePlan(SET, settings({ targetBpi: 35 }), RADAR);
    expect(r.originalTargetTotalBpi).toBe(35);
    expect(r.targetTotalBpi).toBeCloseTo(39.1543, 4);
    expect(r.autoAdjustmentNote).toBe(
      '指定された楽曲数ではより高い総合BPIが見込まれるため、自動的に目標総合BPIを39.15へ引き上げました。',
    );
    expect(r.achievable).toBe(true);
    expect(r.steps[r.steps.length - 1].cumulativeTotalBpi).toBeGreaterThanOrEqual(39.15);
    // maxSteps 1 never raises.
    expect(optimizePlan(SET, settings({ targetBpi: 35, maxSteps: 1 }), RADAR).originalTargetTotalBpi).toBeNull();
  });

  it('retries without the radar-element filter when the filtered charts cannot reach the target (docs/domain/optimizer.md#target-raise-and-fallback)', () => {
    // NOTES only: A alone reaches at most √(1193.75 + 1875) = 55.40 < 70; all charts reach 70 (372 EX above).
    const r = optimizePlan(SET, settings({ targetBpi: 70, radarElements: ['NOTES'] }), RADAR);
    expect(r.achievable).toBe(true);
    expect(r.totalExScoreGap).toBe(372);
    expect(r.autoAdjustmentNote).toBe(FALLBACK_NOTE);
    // Reachable within the filter: no retry, only NOTES charts.
    const own = optimizePlan(SET, settings({ targetBpi: 55, radarElements: ['NOTES'] }), RADAR);
    expect(own.autoAdjustmentNote).toBeNull();
    expect(own.steps.map((s) => s.chartId)).toEqual([1]);
  });

  it('does not depend on the order the charts arrive in', () => {
    const a = optimizePlan(SET, settings({ targetBpi: 70 }), RADAR);
    const b = optimizePlan([D, C, B, A], settings({ targetBpi: 70 }), RADAR);
    expect(b).toEqual(a);
  });
});

describe('optimizer: per-chart limits', () => {
  it('humanCap follows docs/domain/optimizer.md#caps with the current total', () => {
    // radar 47, total 40: min(47 + 3, 40 + 12) = 50; from 0 + 5 = 5 → 50.
    expect(humanCap(0, 47, 40, true)).toBe(50);
    // from 48: max(50, 53) = 53 (a chart above the radar may still gain 5).
    expect(humanCap(48, 47, 40, true)).toBe(53);
    // no radar value: total + 12 = 52.
    expect(humanCap(0, null, 40, true)).toBe(52);
    // never above 100; 100 when the current total is not considered.
    expect(humanCap(98, 47, 40, true)).toBe(100);
    expect(humanCap(0, 47, 40, false)).toBe(100);
  });

  it('exRange: from the smaller of +5 EX and +0.5 BPI up to the EX of the cap', () => {
    // B (type Y at 1500, BPI 0) with cap 50: hi = EX for BPI 50 = 1750.
    // +0.5 BPI: BPI(1503) = 100·ln(pgf(1503)/2)/ln 4 = 100·ln(2.01207/2)/1.38629 = 0.43;
    //           BPI(1504) = 100·ln(2.01613/2)/1.38629 = 0.58 ≥ 0.5 → lo = min(1500 + 5, 1504) = 1504.
    expect(exRange(B, 0, 50)).toEqual({ lo: 1504, hi: 1750 });
    // A at 1750 (BPI 50) with cap 55 (from + 5): BPI(1751) = 100·ln(pgf(1751)/2)/ln 4 = 100·ln(4.01606/2)/1.38629
    // = 50.29 (< 50.5); BPI(1752) = 100·ln(4.03226/2)/1.38629 = 50.58 → lo = min(1755, 1752) = 1752;
    // hi = EX for 55: pgf = 2·4^0.55 = 4.28709 → 2000·(1 − 0.5/4.28709) = 1766.74 → 1767.
    expect(exRange(A, 50, 55)).toEqual({ lo: 1752, hi: 1767 });
    // At the maximum (2000) nothing is left: lo 2001 > hi.
    expect(exRange({ ...A, exScore: 2000 }, 482.19, 100)).toBeNull();
  });

  it('caps come from the total reached before each step, as in the reference', () => {
    // B without a radar category: cap = max(T + 12, from + 5) grows with the total T.
    // A (radar 40): cap max(min(43, T + 12), 50 + 5) = 55 → EX for 55 on Y: pgf 2·4^0.55 = 4.28709,
    // 2000·(1 − 0.5/4.28709) = 1766.74 → 1767 (BPI(1767): pgf 4.29185, ln(4.29185/2)/ln 4 = 0.55079 → 55.08).
    // C (radar 20): cap 55 → EX 1533.48 → 1534.
    // At T0 = 34.55, B's cap is 46.55 → EX 1737.76 → 1738 (46.62).
    // Played charts only, at most 3 steps, target 45 (S* = 2025):
    // static caps (T0 for every step): the most is A 55.08, C 55.08, B 46.62:
    //   √((55.08² + 55.08² + 46.62² − 15²)/4) = √((3033.81·2 + 2173.42 − 225)/4) = √2004.0 = 44.77 < 45.
    // The reference's rule: A first (T → √(1193.75 + (55.08² − 50²)/4) = √1327.2 = 36.43),
    //   C 1500 → 1523 (pgf 0.5/0.2385 = 2.09644, ln 2.09644/ln 4 = 0.53398 → 53.40; T → √(1327.2 + (53.4² − 50²)/4)
    //   = √1415.1 = 37.62), then B's cap is 37.62 + 12 = 49.62 → EX 1748.67 → B may go to 1748
    //   (pgf 3.96825 → ln(3.96825/2)/ln 4 = 0.49432 → 49.43): T → √(1415.1 + 49.43²/4) = √2025.9 = 45.01.
    //   17 + 23 + 248 = 288 EX; enumerating every (A, C, B) choice and order (outside this code) gives no
    //   cheaper plan the rule allows (A 1767, C 1522, B 1749 ties at 288).
    const set = [A, { ...B, radarCategory: null }, C, D];
    const input = { targetBpi: 45, maxSteps: 3, strategies: ['played'], considerCurrentTotalBpi: true };
    const fixed = optimizePlan(set, settings({ ...input }), RADAR, { caps: 'current' });
    expect(fixed.achievable).toBe(false);
    expect(fixed.maxAchievableBpi).toBe(44.77);
    const r = optimizePlan(set, settings({ ...input }), RADAR);
    expect(r.achievable).toBe(true);
    expect(r.totalExScoreGap).toBe(288);
    expect(r.steps.map((s) => s.chartId)).toEqual([1, 3, 2]);
    expect(r.steps.map((s) => s.cumulativeTotalBpi)).toEqual([
      36.43,
      expect.closeTo(37.62, 1),
      expect.closeTo(45.01, 1),
    ]);
    // B goes past its cap at the start (1738), within its cap after A and C (1749).
    const b = r.steps[2];
    expect(b.toExScore).toBeGreaterThan(1738);
    expect(b.toExScore).toBeLessThanOrEqual(1749);
  });
});

describe('optimizer: input validation', () => {
  const issuesOf = (input: OptimizeInput) => {
    const v = validateOptimizeInput(input);
    return v.ok ? [] : v.issues;
  };

  it('applies the reference defaults', () => {
    const v = validateOptimizeInput({ targetBpi: 50 });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.value.maxSteps).toBe(30);
    expect([...v.value.strategies]).toEqual(['unplayed', 'played']);
    expect([...v.value.difficulties]).toEqual(['HYPER', 'ANOTHER', 'LEGGENDARIA']);
    expect([...v.value.radarElements]).toEqual(['NOTES', 'CHORD', 'PEAK', 'CHARGE', 'SCRATCH', 'SOFLAN']);
    expect(v.value.searchMode).toBe('flexible');
    expect(v.value.considerCurrentTotalBpi).toBe(true);
  });

  it('refuses a target outside −15..100 and a maxSteps outside 1..400, naming the argument', () => {
    for (const t of [-15.01, 100.01, NaN, Infinity])
      expect(issuesOf({ targetBpi: t })).toEqual([
        { argument: 'targetBpi', message: 'targetBpi must be a number between -15 and 100' },
      ]);
    expect(issuesOf({ targetBpi: -15 })).toEqual([]);
    expect(issuesOf({ targetBpi: 100 })).toEqual([]);
    for (const m of [0, 401, 2.5])
      expect(issuesOf({ targetBpi: 50, maxSteps: m })).toEqual([
        { argument: 'maxSteps', message: 'maxSteps must be an integer between 1 and 400' },
      ]);
    expect(issuesOf({ targetBpi: 50, maxSteps: 400 })).toEqual([]);
  });

  it('refuses unknown list entries (the reference dropped them silently) and empty lists', () => {
    expect(issuesOf({ targetBpi: 50, strategies: ['played', 'radar-priority'] })).toEqual([
      { argument: 'strategies', message: 'strategies: unknown value "radar-priority" (allowed: unplayed, played)' },
    ]);
    expect(issuesOf({ targetBpi: 50, difficulties: ['ANOTHER', 'NORMAL'] })).toEqual([
      {
        argument: 'difficulties',
        message: 'difficulties: unknown value "NORMAL" (allowed: HYPER, ANOTHER, LEGGENDARIA)',
      },
    ]);
    expect(issuesOf({ targetBpi: 50, radarElements: ['DELAY'] })).toEqual([
      {
        argument: 'radarElements',
        message: 'radarElements: unknown value "DELAY" (allowed: NOTES, CHORD, PEAK, CHARGE, SCRATCH, SOFLAN)',
      },
    ]);
    expect(issuesOf({ targetBpi: 50, difficulties: [] })).toEqual([
      { argument: 'difficulties', message: 'difficulties must name at least one of HYPER, ANOTHER, LEGGENDARIA' },
    ]);
    expect(issuesOf({ targetBpi: 50, searchMode: 'fast' })).toEqual([
      { argument: 'searchMode', message: 'searchMode: unknown value "fast" (allowed: fastest, flexible)' },
    ]);
  });

  it('reports every bad argument at once', () => {
    expect(issuesOf({ targetBpi: 200, maxSteps: 0, radarElements: ['X'] }).map((i) => i.argument)).toEqual([
      'targetBpi',
      'maxSteps',
      'radarElements',
    ]);
  });
});
