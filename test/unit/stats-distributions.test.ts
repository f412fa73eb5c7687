import {
  bpiBuckets,
  bpiDistribution,
  djRankDistribution,
  djRankOf,
  NO_FILTER,
  scoreRateDistribution,
} from '../../src/domain/stats';
import { aChart, linearSource } from './stats-fixture';

// BPI of EX s in linearSource = (s − 1200) / 3, floor −15.
const labelCounts = (h: { buckets: { label: string; count: number }[] }) =>
  Object.fromEntries(h.buckets.filter((b) => b.count > 0).map((b) => [b.label, b.count]));

describe('single-BPI distribution (docs/domain/stats.md#distributions)', () => {
  it('step 10: 13 buckets <-10, -10, 0 … 90, 100+', () => {
    expect(bpiBuckets(10).map((b) => b.label)).toEqual([
      '<-10',
      '-10',
      '0',
      '10',
      '20',
      '30',
      '40',
      '50',
      '60',
      '70',
      '80',
      '90',
      '100+',
    ]);
    // steps 5 / 2 / 1: 110/step regular buckets + the two open ends
    expect(bpiBuckets(5)).toHaveLength(22 + 2);
    expect(bpiBuckets(2)).toHaveLength(55 + 2);
    expect(bpiBuckets(1)).toHaveLength(110 + 2);
    expect(bpiBuckets(5)[1]).toEqual({ label: '-10', from: -10, to: -5, count: 0 });
  });

  it('puts each best in its bucket, borders in the upper bucket', () => {
    const charts = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => aChart({ id }));
    const src = linearSource(charts);
    const bests = [
      { chartId: 1, exScore: 1140 }, // (1140−1200)/3 = −20 → floored −15 → "<-10"
      { chartId: 2, exScore: 1170 }, // −10 exactly → "-10"
      { chartId: 3, exScore: 1199 }, // −0.333… → "-10"
      { chartId: 4, exScore: 1200 }, // 0 → "0"
      { chartId: 5, exScore: 1470 }, // 90 exactly → "90"
      { chartId: 6, exScore: 1499 }, // 99.666… → "90"
      { chartId: 7, exScore: 1500 }, // 100 → "100+"
      { chartId: 8, exScore: 0 }, // EX 0: skipped
    ];
    const d = bpiDistribution(src, bests, NO_FILTER, 10);
    expect(d.total).toBe(7);
    expect(labelCounts(d)).toEqual({ '<-10': 1, '-10': 2, '0': 1, '90': 2, '100+': 1 });
    // step 5: −10 → "-10" ([−10, −5)), −0.33 → "-5", 0 → "0", 90 → "90", 99.67 → "95"
    expect(labelCounts(bpiDistribution(src, bests, NO_FILTER, 5))).toEqual({
      '<-10': 1,
      '-10': 1,
      '-5': 1,
      '0': 1,
      '90': 1,
      '95': 1,
      '100+': 1,
    });
  });

  it('counts only SP BPI charts in the query scope that have a definition', () => {
    const charts = [
      aChart({ id: 1 }),
      aChart({ id: 2, level: 11 }),
      aChart({ id: 3, difficulty: 'HYPER' }),
      aChart({ id: 4, playStyle: 'DP' }),
      aChart({ id: 5, difficulty: 'NORMAL' }),
      aChart({ id: 6, definition: null }),
      aChart({ id: 7, level: 10 }),
    ];
    const bests = charts.map((c) => ({ chartId: c.id, exScore: 1350 })); // BPI 50 each
    const src = linearSource(charts);
    // default scope: SP, ☆11/☆12, H/A/L, with definition → charts 1, 2, 3
    expect(labelCounts(bpiDistribution(src, bests, NO_FILTER, 10))).toEqual({ '50': 3 });
    expect(bpiDistribution(src, bests, { levels: [11], difficulties: null }, 10).total).toBe(1);
    expect(bpiDistribution(src, bests, { levels: null, difficulties: ['HYPER'] }, 10).total).toBe(1);
    // a best on a chart the source does not know is ignored
    expect(bpiDistribution(src, [{ chartId: 99, exScore: 1350 }], NO_FILTER, 10).total).toBe(0);
  });
});

describe('DJ rank distribution with MAX- (docs/domain/stats.md#distributions)', () => {
  it('borders are reached exactly: 900 notes → max 1800, AAA 1600 (8/9), MAX- 1700 (17/18)', () => {
    expect(djRankOf(1700, 900)).toBe('MAX-');
    expect(djRankOf(1699, 900)).toBe('AAA');
    expect(djRankOf(1600, 900)).toBe('AAA');
    expect(djRankOf(1599, 900)).toBe('AA');
    expect(djRankOf(1400, 900)).toBe('AA'); // 7/9 · 1800 = 1400
    expect(djRankOf(1200, 900)).toBe('A'); // 6/9
    expect(djRankOf(400, 900)).toBe('E'); // 2/9
    expect(djRankOf(399, 900)).toBe('F');
    expect(djRankOf(1800, 900)).toBe('MAX-');
    // 800 notes → 1600: AAA = ceil(1422.2) = 1423, MAX- = ceil(1511.1) = 1512
    expect(djRankOf(1422, 800)).toBe('AA');
    expect(djRankOf(1423, 800)).toBe('AAA');
    expect(djRankOf(1511, 800)).toBe('AAA');
    expect(djRankOf(1512, 800)).toBe('MAX-');
  });

  it('9 buckets F … AAA, MAX-; AAA does not include MAX-; EX 0 skipped', () => {
    const charts = [1, 2, 3, 4, 5].map((id) => aChart({ id, notes: 900 }));
    const src = linearSource(charts);
    const h = djRankDistribution(
      src,
      [
        { chartId: 1, exScore: 1750 }, // MAX-
        { chartId: 2, exScore: 1650 }, // AAA
        { chartId: 3, exScore: 1600 }, // AAA
        { chartId: 4, exScore: 100 }, // 100/1800 < 2/9 → F
        { chartId: 5, exScore: 0 }, // skipped
      ],
      NO_FILTER,
    );
    expect(h.buckets.map((b) => b.label)).toEqual(['F', 'E', 'D', 'C', 'B', 'A', 'AA', 'AAA', 'MAX-']);
    expect(h.total).toBe(4);
    expect(labelCounts(h)).toEqual({ F: 1, AAA: 2, 'MAX-': 1 });
  });
});

describe('score-rate distribution (docs/domain/stats.md#distributions)', () => {
  it('buckets 0 … 90 and 100 (MAX only); a rate on a border is in the upper bucket', () => {
    const charts = [1, 2, 3, 4, 5].map((id) => aChart({ id, notes: 500 })); // max 1000
    const src = linearSource(charts);
    const bests = [
      { chartId: 1, exScore: 1000 }, // 100 % → "100"
      { chartId: 2, exScore: 999 }, // 99.9 % → "90"
      { chartId: 3, exScore: 900 }, // 90 % exactly → "90"
      { chartId: 4, exScore: 899 }, // 89.9 % → "80"
      { chartId: 5, exScore: 5 }, // 0.5 % → "0"
    ];
    const h10 = scoreRateDistribution(src, bests, NO_FILTER, 10);
    expect(h10.buckets.map((b) => b.label)).toEqual(['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100']);
    expect(labelCounts(h10)).toEqual({ '0': 1, '80': 1, '90': 2, '100': 1 });
    // step 2: 99.9 → "98", 90 → "90", 89.9 → "88"; 50 regular buckets + "100"
    const h2 = scoreRateDistribution(src, bests, NO_FILTER, 2);
    expect(h2.buckets).toHaveLength(51);
    expect(labelCounts(h2)).toEqual({ '0': 1, '88': 1, '90': 1, '98': 1, '100': 1 });
  });
});
