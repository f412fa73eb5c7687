import { totalBpiAsOf, totalBpiNow, totalBpiTrend, NO_FILTER } from '../../src/domain/stats';
import { aChart, aPlay, linearSource } from './stats-fixture';

// BPI of EX s in linearSource = (s − 1200) / 3, floor −15. Plays carry their own stored BPI.
// The total set in version 33 (src/domain/totals.ts): SP ☆12 with a definition, available in 33
// → charts 1–4, N = 4, exponent K = max(1, log2 4) = 2; total = sqrt(Σ sign(b)·b² / 4).
const charts = [
  aChart({ id: 1, title: 'T1' }),
  aChart({ id: 2, title: 'T2' }),
  aChart({ id: 3, title: 'T3', difficulty: 'LEGGENDARIA' }),
  aChart({ id: 4, title: 'T4', difficulty: 'HYPER' }),
  aChart({ id: 11, title: 'Removed', removedInVersion: '33' }),
  aChart({ id: 12, title: 'Eleven', level: 11 }),
  aChart({ id: 13, title: 'No def', definition: null }),
  aChart({ id: 14, title: 'Double', playStyle: 'DP' }),
  aChart({ id: 15, title: 'Next', releasedVersion: 34 }),
];
const src = linearSource(charts);

describe('TotalBPI now / as of a date (docs/domain/stats.md#total-bpi-now, docs/domain/bpi.md#which-n)', () => {
  it('now: bests under the current definitions over the one total set, with N, played count and rank', () => {
    const r = totalBpiNow(src, '33', [
      { chartId: 1, exScore: 1500 }, // 100
      { chartId: 2, exScore: 1350 }, // 50
      { chartId: 11, exScore: 1500 }, // removed in 33: not in the set
      { chartId: 12, exScore: 1500 }, // ☆11: not in the set
    ]);
    // (100² + 50² − 15² − 15²) / 4 = (10000 + 2500 − 225 − 225) / 4 = 3012.5; sqrt = 54.886 → 54.89
    // rank = ceil(2699^((100 − 54.89)/100)) = ceil(2699^0.4511) = ceil(35.30) = 36
    expect(r).toEqual({ version: '33', asOf: null, totalBpi: 54.89, estimatedRank: 36, playedCount: 2, chartCount: 4 });
  });

  it('as of a date: the best by the end of that JST day, with the BPI stored on its play', () => {
    const plays = [
      aPlay(1, 1350, '2025-01-01 10:00', 60), // stored with the definition of the time: 60
      aPlay(2, 1200, '2025-01-01 23:00', 0),
      aPlay(2, 1230, '2025-01-01 23:59', 10),
      aPlay(1, 1500, '2025-01-02 00:30', 100), // 2025-01-01T15:30Z: already the 2nd in JST
    ];
    // 1 Jan: [60, 10, −15, −15] → (3600 + 100 − 225 − 225)/4 = 812.5; sqrt = 28.504 → 28.5
    //   rank = ceil(2699^0.715) = ceil(283.99) = 284
    expect(totalBpiAsOf(src, '33', plays, '2025-01-01')).toEqual({
      version: '33',
      asOf: '2025-01-01',
      totalBpi: 28.5,
      estimatedRank: 284,
      playedCount: 2,
      chartCount: 4,
    });
    // 2 Jan: [100, 10, −15, −15] → (10000 + 100 − 450)/4 = 2412.5; sqrt = 49.117 → 49.12; rank ceil(55.69) = 56
    expect(totalBpiAsOf(src, '33', plays, '2025-01-02')).toMatchObject({ totalBpi: 49.12, estimatedRank: 56 });
    // before any play: every chart −15 → −15
    expect(totalBpiAsOf(src, '33', plays, '2024-12-31')).toMatchObject({ totalBpi: -15, playedCount: 0 });
  });
});

describe('TotalBPI trend with updates (docs/domain/stats.md#total-bpi-trend)', () => {
  const plays = [
    aPlay(1, 1350, '2025-01-01 10:00', 60),
    aPlay(2, 1200, '2025-01-01 23:00', 0),
    aPlay(1, 1500, '2025-01-02 00:30', 100),
    aPlay(1, 1400, '2025-01-02 01:00', 66), // a lamp-only improvement (lower EX): not an update
    aPlay(3, 1230, '2025-01-05 20:00', null), // no stored BPI → −15
    aPlay(2, 1230, '2025-01-05 21:00', 10),
    aPlay(4, 1140, '2025-01-06 09:00', -15),
    aPlay(12, 1500, '2025-01-03 12:00', 100), // ☆11: outside the default scope
  ];

  it('one point per JST day from the first to the last, empty days carried', () => {
    const r = totalBpiTrend(src, '33', NO_FILTER, 'day', plays);
    expect(r.chartCount).toBe(4);
    // 1 Jan: [60, 0, −15, −15] → (3600 − 450)/4 = 787.5 → 28.06
    // 2 Jan: [100, 0, −15, −15] → (10000 − 450)/4 = 2387.5 → 48.86
    // 5 Jan: [100, 10, −15 (chart 3, no BPI), −15] → (10000 + 100 − 450)/4 = 2412.5 → 49.12
    // 6 Jan: chart 4 at −15 changes nothing → 49.12
    expect(r.points.map((p) => [p.date, p.totalBpi, p.playedCount, p.updatedCount])).toEqual([
      ['2025-01-01', 28.06, 2, 2],
      ['2025-01-02', 48.86, 2, 1],
      ['2025-01-03', 48.86, 2, 0],
      ['2025-01-04', 48.86, 2, 0],
      ['2025-01-05', 49.12, 3, 2],
      ['2025-01-06', 49.12, 4, 1],
    ]);
    const u = r.points[4].updates.map(({ chartId, title, prevExScore, newExScore, prevBpi, newBpi }) => ({
      chartId,
      title,
      prevExScore,
      newExScore,
      prevBpi,
      newBpi,
    }));
    expect(u).toEqual([
      { chartId: 3, title: 'T3', prevExScore: null, newExScore: 1230, prevBpi: null, newBpi: -15 },
      { chartId: 2, title: 'T2', prevExScore: 1200, newExScore: 1230, prevBpi: 0, newBpi: 10 },
    ]);
    expect(r.points[1].updates[0]).toMatchObject({
      chartId: 1,
      prevExScore: 1350,
      newExScore: 1500,
      prevBpi: 60,
      newBpi: 100,
    });
  });

  it('week (Monday, ISO) and month groups keep the last day and list every update of the period', () => {
    // 2025-01-01 is a Wednesday: 1–5 Jan are in the week of Monday 30 Dec 2024; 6 Jan starts the next
    const w = totalBpiTrend(src, '33', NO_FILTER, 'week', plays);
    expect(w.points.map((p) => [p.date, p.totalBpi, p.playedCount, p.updatedCount])).toEqual([
      ['2024-12-30', 49.12, 3, 5],
      ['2025-01-06', 49.12, 4, 1],
    ]);
    const m = totalBpiTrend(src, '33', NO_FILTER, 'month', plays);
    expect(m.points.map((p) => [p.date, p.totalBpi, p.playedCount, p.updatedCount])).toEqual([
      ['2025-01', 49.12, 4, 6],
    ]);
  });

  it('filters change the scope and N: ☆11 only → N = 1 (chart 12)', () => {
    const r = totalBpiTrend(src, '33', { levels: [11], difficulties: null }, 'day', plays);
    expect(r.chartCount).toBe(1);
    expect(r.points.map((p) => [p.date, p.totalBpi])).toEqual([['2025-01-03', 100]]);
    // ANOTHER ☆12 only: charts 1, 2 → N = 2, K = 1 (mean): 1 Jan (60 + 0)/2 = 30
    const a = totalBpiTrend(src, '33', { levels: null, difficulties: ['ANOTHER'] }, 'day', plays);
    expect(a.chartCount).toBe(2);
    expect(a.points[0]).toMatchObject({ date: '2025-01-01', totalBpi: 30 });
    expect(totalBpiTrend(src, '33', NO_FILTER, 'day', []).points).toEqual([]);
  });
});
