import { monthlyReview, orThrow, parseReviewPeriod, towerPeriodRanks } from '../../src/domain/stats';
import { aChart, aPlay, linearSource } from './stats-fixture';

// Total set in 33: charts 1 and 2 (SP ☆12 with a definition) → N = 2, K = max(1, log2 2) = 1:
// the total is the plain mean of the two BPIs (unplayed −15). Plays carry their stored BPI.
const src = linearSource([
  aChart({ id: 1, title: 'T1', radarCategory: 'NOTES' }),
  aChart({ id: 2, title: 'T2', radarCategory: 'CHORD' }),
  aChart({ id: 3, title: 'T3', radarCategory: 'PEAK', level: 11, difficulty: 'HYPER' }),
]);
const mine = [
  aPlay(1, 1290, '2025-04-20 10:00', 30), // before the period
  aPlay(1, 1350, '2025-05-03 21:00', 50), // Saturday
  aPlay(2, 1260, '2025-05-03 22:00', 20), // first play
  aPlay(1, 1320, '2025-05-10 10:00', 40), // lower EX: a lamp-only improvement, not an update
  aPlay(3, 1500, '2025-05-10 11:00', 100), // ☆11: not in the total set
  aPlay(2, 1380, '2025-06-01 10:00', 60), // after the period
];
const rivals = [
  {
    userId: 'r1',
    name: 'Ren',
    profileImage: null,
    plays: [
      aPlay(1, 1320, '2025-04-01 10:00', 40),
      aPlay(2, 1290, '2025-05-20 10:00', 30),
      aPlay(1, 1380, '2025-06-05 10:00', 60),
    ],
  },
  { userId: 'r2', name: 'Aki', profileImage: null, plays: [aPlay(1, 1200, '2025-05-02 10:00', 0)] },
];
const input = {
  version: '33',
  period: orThrow(parseReviewPeriod('2025-05')),
  plays: mine,
  tower: [
    { playDate: '2025-04-30', keyCount: 9999, scratchCount: 9 }, // outside
    { playDate: '2025-05-03', keyCount: 3000, scratchCount: 200 },
    { playDate: '2025-05-10', keyCount: 5000, scratchCount: 100 },
    { playDate: '2025-05-11', keyCount: 0, scratchCount: 0 },
  ],
  arena: [
    {
      snapshotId: 1,
      fetchedAt: new Date('2025-05-02T03:00:00Z'),
      arenaClass: 'A3' as const,
      rank: 50,
      wins: 1,
      a1Continue: null,
    },
    {
      snapshotId: 2,
      fetchedAt: new Date('2025-05-20T03:00:00Z'),
      arenaClass: 'A2' as const,
      rank: 300,
      wins: 2,
      a1Continue: 0,
    },
    {
      snapshotId: 3,
      fetchedAt: new Date('2025-05-25T03:00:00Z'),
      arenaClass: 'A2' as const,
      rank: 120,
      wins: 3,
      a1Continue: 2,
    },
    {
      snapshotId: 4,
      fetchedAt: new Date('2025-06-02T03:00:00Z'),
      arenaClass: 'A1' as const,
      rank: 1,
      wins: 4,
      a1Continue: 5,
    },
  ],
  songRanks: new Map([[1, 3]]),
  towerRanks: towerPeriodRanks(
    [
      { userId: 'me', keyCount: 8000, scratchCount: 300 },
      { userId: 'x', keyCount: 9000, scratchCount: 100 },
      { userId: 'y', keyCount: 8000, scratchCount: 400 },
    ],
    'me',
  ),
  rivals,
};

describe('monthly review (docs/domain/stats.md#review)', () => {
  const r = monthlyReview(src, input);

  it('total BPI timeline: start before the period, one point per play day', () => {
    // start: T1 30, T2 unplayed −15 → (30 − 15)/2 = 7.5
    // 3 May: T1 50, T2 20 → 35; 10 May: only a lamp-only play and a ☆11 chart → 35
    expect(r.bpi).toEqual({
      start: 7.5,
      end: 35,
      diff: 27.5,
      chartCount: 2,
      history: [
        { date: '2025-05-03', value: 35 },
        { date: '2025-05-10', value: 35 },
      ],
    });
    expect(r.activity.bestDays.bestGrowth).toEqual({ date: '2025-05-03', bpiDiff: 27.5 });
  });

  it('updated charts: by BPI, and the improved ones by their rise', () => {
    expect(r.topSongs.topBpiSongs.map((s) => [s.chartId, s.bpi, s.bpiBefore, s.diff, s.rank])).toEqual([
      [3, 100, null, null, null],
      [1, 50, 30, 20, 3],
      [2, 20, null, null, null],
    ]);
    expect(r.topSongs.topImprovedSongs.map((s) => [s.chartId, s.exScoreBefore, s.exScore, s.diff])).toEqual([
      [1, 1290, 1350, 20],
    ]);
  });

  it('activity: key counter, plays by weekday and hour, best days, tower ranks', () => {
    expect(r.activity).toMatchObject({
      totalKeys: 3000 + 5000,
      totalScratches: 200 + 100,
      playDays: 2,
      updatedSongs: 3,
    });
    // the 4 plays of May (3 and 10 May are Saturdays, ISO 6) at 21, 22, 10, 11 h
    expect(r.activity.byWeekday.map((w) => w.count)).toEqual([0, 0, 0, 0, 0, 4, 0]);
    expect(r.activity.byHour.filter((h) => h.count > 0).map((h) => h.hour)).toEqual([10, 11, 21, 22]);
    expect(r.activity.bestDays.bestKeysDay).toEqual({ date: '2025-05-10', keyCount: 5000 });
    expect(r.activity.bestDays.bestScratchDay).toEqual({ date: '2025-05-03', scratchCount: 200 });
    // keys: x 9000 > me 8000 = y → rank 2; scratches: y 400 > me 300 > x → rank 2
    expect(r.activity.towerRanking).toEqual({ keysRank: 2, scratchRank: 2, totalUsers: 3 });
  });

  it('radar growth per category, with the charts that rose', () => {
    // NOTES: T1 30 → 50; CHORD: nothing → T2 20 (from −15); PEAK: nothing → T3 100 (one chart each: N = 1)
    expect(r.radarGrowth.map((g) => [g.category, g.start, g.end, g.diff])).toEqual([
      ['NOTES', 30, 50, 20],
      ['CHORD', -15, 20, 35],
      ['PEAK', -15, 100, 115],
    ]);
    expect(r.radarGrowth[0].history).toEqual([
      { date: '2025-05-03', value: 50 },
      { date: '2025-05-10', value: 50 },
    ]);
    expect(r.radarGrowth[1].songs.map((s) => [s.chartId, s.diff])).toEqual([[2, 35]]);
  });

  it('rivals compared at the end of the period, growth ranking', () => {
    // Ren: start T1 40, T2 −15 → 12.5; 20 May T2 30 → (40 + 30)/2 = 35; growth 22.5
    //   T1: start me 1290 < 1320 (loss) → end me 1350 > 1320 (his 1380 is in June): a new win
    //   T2: start me unplayed → end me 1260 < 1290: a new loss
    // Aki: start −15; 2 May T1 0 → (0 − 15)/2 = −7.5; growth 7.5; T1 me 1350 > 1200: a new win
    expect(r.rivals.map((x) => [x.name, x.bpiStart, x.bpiEnd, x.bpiGrowth, x.newWins, x.newLosses])).toEqual([
      ['Aki', -15, -7.5, 7.5, 1, 0],
      ['Ren', 12.5, 35, 22.5, 1, 1],
    ]);
    expect(r.rivals[1].topWinningSongs).toEqual([
      { chartId: 1, title: 'T1', difficulty: 'ANOTHER', level: 12, myExScore: 1350, rivalExScore: 1320, margin: 30 },
    ]);
    // rates: me 27.5/(7.5 + 15) = 122.22 %, Ren 22.5/(12.5 + 15) = 81.82 %, Aki start −15 → none
    expect(r.growthRanking.byAbsGrowth.map((e) => [e.name, e.growth])).toEqual([
      ['あなた', 27.5],
      ['Ren', 22.5],
      ['Aki', 7.5],
    ]);
    expect(r.growthRanking.byGrowthRate.map((e) => [e.name, e.growthRate])).toEqual([
      ['あなた', 122.22],
      ['Ren', 81.82],
    ]);
    expect(r.growthRanking.byAbsGrowth[0]).toMatchObject({ userId: null, isViewer: true });
  });

  it('arena: best class of the period, its best rank, the longest A1 streak', () => {
    expect(r.arena).toEqual({ bestClass: 'A2', bestRank: 120, maxA1Continue: 2 });
  });

  it('year review: one point per month', () => {
    const y = monthlyReview(src, { ...input, period: orThrow(parseReviewPeriod('2025')), rivals: [] });
    // start (before 2025): −15; April: T1 30 → 7.5; May: 35; June: T2 60 → (50 + 60)/2 = 55
    expect(y.bpi).toEqual({
      start: -15,
      end: 55,
      diff: 70,
      chartCount: 2,
      history: [
        { date: '2025-04', value: 7.5 },
        { date: '2025-05', value: 35 },
        { date: '2025-06', value: 55 },
      ],
    });
    expect(y.arena).toEqual({ bestClass: 'A1', bestRank: 1, maxA1Continue: 5 });
  });

  it('an empty month', () => {
    const e = monthlyReview(src, { version: '33', period: orThrow(parseReviewPeriod('2024-01')), plays: mine });
    expect(e.bpi).toEqual({ start: -15, end: -15, diff: 0, chartCount: 2, history: [] });
    expect(e.topSongs.topBpiSongs).toEqual([]);
    expect(e.activity.bestDays).toEqual({ bestGrowth: null, bestKeysDay: null, bestScratchDay: null });
    expect(e.arena).toBeNull();
  });
});
