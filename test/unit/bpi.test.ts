import fc from 'fast-check';
import {
  calcBpi, djLevel, estimateRankFromSingle, estimateRankFromTotal, exScoreForBpi, ExScoreOverMaxError, pgf, totalBpi,
} from '../../src/domain/bpi';

const chart = { notes: 1500, kaidenAvg: 2600, wr: 2950, coef: 1.175 };

// A plausible chart: kaiden average below the world record, both below max.
const arbChart = fc
  .record({ notes: fc.integer({ min: 300, max: 3000 }), avgRate: fc.double({ min: 0.6, max: 0.88, noNaN: true }), wrGap: fc.double({ min: 0.02, max: 0.1, noNaN: true }), coef: fc.option(fc.double({ min: 0.5, max: 2, noNaN: true })) })
  .map(({ notes, avgRate, wrGap, coef }) => {
    const m = notes * 2;
    const kaidenAvg = Math.floor(m * avgRate);
    const wr = Math.min(m - 1, Math.floor(m * (avgRate + wrGap)));
    return { notes, kaidenAvg, wr, coef };
  });

describe('single-chart BPI', () => {
  it('is 0 at the kaiden average and 100 at the world record', () => {
    fc.assert(fc.property(arbChart, (c) => {
      expect(Math.abs(calcBpi(c.kaidenAvg, c)!)).toBeLessThan(0.01);
      expect(calcBpi(c.wr, c)).toBeCloseTo(100, 5);
    }), { numRuns: 500 });
  });

  it('is non-decreasing in the EX score', () => {
    fc.assert(fc.property(arbChart, fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 0, max: 6000 }), (c, a, b) => {
      const m = c.notes * 2;
      const [lo, hi] = [Math.min(a, b) % (m + 1), Math.max(a, b) % (m + 1)].sort((x, y) => x - y);
      expect(calcBpi(hi, c)!).toBeGreaterThanOrEqual(calcBpi(lo, c)!);
    }), { numRuns: 500 });
  });

  it('floors at -15 and gives -15 for 0 and negative scores', () => {
    expect(calcBpi(0, chart)).toBe(-15);
    expect(calcBpi(-5, chart)).toBe(-15);
    expect(calcBpi(1000, chart)).toBe(-15);
  });

  it('rejects a score above the maximum', () => {
    expect(() => calcBpi(3001, chart)).toThrow(ExScoreOverMaxError);
    expect(() => calcBpi(3001, chart)).toThrow('exScore exceeds maximum (3000)');
    expect(calcBpi(3000, chart)).toBeGreaterThan(100);
  });

  it('uses the default coefficient 1.175 for missing, -1 or non-positive coef', () => {
    const withDefault = calcBpi(2800, { ...chart, coef: 1.175 });
    for (const coef of [null, undefined, -1, 0]) expect(calcBpi(2800, { ...chart, coef })).toBe(withDefault);
    expect(calcBpi(2800, { ...chart, coef: 0.8 })).not.toBe(withDefault);
  });

  it('gives -15 for charts without WR/average or notes, 0 for degenerate charts', () => {
    expect(calcBpi(2800, { ...chart, wr: null })).toBe(-15);
    expect(calcBpi(2800, { ...chart, kaidenAvg: -1 })).toBe(-15);
    expect(calcBpi(10, { ...chart, notes: 0 })).toBe(-15);
    expect(calcBpi(2700, { ...chart, wr: 2600 })).toBe(0);
  });

  it('matches the formula by hand for one value', () => {
    const m = 3000;
    const S = pgf(2800, m) / pgf(2600, m);
    const Z = pgf(2950, m) / pgf(2600, m);
    const expected = Math.round(100 * Math.pow(Math.log(S) / Math.log(Z), 1.175) * 100) / 100;
    expect(calcBpi(2800, chart)).toBe(expected);
    const below = Math.round(-100 * Math.pow(-Math.log(pgf(2400, m) / pgf(2600, m)) / Math.log(Z), 1.175) * 100) / 100;
    expect(calcBpi(2400, chart)).toBe(Math.max(-15, below));
  });
});

describe('inverse', () => {
  it('round-trips BPI → EX → BPI to one decimal (raw)', () => {
    fc.assert(fc.property(arbChart, fc.double({ min: -10, max: 100, noNaN: true }), (c, t) => {
      const s = exScoreForBpi(t, c, true)!;
      if (s <= 0 || s >= c.notes * 2) return; // clamped
      const pk = pgf(c.kaidenAvg, c.notes * 2);
      const p = c.coef && c.coef > 0 ? c.coef : 1.175;
      const Z = Math.log(pgf(c.wr, c.notes * 2) / pk);
      const S = Math.log(pgf(s, c.notes * 2) / pk);
      const back = S >= 0 ? 100 * Math.pow(S / Z, p) : -100 * Math.pow(-S / Z, p);
      expect(back).toBeCloseTo(t, 1);
    }), { numRuns: 500 });
  });

  it('ceils by default and the ceiled score reaches the target', () => {
    const s = exScoreForBpi(50, chart)!;
    expect(Number.isInteger(s)).toBe(true);
    expect(calcBpi(s, chart)!).toBeGreaterThanOrEqual(50 - 0.005);
    expect(calcBpi(s - 1, chart)!).toBeLessThan(50);
  });
});

describe('total BPI', () => {
  it('one world record over 650 charts is about 50', () => {
    const t = totalBpi([100], 650);
    expect(t).toBeGreaterThan(45);
    expect(t).toBeLessThan(55);
  });
  it('fills missing charts with -15 and handles N = 0', () => {
    expect(totalBpi([], 10)).toBe(-15);
    expect(totalBpi([], 0)).toBe(-15);
    expect(totalBpi(Array(10).fill(20), 10)).toBe(20);
  });
  it('is order independent', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: -15, max: 110, noNaN: true }), { maxLength: 50 }), (bpis) => {
      const n = 50;
      expect(totalBpi([...bpis].reverse(), n)).toBe(totalBpi(bpis, n));
    }));
  });
});

describe('ranks and DJ level', () => {
  it('estimates ranks with the published bases', () => {
    expect(estimateRankFromTotal(100)).toBe(1);
    expect(estimateRankFromTotal(0)).toBe(2699);
    expect(estimateRankFromSingle(0)).toBe(2616);
    expect(estimateRankFromSingle(120)).toBe(1);
  });
  it('derives DJ level from the score rate', () => {
    expect(djLevel(3000, 1500)).toBe('AAA');
    expect(djLevel(Math.ceil(3000 * 8 / 9), 1500)).toBe('AAA');
    expect(djLevel(Math.ceil(3000 * 8 / 9) - 1, 1500)).toBe('AA');
    expect(djLevel(0, 1500)).toBe('F');
  });
});
