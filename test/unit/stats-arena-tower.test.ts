import {
  arenaTrend,
  monthsOfPlays,
  parseTowerRegistration,
  reviewPeriods,
  towerHistory,
  towerPeriod,
  towerRanking,
  type TowerTotalRow,
} from '../../src/domain/stats';
import { jst } from './stats-fixture';

describe('arena rank trend from the snapshots (docs/domain/stats.md#arena-trend)', () => {
  it('global rank = players of the same snapshot in better classes + class rank', () => {
    const t = arenaTrend(
      [
        {
          snapshotId: 3,
          fetchedAt: new Date('2025-05-03T03:00:00Z'),
          arenaClass: 'A2',
          rank: 80,
          wins: 30,
          a1Continue: null,
        },
        {
          snapshotId: 1,
          fetchedAt: new Date('2025-05-01T03:00:00Z'),
          arenaClass: 'A3',
          rank: 50,
          wins: 10,
          a1Continue: null,
        },
        {
          snapshotId: 2,
          fetchedAt: new Date('2025-05-02T16:00:00Z'),
          arenaClass: 'A2',
          rank: 120,
          wins: 20,
          a1Continue: 0,
        },
      ],
      [
        { snapshotId: 1, arenaClass: 'A1', count: 10 },
        { snapshotId: 1, arenaClass: 'A2', count: 200 },
        { snapshotId: 1, arenaClass: 'A3', count: 300 },
        { snapshotId: 1, arenaClass: 'B1', count: 50 },
        { snapshotId: 2, arenaClass: 'A1', count: 12 },
        { snapshotId: 2, arenaClass: 'A2', count: 250 },
      ],
    );
    // s1: A3 rank 50, above it A1 10 + A2 200 → 260; 560 players (10 + 200 + 300 + 50)
    // s2: A2 rank 120, above it A1 12 → 132; 262 players; fetched 16:00Z = 3 May 01:00 JST
    // s3: no class sizes stored → global rank unknown (never today's distribution)
    expect(t.points.map((p) => [p.snapshotId, p.date, p.arenaClass, p.classRank, p.globalRank, p.players])).toEqual([
      [1, '2025-05-01', 'A3', 50, 260, 560],
      [2, '2025-05-03', 'A2', 120, 132, 262],
      [3, '2025-05-03', 'A2', 80, null, null],
    ]);
    // best: the best class (A2), then the best class rank (80)
    expect(t.best?.snapshotId).toBe(3);
    expect(arenaTrend([], [])).toEqual({ points: [], best: null });
  });
});

describe('months available for reviews (docs/domain/stats.md#review)', () => {
  it('JST months of the plays, newest first, with their years', () => {
    const months = monthsOfPlays([
      jst('2024-12-31 23:59'),
      jst('2025-01-01 00:00'),
      new Date('2025-02-28T15:00:00Z') /* 1 Mar JST */,
    ]);
    expect(reviewPeriods(months)).toEqual({ months: ['2025-03', '2025-01', '2024-12'], years: ['2025', '2024'] });
    expect(reviewPeriods(['2025-13', 'x', '2025-02', '2025-02'])).toEqual({ months: ['2025-02'], years: ['2025'] });
  });
});

describe('IIDX TOWER: register, read, ranking (docs/domain/stats.md#tower)', () => {
  const today = '2025-06-15';

  it('registration: checked rows sorted by date; every problem named with its row', () => {
    const ok = parseTowerRegistration(
      {
        version: '33',
        rows: [
          { playDate: '2025-06-15', keyCount: 10, scratchCount: 2 },
          { playDate: '2025-06-01', keyCount: 0, scratchCount: 0 },
        ],
      },
      today,
    );
    expect(ok).toEqual({
      ok: true,
      value: {
        version: '33',
        rows: [
          { playDate: '2025-06-01', keyCount: 0, scratchCount: 0 },
          { playDate: '2025-06-15', keyCount: 10, scratchCount: 2 },
        ],
      },
    });
    const bad = parseTowerRegistration(
      {
        version: 'XX',
        rows: [
          { playDate: '2025-06-16', keyCount: 1, scratchCount: 1 }, // tomorrow (JST)
          { playDate: '2025-02-30', keyCount: -1, scratchCount: 1.5 },
          { playDate: '2025-06-01', keyCount: 1, scratchCount: 1 },
          { playDate: '2025-06-01', keyCount: 2, scratchCount: 2 }, // twice
        ],
      },
      today,
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.issues.map((i) => i.path)).toEqual([
        ['version'],
        ['rows', 0, 'playDate'],
        ['rows', 1, 'playDate'],
        ['rows', 1, 'keyCount'],
        ['rows', 1, 'scratchCount'],
        ['rows', 3, 'playDate'],
      ]);
    }
    expect(parseTowerRegistration({ rows: [] }, today)).toMatchObject({
      ok: false,
      issues: [{ path: ['version'] }, { path: ['rows'] }],
    });
  });

  it('history: newest first with totals; play days are days with a count', () => {
    const h = towerHistory([
      { playDate: new Date('2025-06-01T00:00:00Z'), keyCount: 1000, scratchCount: 100 },
      { playDate: '2025-06-03', keyCount: 0, scratchCount: 0 },
      { playDate: '2025-06-02', keyCount: 500, scratchCount: 50 },
    ]);
    expect(h.days.map((d) => d.playDate)).toEqual(['2025-06-03', '2025-06-02', '2025-06-01']);
    expect(h).toMatchObject({ totalKeys: 1500, totalScratches: 150, playDays: 2 });
    expect(
      towerHistory([{ playDate: '2025-06-01', keyCount: 1, scratchCount: 1 }], { from: '2025-06-02' }).days,
    ).toEqual([]);
  });

  it('period: the day, its Monday–Sunday week, its month; a later date is today', () => {
    // 2025-06-11 is a Wednesday → week 9 (Mon) … 15 (Sun)
    expect(towerPeriod('week', '2025-06-11', today)).toEqual({
      period: 'week',
      startDate: '2025-06-09',
      endDate: '2025-06-15',
    });
    expect(towerPeriod('month', '2024-02-10', today)).toEqual({
      period: 'month',
      startDate: '2024-02-01',
      endDate: '2024-02-29',
    });
    expect(towerPeriod('day', null, today)).toEqual({ period: 'day', startDate: today, endDate: today });
    expect(towerPeriod('day', '2025-07-01', today)).toMatchObject({ startDate: today });
  });

  it('ranking: keys + scratches desc, shared ranks, self rank, private players masked', () => {
    const row = (userId: string, keyCount: number, scratchCount: number, visible: boolean): TowerTotalRow => ({
      userId,
      name: `n-${userId}`,
      profileImage: `https://img/${userId}`,
      gameId: '12345678',
      visible,
      keyCount,
      scratchCount,
    });
    const rows = [
      row('u1', 900, 100, true),
      row('u2', 1500, 0, false),
      row('u3', 1000, 0, true),
      row('me', 400, 100, false),
      row('u5', 10, 0, true),
    ];
    const period = towerPeriod('day', '2025-06-10', today);
    const r = towerRanking(rows, period, 'me', { offset: 0, limit: 3 });
    // totals: u2 1500, u1 1000, u3 1000, me 500, u5 10 → ranks 1, 2, 2 (u1 before u3 by id), 4, 5
    expect(r.entries.map((e) => [e.rank, e.userId, e.value, e.isMasked])).toEqual([
      [1, null, 1500, true],
      [2, 'u1', 1000, false],
      [2, 'u3', 1000, false],
    ]);
    expect(r.entries[0]).toMatchObject({
      name: '非公開ユーザー',
      profileImage: null,
      gameId: null,
      data: { keyCount: 1500, scratchCount: 0 },
    });
    // the viewer's own private row is shown to the viewer
    expect(r.selfRank).toBe(4);
    expect(r.self).toMatchObject({ rank: 4, userId: 'me', isSelf: true, isMasked: false, value: 500 });
    expect(r).toMatchObject({ totalCount: 5, hasNextPage: true, startDate: '2025-06-10', endDate: '2025-06-10' });
    const page2 = towerRanking(rows, period, null, { offset: 3, limit: 3 });
    expect(page2.entries.map((e) => [e.rank, e.userId])).toEqual([
      [4, null],
      [5, 'u5'],
    ]); // anonymous viewer: "me" is masked
    expect(page2.selfRank).toBeNull();
  });
});
