import fc from 'fast-check';
import {
  calcBpi,
  djLevel,
  estimateRankFromSingle,
  estimateRankFromTotal,
  exScoreForBpi,
  ExScoreOverMaxError,
  pgf,
  totalBpi,
} from '../../src/domain/bpi';
import { describeWithShared, readSharedJson } from '../helpers/shared-data';
import { FUZZ_RUNS } from '../helpers/fuzz';

const chart = { notes: 1500, kaidenAvg: 2600, wr: 2950, coef: 1.175 };

// A plausible chart: kaiden average below the world record, both below max.
const arbChart = fc
  .record({
    notes: fc.integer({ min: 300, max: 3000 }),
    avgRate: fc.double({ min: 0.6, max: 0.88, noNaN: true }),
    wrGap: fc.double({ min: 0.02, max: 0.1, noNaN: true }),
    coef: fc.option(fc.double({ min: 0.5, max: 2, noNaN: true })),
  })
  .map(({ notes, avgRate, wrGap, coef }) => {
    const m = notes * 2;
    const kaidenAvg = Math.floor(m * avgRate);
    const wr = Math.min(m - 1, Math.floor(m * (avgRate + wrGap)));
    return { notes, kaidenAvg, wr, coef };
  });

describe('single-chart BPI', () => {
  it('is 0 at the kaiden average and 100 at the world record', () => {
    fc.assert(
      fc.property(arbChart, (c) => {
        expect(Math.abs(calcBpi(c.kaidenAvg, c)!)).toBeLessThan(0.01);
        expect(calcBpi(c.wr, c)).toBeCloseTo(100, 5);
      }),
      { numRuns: 500 },
    );
  });

  it('is non-decreasing in the EX score', () => {
    fc.assert(
      fc.property(arbChart, fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 0, max: 6000 }), (c, a, b) => {
        const m = c.notes * 2;
        const [lo, hi] = [Math.min(a, b) % (m + 1), Math.max(a, b) % (m + 1)].sort((x, y) => x - y);
        expect(calcBpi(hi, c)!).toBeGreaterThanOrEqual(calcBpi(lo, c)!);
      }),
      { numRuns: 500 },
    );
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

// A real-but-odd chart: the kaiden average above the world record (ln Z < 0).
const arbOddChart = fc
  .record({
    notes: fc.integer({ min: 300, max: 3000 }),
    wrRate: fc.double({ min: 0.5, max: 0.85, noNaN: true }),
    avgGap: fc.double({ min: 0.02, max: 0.12, noNaN: true }),
    coef: fc.option(fc.double({ min: 0.5, max: 2, noNaN: true })),
  })
  .map(({ notes, wrRate, avgGap, coef }) => {
    const m = notes * 2;
    const wr = Math.floor(m * wrRate);
    const kaidenAvg = Math.min(m - 1, Math.floor(m * (wrRate + avgGap)));
    return { notes, kaidenAvg, wr, coef };
  });

// pgf(x) = 0.5 / (1 - x/m) = (m/2) / (m - x) below the maximum, so S = pgf(s)/pgf(k) = (m - k) / (m - s)
// and Z = (m - k) / (m - z): the charts below have exact fractions.
describeWithShared(
  'data/definitions/definitions-202509156.json',
  'BPI on charts whose kaiden average is above the world record (202509156)',
  (file) => {
    type Entry = {
      title: string;
      difficulty: string;
      wr: number | string;
      avg: number | string;
      notes: number | string;
      coef: number | string;
    };
    let body: Entry[] = [];
    const def = (title: string) => {
      const e = body.find((x) => x.title === title && x.difficulty === '4')!; // "4" = SP ANOTHER
      return { notes: Number(e.notes), kaidenAvg: Number(e.avg), wr: Number(e.wr), coef: Number(e.coef) };
    };
    let withYou: ReturnType<typeof def>;
    let getOnYourFeet: ReturnType<typeof def>;
    beforeAll(() => {
      body = readSharedJson(file).body;
      withYou = def('With You');
      getOnYourFeet = def('Get On Your Feet');
    });

    it('are the definitions the issue names (average above the record, default coefficient)', () => {
      expect(withYou).toEqual({ notes: 1296, kaidenAvg: 2288, wr: 1781, coef: -1 });
      expect(getOnYourFeet).toEqual({ notes: 1384, kaidenAvg: 2486, wr: 2135, coef: -1 });
    });

    it('"With You" ANOTHER: the reference numbers above and below the average (never null)', () => {
      // m = 2592, k = 2288, z = 1781: Z = (2592 - 2288) / (2592 - 1781) = 304 / 811, ln Z < 0
      const absLnZ = Math.log(811 / 304); // ≈ 0.98125
      // s = 2400 ≥ k: S = 304 / 192 = 19/12; 100 · (ln(19/12) / |ln Z|)^1.175 = 100 · 0.468313^1.175 ≈ 41.01
      expect(calcBpi(2400, withYou)).toBe(Math.round(100 * Math.pow(Math.log(19 / 12) / absLnZ, 1.175) * 100) / 100);
      expect(calcBpi(2400, withYou)).toBe(41.01);
      // s = 2250 < k: S = 304 / 342 = 8/9; -100 · (|ln(8/9)| / |ln Z|)^1.175 = -100 · 0.120033^1.175 ≈ -8.28
      expect(calcBpi(2250, withYou)).toBe(Math.round(-100 * Math.pow(Math.log(9 / 8) / absLnZ, 1.175) * 100) / 100);
      expect(calcBpi(2250, withYou)).toBe(-8.28);
      expect(calcBpi(2288, withYou)).toBe(0); // the average
      // the record itself: S = Z, -100 · 1^1.175 = -100, floored at -15
      expect(calcBpi(1781, withYou)).toBe(-15);
    });

    it('"Get On Your Feet" ANOTHER: s = 2600 gives the reference number', () => {
      // m = 2768, k = 2486, z = 2135: Z = 282 / 633; s = 2600: S = 282 / 168 = 47/28
      const expected = Math.round(100 * Math.pow(Math.log(47 / 28) / Math.log(633 / 282), 1.175) * 100) / 100; // ≈ 59.2
      expect(calcBpi(2600, getOnYourFeet)).toBe(expected);
      expect(expected).toBeGreaterThan(59);
      expect(expected).toBeLessThan(60);
    });

    const STRIDE = FUZZ_RUNS >= 1000 ? 1 : 7;
    it('the EX scores of every chart of both vintages have a number, non-decreasing in the score (definitions within the maximum)', () => {
      // (A few published definitions have a world record above 2 × notes, e.g. MENTAL MELTDOWN ANOTHER: pgf of
      // such a record is negative and every BPI is NaN → null, as in the reference; they are left out here.)
      // (Most charts are defined the same in both vintages: each distinct definition is walked once.)
      const seen = new Set<string>();
      for (const f of ['definitions-202509156.json', 'definitions-20241114.json']) {
        const defs = readSharedJson(file.replace('definitions-202509156.json', f)).body as Entry[];
        for (const e of defs) {
          const d = { notes: Number(e.notes), kaidenAvg: Number(e.avg), wr: Number(e.wr), coef: Number(e.coef) };
          if (!(d.notes > 0) || !(d.kaidenAvg > 0 && d.kaidenAvg <= d.notes * 2) || !(d.wr > 0 && d.wr <= d.notes * 2))
            continue;
          const key = `${d.notes}/${d.kaidenAvg}/${d.wr}/${d.coef}`;
          if (seen.has(key)) continue;
          seen.add(key);
          let prev = -Infinity;
          const m = d.notes * 2;
          // Every score within 64 of where the formula changes branch (0, the kaiden average, the record,
          // the maximum); elsewhere every STRIDE-th (every one with FUZZ_RUNS ≥ 1000, as CI's nightly run).
          const near = (s: number) => s < 64 || Math.abs(s - d.kaidenAvg) < 64 || Math.abs(s - d.wr) < 64 || m - s < 64;
          for (let s = 0; s <= m; s += near(s) ? 1 : STRIDE) {
            const b = calcBpi(s, d);
            if (b === null || b < prev) throw new Error(`${e.title} [${e.difficulty}] EX ${s}: ${b} after ${prev}`);
            prev = b;
          }
        }
      }
    });

    it('the inverse answers the score of a target BPI on these charts (above and below the average)', () => {
      const absLnZ = Math.log(811 / 304);
      // the unrounded BPI of 2400 (S = 19/12) is reached at exactly 2400
      const t = 100 * Math.pow(Math.log(19 / 12) / absLnZ, 1.175);
      expect(exScoreForBpi(t, withYou, true)).toBeCloseTo(2400, 6);
      // and of 2250 (S = 8/9, below the average) at exactly 2250
      expect(exScoreForBpi(-100 * Math.pow(Math.log(9 / 8) / absLnZ, 1.175), withYou, true)).toBeCloseTo(2250, 6);
      expect(exScoreForBpi(0, withYou)).toBe(2288);
      for (const c of [withYou, getOnYourFeet]) {
        for (const target of [-10, -1, 0, 10, 41.01, 50, 100, 300]) {
          const s = exScoreForBpi(target, c)!;
          expect(calcBpi(s, c)!).toBeGreaterThanOrEqual(target - 0.005);
          if (s > 0) expect(calcBpi(s - 1, c)!).toBeLessThan(target + 0.005); // one less does not reach it (up to rounding)
        }
      }
    });
  },
);

describe('charts whose average is above the record (generated)', () => {
  it('are 0 at the average, non-decreasing, never null', () => {
    fc.assert(
      fc.property(arbOddChart, fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 0, max: 6000 }), (c, a, b) => {
        const m = c.notes * 2;
        expect(Math.abs(calcBpi(c.kaidenAvg, c)!)).toBeLessThan(0.01);
        const [lo, hi] = [a % (m + 1), b % (m + 1)].sort((x, y) => x - y);
        expect(calcBpi(lo, c)).not.toBeNull();
        expect(calcBpi(hi, c)!).toBeGreaterThanOrEqual(calcBpi(lo, c)!);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trip BPI → EX → BPI (raw) to one decimal', () => {
    fc.assert(
      fc.property(arbOddChart, fc.double({ min: -10, max: 200, noNaN: true }), (c, t) => {
        const m = c.notes * 2;
        const s = exScoreForBpi(t, c, true)!;
        if (s <= 0 || s >= m - 1) return; // clamped, or at the maximum (pgf(m) is a special case)
        const pk = pgf(c.kaidenAvg, m);
        const p = c.coef && c.coef > 0 ? c.coef : 1.175;
        const lnZ = Math.log(pgf(c.wr, m) / pk);
        const lnS = Math.log(pgf(s, m) / pk);
        const back = (lnS >= 0 ? 100 : -100) * Math.pow(Math.abs(lnS / lnZ), p);
        expect(back).toBeCloseTo(t, 1);
      }),
      { numRuns: 500 },
    );
  });
});

describe('inverse', () => {
  it('round-trips BPI → EX → BPI to one decimal (raw)', () => {
    fc.assert(
      fc.property(arbChart, fc.double({ min: -10, max: 100, noNaN: true }), (c, t) => {
        const s = exScoreForBpi(t, c, true)!;
        if (s <= 0 || s >= c.notes * 2) return; // clamped
        const pk = pgf(c.kaidenAvg, c.notes * 2);
        const p = c.coef && c.coef > 0 ? c.coef : 1.175;
        const Z = Math.log(pgf(c.wr, c.notes * 2) / pk);
        const S = Math.log(pgf(s, c.notes * 2) / pk);
        const back = S >= 0 ? 100 * Math.pow(S / Z, p) : -100 * Math.pow(-S / Z, p);
        expect(back).toBeCloseTo(t, 1);
      }),
      { numRuns: 500 },
    );
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
    fc.assert(
      fc.property(fc.array(fc.double({ min: -15, max: 110, noNaN: true }), { maxLength: 50 }), (bpis) => {
        const n = 50;
        expect(totalBpi([...bpis].reverse(), n)).toBe(totalBpi(bpis, n));
      }),
    );
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
    expect(djLevel(Math.ceil((3000 * 8) / 9), 1500)).toBe('AAA');
    expect(djLevel(Math.ceil((3000 * 8) / 9) - 1, 1500)).toBe('AA');
    expect(djLevel(0, 1500)).toBe('F');
  });
});
