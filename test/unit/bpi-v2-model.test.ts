import fc from 'fast-check';
import { ExScoreOverMaxError } from '../../src/domain/bpi';
import {
  bpiFromSkill,
  calcBpiV2,
  chartCurve,
  computeAnchors,
  exFromT,
  exScoreForBpiV2,
  skillOfScore,
  totalBpiV2,
  transformT,
  type BpiV2Anchors,
  type BpiV2Params,
} from '../../src/domain/bpi-v2';
import { huberBeta, median, ranks, robustSd, spearman } from '../../src/domain/bpi-v2/stats';

const LN2 = Math.log(2);

describe('transform t(s) = −ln(max(0.5, m − clamp(s, 0, m)))', () => {
  // notes 1000 → m = 2000
  it('matches hand-worked values', () => {
    expect(transformT(1800, 2000)).toBeCloseTo(-Math.log(200), 12); // m − s = 200 → −ln 200 = −5.298317
    expect(transformT(1800, 2000)).toBeCloseTo(-5.298317, 6);
    expect(transformT(1999, 2000)).toBeCloseTo(0, 12); //               m − s = 1 → −ln 1 = 0
    expect(transformT(2000, 2000)).toBeCloseTo(LN2, 12); //             m − s = 0 → max(0.5, 0) → −ln 0.5 = ln 2 = 0.693147
    expect(transformT(-5, 2000)).toBeCloseTo(-Math.log(2000), 12); //   clamp(−5) = 0 → −ln 2000 = −7.600902
    expect(transformT(2500, 2000)).toBeCloseTo(LN2, 12); //             clamp(2500) = 2000
  });

  it('differs from V1’s ln pgf only by the chart constant ln(m/2)', () => {
    // pgf(s) = 0.5 / (1 − s/m) = 0.5·m / (m − s) → ln pgf = ln(m/2) − ln(m − s) = ln(m/2) + t
    const m = 2000;
    for (const s of [100, 1500, 1800, 1999])
      expect(Math.log(0.5 / (1 - s / m)) - transformT(s, m)).toBeCloseTo(Math.log(m / 2), 10);
  });

  it('is strictly increasing on integer scores and exFromT inverts it', () => {
    for (let s = 0; s < 2000; s++) expect(transformT(s + 1, 2000)).toBeGreaterThan(transformT(s, 2000));
    for (const s of [0, 1, 700, 1999]) expect(exFromT(transformT(s, 2000), 2000)).toBeCloseTo(s, 9);
    expect(exFromT(transformT(2000, 2000), 2000)).toBeCloseTo(1999.5, 9); // the 0.5 floor: t(m) = ln 2 ↔ m − 0.5
  });
});

// A tiny chart worked by hand: notes 1000 (m = 2000), mu = −ln 200 (a skill-0 player misses 200 EX),
// sigma = ln 2 / 2 (two skill units halve the missing EX), z0 = −0.5, z100 = 4.5 (gap 5), gamma 1.
const tiny: BpiV2Params = { mu: -Math.log(200), sigma: LN2 / 2, z0: -0.5, z100: 4.5, gamma: 1 };

describe('single-chart BPI V2 of a tiny case', () => {
  it('matches the arithmetic by hand (gamma 1)', () => {
    // s = 1800: m − s = 200 → t = mu → z = 0           → r = (0 + 0.5) / 5 = 0.1 → BPI 10
    expect(calcBpiV2(1800, 1000, tiny)).toBe(10);
    // s = 1900: m − s = 100 → t − mu = ln 2 → z = 2    → r = 2.5 / 5 = 0.5       → BPI 50
    expect(calcBpiV2(1900, 1000, tiny)).toBe(50);
    // s = 1950: m − s = 50  → t − mu = 2 ln 2 → z = 4  → r = 4.5 / 5 = 0.9      → BPI 90
    expect(calcBpiV2(1950, 1000, tiny)).toBe(90);
    // s = 1975: m − s = 25  → z = 6 → r = 6.5 / 5 = 1.3 → BPI 130 (above the WR level is legal, as in V1)
    expect(calcBpiV2(1975, 1000, tiny)).toBe(130);
    // s = 1700: m − s = 300 → t − mu = ln(200/300) = −0.405465 → z = −0.405465 / 0.346574 = −1.169925
    //           → r = (−1.169925 + 0.5) / 5 = −0.133985 → BPI −13.3985 → −13.40
    expect(calcBpiV2(1700, 1000, tiny)).toBe(-13.4);
    // s = 1600: m − s = 400 → z = −2 → r = −1.5 / 5 = −0.3 → −30 → floored at −15
    expect(calcBpiV2(1600, 1000, tiny)).toBe(-15);
  });

  it('bends with gamma: BPI = 100·sign(r)·|r|^gamma', () => {
    const bent = { ...tiny, gamma: 2 };
    expect(calcBpiV2(1800, 1000, bent)).toBe(1); //   r = 0.1 → 100·0.01 = 1
    expect(calcBpiV2(1900, 1000, bent)).toBe(25); //  r = 0.5 → 100·0.25 = 25
    expect(calcBpiV2(1950, 1000, bent)).toBe(81); //  r = 0.9 → 100·0.81 = 81
    expect(calcBpiV2(1700, 1000, bent)).toBe(-1.8); // r = −0.133985 → −100·0.017952 = −1.7952 → −1.80
  });

  it('follows V1’s edge rules: over-max throws, negative → −15, no parameters or notes → null', () => {
    expect(() => calcBpiV2(2001, 1000, tiny)).toThrow(ExScoreOverMaxError);
    expect(() => calcBpiV2(2001, 1000, tiny)).toThrow('exScore exceeds maximum (2000)');
    expect(calcBpiV2(-1, 1000, tiny)).toBe(-15);
    expect(calcBpiV2(0, 1000, tiny)).toBe(-15); // t = −ln 2000 → z = 2·(−ln 10)/ln 2 = −6.64 → far below −15
    expect(calcBpiV2(1900, 1000, null)).toBeNull();
    expect(calcBpiV2(1900, 0, tiny)).toBeNull();
    expect(calcBpiV2(1900, 1000, { ...tiny, sigma: 0 })).toBeNull();
    expect(calcBpiV2(1900, 1000, { ...tiny, z100: -0.5 })).toBeNull();
  });

  it('is 0 at z0 and 100 at z100 for any gamma, and non-decreasing in the score', () => {
    const arb = fc.record({
      notes: fc.integer({ min: 300, max: 3000 }),
      rate: fc.double({ min: 0.7, max: 0.9, noNaN: true }),
      sigma: fc.double({ min: 0.2, max: 1, noNaN: true }),
      z0: fc.double({ min: -1, max: 0.5, noNaN: true }),
      gap: fc.double({ min: 2, max: 7, noNaN: true }),
      gamma: fc.double({ min: 0.5, max: 2, noNaN: true }),
    });
    fc.assert(
      fc.property(arb, fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 0, max: 6000 }), (c, a, b) => {
        const m = c.notes * 2;
        const p: BpiV2Params = {
          mu: -Math.log(m * (1 - c.rate)),
          sigma: c.sigma,
          z0: c.z0,
          z100: c.z0 + c.gap,
          gamma: c.gamma,
        };
        expect(bpiFromSkill(p.z0, p)).toBe(0);
        expect(bpiFromSkill(p.z100, p)).toBeCloseTo(100, 9);
        // the WR-level score (unrounded) maps back to 100, unless it lies beyond the max (t > t(m) = ln 2)
        if (Math.exp(-(p.mu + p.sigma * p.z100)) >= 0.5)
          expect(bpiFromSkill(skillOfScore(exFromT(p.mu + p.sigma * p.z100, m), c.notes, p), p)).toBeCloseTo(100, 6);
        const [lo, hi] = [Math.min(a, b) % (m + 1), Math.max(a, b) % (m + 1)].sort((x, y) => x - y);
        expect(calcBpiV2(hi, c.notes, p)!).toBeGreaterThanOrEqual(calcBpiV2(lo, c.notes, p)!);
      }),
      { numRuns: 300 },
    );
  });

  it('inverts: the EX for a target BPI gives that BPI back', () => {
    // by hand: target 50 → z = −0.5 + 0.5·5 = 2 → t = mu + ln 2 → m − s = 100 → s = 1900
    expect(exScoreForBpiV2(50, 1000, tiny)).toBe(1900);
    expect(exScoreForBpiV2(10, 1000, tiny)).toBe(1800);
    for (const target of [-10, 0, 12.5, 33, 77.7, 100]) {
      const raw = exScoreForBpiV2(target, 1000, { ...tiny, gamma: 1.3 }, true)!;
      const back =
        100 *
        Math.sign((transformT(raw, 2000) - tiny.mu) / tiny.sigma + 0.5) *
        Math.pow(Math.abs(((transformT(raw, 2000) - tiny.mu) / tiny.sigma + 0.5) / 5), 1.3);
      expect(back).toBeCloseTo(target, 6);
      const ceiled = exScoreForBpiV2(target, 1000, { ...tiny, gamma: 1.3 })!;
      expect(calcBpiV2(ceiled, 1000, { ...tiny, gamma: 1.3 })!).toBeGreaterThanOrEqual(Math.max(-15, target - 0.005));
    }
    expect(exScoreForBpiV2(50, 1000, null)).toBeNull();
  });
});

describe('total BPI V2 (V1’s power mean)', () => {
  it('matches the arithmetic by hand', () => {
    // N = 2 → K = max(1, log2 2) = 1: the plain mean (50 + 10) / 2 = 30
    expect(totalBpiV2([50, 10], 2)).toBe(30);
    // N = 4, one chart at 50, three missing (−15): K = 2, sum = (2500 − 3·225) / 4 = 456.25 → √456.25 = 21.36
    expect(totalBpiV2([50], 4)).toBe(21.36);
    expect(totalBpiV2([], 0)).toBe(-15);
  });
});

describe('scale anchors and the outlier-corrected exponent', () => {
  // g̃ = 5, robust sd 0.5 → ordinary gaps in [5 − 2·0.5, 5 + 2·0.5] = [4, 6]
  const a: BpiV2Anchors = {
    z0: 0,
    z0Source: 'kaidenAverage',
    gap: 5,
    gapSource: 'worldRecord',
    gapSd: 0.5,
    gapLow: 4,
    gapHigh: 6,
  };

  it('keeps gamma 1 inside the band and anchors BPI 100 at the WR', () => {
    expect(chartCurve(5.5, a)).toEqual({ z100: 5.5, gamma: 1, wrAnchored: true });
    expect(chartCurve(4, a)).toEqual({ z100: 4, gamma: 1, wrAnchored: true });
  });

  it('lifts the middle of a chart whose WR is far out', () => {
    // g = 9, g* = 6: gamma = 1 / (1 + log2(9/6)) = 1 / 1.584963 = 0.630930
    const { z100, gamma } = chartCurve(9, a);
    expect(z100).toBe(9);
    expect(gamma).toBeCloseTo(0.63093, 5);
    // halfway up the corrected scale, z = 3: r = 3/9 → 100·(1/3)^0.630930 = 100·e^(−1.098612·0.630930) = 100·e^(−ln 2) = 50,
    // the BPI a chart with the band-edge gap 6 gives there (100·3/6)
    expect(100 * Math.pow(3 / 9, gamma)).toBeCloseTo(50, 6);
  });

  it('lowers the middle of a chart whose WR is close', () => {
    // g = 3, g* = 4: gamma = 1 + log2(4/3) = 1.415037; at z = 1.5: 100·0.5^1.415037 = 37.5 = 100·1.5/4
    const { gamma } = chartCurve(3, a);
    expect(gamma).toBeCloseTo(1.415037, 5);
    expect(100 * Math.pow(0.5, gamma)).toBeCloseTo(37.5, 6);
  });

  it('clamps gamma to [0.5, 2] and ignores a WR below a quarter of the typical gap', () => {
    expect(chartCurve(100, a).gamma).toBe(0.5); // 1 / (1 + log2(100/6)) = 0.197 → 0.5
    expect(chartCurve(1.3, a).gamma).toBe(2); //   1 + log2(4/1.3) = 2.62 → 2
    expect(chartCurve(1.2, a)).toEqual({ z100: 5, gamma: 1, wrAnchored: false }); // 1.2 < 5/4: bad WR → typical gap
    expect(chartCurve(null, a)).toEqual({ z100: 5, gamma: 1, wrAnchored: false });
  });

  it('computes z0 and the gap band from the charts, with fallbacks', () => {
    // z(kaiden) −0.4, −0.5, −0.6, null → z0 = −0.5; z(WR) 4.5, 5.5, 3.5, 9.5 → gaps 5, 6, 4, 10 → g̃ = 5.5,
    // |g − 5.5| = 0.5, 0.5, 1.5, 4.5 → MAD 1 → sd 1.4826 → band [5.5 − 2.9652, 5.5 + 2.9652] = [2.5348, 8.4652]
    const an = computeAnchors([-0.4, -0.5, -0.6, null], [4.5, 5.5, 3.5, 9.5], 3);
    expect(an.z0).toBeCloseTo(-0.5, 12);
    expect(an.gap).toBeCloseTo(5.5, 12);
    expect(an.gapSd).toBeCloseTo(1.4826, 12);
    expect(an.gapLow).toBeCloseTo(2.5348, 10);
    expect(an.gapHigh).toBeCloseTo(8.4652, 10);
    expect(an).toMatchObject({ z0Source: 'kaidenAverage', gapSource: 'worldRecord' });
    // no kaiden average, no WR: z0 = 0 (population mean), gap = best skill − z0 = 3.2
    expect(computeAnchors([null], [null], 3.2)).toMatchObject({
      z0: 0,
      z0Source: 'populationMean',
      gap: 3.2,
      gapSource: 'bestPlayer',
      gapSd: 0,
    });
  });
});

describe('numeric helpers', () => {
  it('median, robust sd, ranks, Spearman, Huber β by hand', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([NaN, 5])).toBe(5);
    expect(robustSd([1, 2, 3, 4, 100])).toBeCloseTo(1.4826, 12); // median 3, |x − 3| = 2,1,0,1,97 → MAD 1
    expect(Array.from(ranks([10, 20, 20, 5]))).toEqual([2, 3.5, 3.5, 1]);
    expect(spearman([1, 2, 3, 4], [10, 30, 20, 40])).toBeCloseTo(0.8, 12); // Σd² = 0+1+1+0 = 2 → 1 − 6·2/(4·15) = 0.8
    expect(huberBeta(1.345)).toBeCloseTo(0.71016, 4); // Φ(1.345) = 0.910687, φ(1.345) = 0.161468: 0.821375 − 0.434348 + 0.323138
    expect(huberBeta(Infinity)).toBe(1);
  });
});
