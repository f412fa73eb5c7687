import {
  neighbourRecommendations,
  NO_FILTER,
  pickNeighbours,
  radarCacheColumns,
  radarCategoryRanking,
  radarFromCache,
  siteSummary,
  type RadarCacheRow,
} from '../../src/domain/stats';
import { aChart, linearSource } from './stats-fixture';

// BPI of EX s in linearSource = (s − 1200) / 3, floor −15.
describe('recommendations from players near my total BPI (docs/domain/stats.md#neighbours)', () => {
  const src = linearSource([
    aChart({ id: 1, title: 'C1' }),
    aChart({ id: 2, title: 'C2' }),
    aChart({ id: 3, title: 'C3' }),
    aChart({ id: 4, title: 'C4' }),
    aChart({ id: 5, title: 'C5', level: 11, difficulty: 'HYPER' }),
  ]);

  it('picks the n players closest to my total (ties by id), never me', () => {
    const cands = [
      { userId: 'me', totalBpi: 40 },
      { userId: 'a', totalBpi: 42 }, // |2|
      { userId: 'b', totalBpi: 37 }, // |3|
      { userId: 'c', totalBpi: 45 }, // |5|
      { userId: 'd', totalBpi: 38 }, // |2|
      { userId: 'e', totalBpi: 40 }, // |0|
      { userId: 'e', totalBpi: 40 }, // the same player from both range scans
    ];
    expect(pickNeighbours(40, cands, 'me', 3)).toEqual(['e', 'a', 'd']);
    expect(pickNeighbours(40, cands, 'me', 10)).toEqual(['e', 'a', 'd', 'b', 'c']);
  });

  it('weapons / potential against the neighbours\u2019 mean BPI; no neighbour identity in the answer', () => {
    const mine = [
      { chartId: 1, exScore: 1350 }, // 50
      { chartId: 2, exScore: 1230 }, // 10
      { chartId: 3, exScore: 1500 }, // 100
      { chartId: 4, exScore: 1200 }, // 0 — no neighbour played it: left out
      { chartId: 5, exScore: 1290 }, // 30 (☆11 HYPER)
    ];
    const theirs = [
      { userId: 'e', chartId: 1, exScore: 1290 }, // 30
      { userId: 'a', chartId: 1, exScore: 1410 }, // 70 → mean (30 + 70)/2 = 50 → diff 50 − 50 = 0
      { userId: 'd', chartId: 2, exScore: 1260 }, // 20 → diff 10 − 20 = −10
      { userId: 'e', chartId: 3, exScore: 1440 }, // 80
      { userId: 'a', chartId: 3, exScore: 1380 }, // 60
      { userId: 'd', chartId: 3, exScore: 1350 }, // 50 → mean 190/3 = 63.333 → 63.33; diff 100 − 63.33 = 36.67
      { userId: 'a', chartId: 5, exScore: 1200 }, // 0 → diff 30
      { userId: 'c', chartId: 4, exScore: 1500 }, // c is not a neighbour: ignored
    ];
    const noMinimum = { neighbours: 1, perChart: 1 }; // the arithmetic without the privacy minimums (tested below)
    const r = neighbourRecommendations(
      src,
      NO_FILTER,
      40,
      mine,
      ['e', 'a', 'd'],
      theirs,
      { offset: 0, limit: 10 },
      noMinimum,
    );
    expect(r.usedNeighbors).toBe(3);
    expect(r.myTotalBpi).toBe(40);
    expect(r.weapons.total).toBe(4);
    expect(r.weapons.data.map((i) => [i.chartId, i.bpi, i.neighborAvgBpi, i.neighborCount, i.bpiDiff])).toEqual([
      [3, 100, 63.33, 3, 36.67],
      [5, 30, 0, 1, 30],
      [1, 50, 50, 2, 0],
      [2, 10, 20, 1, -10],
    ]);
    expect(r.potential.data.map((i) => i.chartId)).toEqual([2, 1, 5, 3]);
    expect(JSON.stringify(r)).not.toMatch(/"(e|a|d|c)"/); // no neighbour id anywhere
    const f = neighbourRecommendations(
      src,
      { levels: [12], difficulties: null },
      null,
      mine,
      ['e', 'a', 'd'],
      theirs,
      { offset: 1, limit: 2 },
      noMinimum,
    );
    expect(f.myTotalBpi).toBe(-15); // no stored total
    expect(f.weapons.total).toBe(3); // the ☆11 chart is filtered out
    expect(f.weapons.data.map((i) => i.chartId)).toEqual([1, 2]); // page [1, 3) of [3, 1, 2]
  });

  it('the neighbours\u2019 mean is exact in hundredths: the same in whatever order their bests come', () => {
    // four neighbours on chart 1 with BPIs −15, −15, 5.92, 4.02: the mean is (−1500 − 1500 + 592 + 402) / 4
    // = −2006 / 4 = −501.5 hundredths → −5.01 (halves up, as Math.round); in floating point, summed in
    // the reverse order, it came out −5.02
    const bpiOf = new Map([
      [1001, -15],
      [1002, -15],
      [1003, 5.92],
      [1004, 4.02],
      [1005, 0],
    ]);
    const source = { ...src, currentBpi: (id: number, ex: number) => (id === 1 ? (bpiOf.get(ex) ?? null) : null) };
    const theirs = ['e', 'a', 'd', 'b'].map((userId, i) => ({ userId, chartId: 1, exScore: 1001 + i }));
    for (const order of [theirs, [...theirs].reverse(), [theirs[0], theirs[2], theirs[1], theirs[3]]]) {
      const r = neighbourRecommendations(
        source,
        NO_FILTER,
        40,
        [{ chartId: 1, exScore: 1005 }], // mine: BPI 0
        ['e', 'a', 'd', 'b'],
        order,
        { offset: 0, limit: 10 },
        { neighbours: 1, perChart: 1 },
      );
      expect(r.weapons.data.map((i) => [i.neighborAvgBpi, i.neighborCount, i.bpiDiff])).toEqual([[-5.01, 4, 5.01]]);
    }
  });

  it('privacy minimums: nothing with fewer than 5 neighbours; a chart only with 3 of them on it', () => {
    const mine = [
      { chartId: 1, exScore: 1350 },
      { chartId: 3, exScore: 1500 },
    ];
    const theirs = [
      { userId: 'e', chartId: 1, exScore: 1290 },
      { userId: 'a', chartId: 1, exScore: 1410 }, // chart 1: 2 neighbours → hidden (one of them would be nearly identifiable)
      { userId: 'e', chartId: 3, exScore: 1440 },
      { userId: 'a', chartId: 3, exScore: 1380 },
      { userId: 'd', chartId: 3, exScore: 1350 }, // chart 3: 3 neighbours → shown
    ];
    // 3 neighbours < MIN_NEIGHBOURS (5): nothing at all, usedNeighbors 0
    const few = neighbourRecommendations(src, NO_FILTER, 40, mine, ['e', 'a', 'd'], theirs, { offset: 0, limit: 10 });
    expect([few.usedNeighbors, few.weapons.total, few.potential.total]).toEqual([0, 0, 0]);
    // 5 neighbours: chart 3 only (mean (80 + 60 + 50)/3 = 63.33)
    const enough = neighbourRecommendations(src, NO_FILTER, 40, mine, ['e', 'a', 'd', 'x', 'y'], theirs, {
      offset: 0,
      limit: 10,
    });
    expect(enough.usedNeighbors).toBe(5);
    expect(enough.weapons.data.map((i) => [i.chartId, i.neighborAvgBpi, i.neighborCount])).toEqual([[3, 63.33, 3]]);
  });
});

describe('global ranking by radar category, viewer radar beside it (docs/domain/stats.md#rankings)', () => {
  const v = (notes: number, peak: number) => ({
    NOTES: notes,
    CHORD: 0,
    PEAK: peak,
    CHARGE: 0,
    SCRATCH: 0,
    SOFLAN: -15,
  });
  const row = (userId: string, values: ReturnType<typeof v>, visible = true): RadarCacheRow => ({
    userId,
    name: userId.toUpperCase(),
    profileImage: null,
    gameId: null,
    visible,
    ...radarCacheColumns(values),
  });

  it('converts radar values to and from the cache columns', () => {
    expect(radarCacheColumns(v(1, 2))).toEqual({ notes: 1, chord: 0, peak: 2, charge: 0, scratch: 0, soflan: -15 });
    expect(radarFromCache(radarCacheColumns(v(1, 2)))).toEqual(v(1, 2));
  });

  it('ranks by the chosen category, masks who may not be seen, keeps the viewer radar', () => {
    const rows = [row('a', v(50, 10)), row('b', v(20, 60), false), row('me', v(30, 30)), row('c', v(10, 30))];
    const r = radarCategoryRanking(rows, 'PEAK', 'me', { offset: 0, limit: 10 }, v(30, 30));
    // PEAK: b 60, c 30, me 30, a 10 → ranks 1, 2, 2, 4 (c before me by id)
    expect(r.entries.map((e) => [e.rank, e.userId, e.value])).toEqual([
      [1, null, 60],
      [2, 'c', 30],
      [2, 'me', 30],
      [4, 'a', 10],
    ]);
    expect(r.entries[0].data).toEqual(v(20, 60)); // a masked row keeps its values, not its identity
    expect(r.selfRank).toBe(2);
    expect(r.viewerRadar).toEqual(v(30, 30));
    expect(
      radarCategoryRanking(rows, 'NOTES', 'me', { offset: 0, limit: 1 }, null).entries.map((e) => e.userId),
    ).toEqual(['a']);
  });
});

describe('site-wide summary (docs/domain/stats.md#bpi-calculator-and-site): "today" is today in JST', () => {
  it('totals, today, 90 days, hourly / weekday windows, distributions', () => {
    const s = siteSummary({
      now: new Date('2025-07-10T16:00:00Z'), // 11 Jul 01:00 JST
      users: [
        { date: '2025-07-11', hour: 0, count: 2 },
        { date: '2025-07-10', hour: 23, count: 3 },
        { date: '2025-01-01', hour: 10, count: 5 },
      ],
      batches: [
        { date: '2025-07-11', hour: 0, count: 4 },
        { date: '2025-07-05', hour: 12, count: 6 },
        { date: '2025-03-01', hour: 12, count: 1 },
      ],
      plays: [
        { date: '2025-07-11', hour: 0, count: 40 },
        { date: '2025-07-05', hour: 12, count: 60 },
        { date: '2025-03-01', hour: 12, count: 10 },
      ],
      arenaClasses: [
        { arenaClass: 'A1', count: 2 },
        { arenaClass: 'B5', count: 1 },
      ],
      areas: [
        { area: '東京都', count: 5 },
        { area: '大阪府', count: 5 },
        { area: '海外', count: 9 },
      ],
      versions: [
        { version: 'INF', count: 5 },
        { version: '33', count: 10 },
        { version: '9x', count: 1 },
        { version: '32', count: 3 },
      ],
    });
    expect(s.today).toBe('2025-07-11');
    // totals: users 2 + 3 + 5 = 10, batches 4 + 6 + 1 = 11, plays 40 + 60 + 10 = 110; today = 11 Jul JST only
    expect(s.summary).toEqual({
      totalUsers: 10,
      newUsersToday: 2,
      totalBatches: 11,
      newBatchesToday: 4,
      totalPlays: 110,
      newPlaysToday: 40,
    });
    // 90 days ending today: 11 Jul − 89 days = 13 Apr
    expect(s.dailyRegistrations).toHaveLength(90);
    expect(s.dailyRegistrations[0]).toEqual({ date: '2025-04-13', users: 0, batches: 0, plays: 0 });
    expect(s.dailyRegistrations[89]).toEqual({ date: '2025-07-11', users: 2, batches: 4, plays: 40 });
    expect(s.dailyRegistrations.find((d) => d.date === '2025-07-05')).toEqual({
      date: '2025-07-05',
      users: 0,
      batches: 6,
      plays: 60,
    });
    // hours: all time 0 h → 4 / 40, 12 h → 6 + 1 = 7 / 60 + 10 = 70; d7 = 5–11 Jul → 12 h 6 / 60
    expect(s.hourly.all[0]).toEqual({ hour: 0, batches: 4, plays: 40 });
    expect(s.hourly.all[12]).toEqual({ hour: 12, batches: 7, plays: 70 });
    expect(s.hourly.d7[12]).toEqual({ hour: 12, batches: 6, plays: 60 });
    expect(s.hourly.d90[12]).toEqual({ hour: 12, batches: 6, plays: 60 }); // 1 Mar is before 13 Apr
    // weekdays (ISO): 11 Jul 2025 is a Friday (5); 5 Jul and 1 Mar are Saturdays (6)
    expect(s.weekday.all.map((w) => [w.weekday, w.batches, w.plays])).toEqual([
      [1, 0, 0],
      [2, 0, 0],
      [3, 0, 0],
      [4, 0, 0],
      [5, 4, 40],
      [6, 7, 70],
      [7, 0, 0],
    ]);
    expect(s.arenaClassDistribution.map((a) => a.count)).toEqual([2, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(s.areaDistribution.map((a) => a.area)).toEqual(['海外', '大阪府', '東京都']);
    expect(s.versionDistribution).toEqual({
      versions: [
        { version: '32', count: 3 },
        { version: '33', count: 10 },
        { version: 'INF', count: 5 },
        { version: '9x', count: 1 },
      ],
      total: 19,
    });
  });
});
