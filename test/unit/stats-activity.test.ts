import {
  activeDates,
  activityCalendar,
  activityWithActiveDates,
  bpiBoxPlot,
  NO_FILTER,
  percentile,
} from '../../src/domain/stats';
import { aChart, jst, linearSource } from './stats-fixture';

describe('activity calendar and active dates (docs/domain/stats.md#activity)', () => {
  const src = linearSource([
    aChart({ id: 1 }),
    aChart({ id: 2, difficulty: 'HYPER' }),
    aChart({ id: 3, level: 11 }),
    aChart({ id: 4, playStyle: 'DP' }),
    aChart({ id: 5, difficulty: 'NORMAL' }),
  ]);
  const plays = [
    { chartId: 1, playedAt: jst('2025-03-01 10:00') },
    { chartId: 1, playedAt: jst('2025-03-01 11:00') }, // same chart, same day: counted once
    { chartId: 2, playedAt: jst('2025-03-01 23:59') },
    { chartId: 3, playedAt: jst('2025-03-02 00:00') },
    { chartId: 1, playedAt: jst('2025-03-02 08:59') }, // 2025-03-01T23:59Z: the 2nd in JST
    { chartId: 4, playedAt: jst('2025-03-03 12:00') }, // DP: outside the scope
    { chartId: 5, playedAt: jst('2025-03-03 12:00') }, // NORMAL: outside the scope
    { chartId: 3, playedAt: jst('2025-03-04 12:00') }, // ☆11 only
  ];

  it('counts distinct charts per JST day, as bare dates', () => {
    const c = activityCalendar(src, NO_FILTER, plays);
    // 1 Mar: charts 1, 2 → 2; 2 Mar: charts 3, 1 → 2; 4 Mar: chart 3 → 1
    expect(c.days).toEqual([
      { date: '2025-03-01', count: 2 },
      { date: '2025-03-02', count: 2 },
      { date: '2025-03-04', count: 1 },
    ]);
    expect(c.activeDays).toBe(3);
    expect(c.chartDays).toBe(2 + 2 + 1);
    expect(activityCalendar(src, NO_FILTER, plays, { from: '2025-03-02', to: '2025-03-03' }).days).toEqual([
      { date: '2025-03-02', count: 2 },
    ]);
    expect(activityCalendar(src, { levels: null, difficulties: ['HYPER'] }, plays).days).toEqual([
      { date: '2025-03-01', count: 1 },
    ]);
  });

  it('active dates: the level-12 view', () => {
    // ☆12: chart 1 on 1 and 2 Mar, chart 2 on 1 Mar; 4 Mar has only the ☆11 chart
    expect(activeDates(src, plays)).toEqual(['2025-03-01', '2025-03-02']);
  });

  it('the calendar and the active dates in one walk', () => {
    // the ☆11 filter: chart 3 on 2 and 4 Mar; the active dates stay the ☆12 view (1 and 2 Mar)
    expect(activityWithActiveDates(src, { levels: [11], difficulties: null }, plays)).toEqual({
      days: [
        { date: '2025-03-02', count: 1 },
        { date: '2025-03-04', count: 1 },
      ],
      activeDays: 2,
      chartDays: 2,
      activeDates: ['2025-03-01', '2025-03-02'],
    });
    // from 2 Mar: 2 Mar (charts 3, 1) and 4 Mar (chart 3); of the ☆12 dates only 2 Mar
    expect(activityWithActiveDates(src, NO_FILTER, plays, { from: '2025-03-02' })).toEqual({
      days: [
        { date: '2025-03-02', count: 2 },
        { date: '2025-03-04', count: 1 },
      ],
      activeDays: 2,
      chartDays: 3,
      activeDates: ['2025-03-02'],
    });
  });
});

describe('BPI box plot per day / week / month (docs/domain/stats.md#box-plot)', () => {
  const src = linearSource([
    aChart({ id: 1, notes: 800 }),
    aChart({ id: 2, notes: 700 }),
    aChart({ id: 3, notes: 600 }),
    aChart({ id: 4, notes: 500 }),
    aChart({ id: 5, notes: 400 }),
  ]);
  const p = (chartId: number, bpi: number | null, at: string) => ({ chartId, bpi, playedAt: jst(at) });
  const plays = [
    p(1, 20, '2025-04-07 10:00'), // Monday
    p(1, 40, '2025-04-07 11:00'), // the chart's best of the day: 40
    p(2, 10, '2025-04-07 12:00'),
    p(3, -5, '2025-04-07 13:00'),
    p(4, 60, '2025-04-07 14:00'),
    p(5, null, '2025-04-07 15:00'), // no BPI: ignored
    p(1, 50, '2025-04-08 10:00'), // Tuesday
  ];
  const tower = [
    { playDate: '2025-04-07', keyCount: 4000, scratchCount: 1000 },
    { playDate: new Date('2025-04-08T00:00:00Z'), keyCount: 100, scratchCount: 0 }, // a @db.Date value
    { playDate: '2025-04-13', keyCount: 1500, scratchCount: 500 }, // Sunday, no plays
  ];

  it('quartiles by linear interpolation (type 7), totals of the upper parts, efficiency', () => {
    const [mon, tue] = bpiBoxPlot(src, NO_FILTER, 'day', plays, tower);
    // 7 Apr sorted: [−5, 10, 40, 60], n = 4
    //   p25: h = 0.25·3 = 0.75 → −5 + 0.75·(10 − (−5)) = 6.25
    //   median: h = 1.5 → 10 + 0.5·30 = 25;  p75: h = 2.25 → 40 + 0.25·20 = 45
    //   total (N 4, K 2): (−25 + 100 + 1600 + 3600)/4 = 1318.75 → 36.31
    //   top 75 % (drop ⌊0.25·4⌋ = 1): [10, 40, 60], K = log2 3: (10^K + 40^K + 60^K)/3 = 347.558 → 40.11
    //   top 25 % (drop ⌊0.75·4⌋ = 3): [60] → 60
    //   notes 800 + 700 + 600 + 500 = 2600; keys 4000 + 1000 = 5000 → 2600/5000 = 52 %
    expect(mon).toEqual({
      date: '2025-04-07',
      min: -5,
      p25: 6.25,
      median: 25,
      p75: 45,
      max: 60,
      count: 4,
      totalBpi: 36.31,
      totalBpiTop75: 40.11,
      totalBpiTop25: 60,
      registeredNotes: 2600,
      totalPhysicalNotes: 5000,
      efficiency: 52,
    });
    // 8 Apr: one chart (BPI 50, 800 notes) for 100 key presses: 800 % capped at 100
    expect(tue).toMatchObject({
      date: '2025-04-08',
      min: 50,
      median: 50,
      max: 50,
      count: 1,
      totalBpi: 50,
      registeredNotes: 800,
      totalPhysicalNotes: 100,
      efficiency: 100,
    });
  });

  it('Sunday weeks (as the reference): the week keeps each chart best; the next Sunday starts another week', () => {
    const [w, ...rest] = bpiBoxPlot(src, NO_FILTER, 'week', plays, tower);
    // Mon 7 and Tue 8 Apr fall in the week of Sunday 6 Apr; chart 1 best of the week 50: sorted [−5, 10, 50, 60]
    //   p25 = −5 + 0.75·15 = 6.25; median = 10 + 0.5·40 = 30; p75 = 50 + 0.25·10 = 52.5
    //   total: (−25 + 100 + 2500 + 3600)/4 = 1543.75 → 39.29
    //   physical 5000 + 100 = 5100 (Sunday 13 Apr opens the next week, which has no plays: no box);
    //   registered 800 + 700 + 600 + 500 = 2600; 2600/5100 = 50.980… → 50.98
    expect(w).toMatchObject({
      date: '2025-04-06',
      p25: 6.25,
      median: 30,
      p75: 52.5,
      totalBpi: 39.29,
      totalPhysicalNotes: 5100,
      efficiency: 50.98,
    });
    expect(rest).toEqual([]);
    expect(bpiBoxPlot(src, NO_FILTER, 'month', plays, [])[0]).toMatchObject({
      date: '2025-04',
      count: 4,
      efficiency: 0,
    });
  });

  it('percentile on small lists', () => {
    expect(percentile([7], 25)).toBe(7);
    expect(percentile([1, 2], 50)).toBe(1.5);
    expect(percentile([1, 2, 3, 4, 5], 75)).toBe(4);
  });
});
