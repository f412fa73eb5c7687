/**
 * src/domain/rivals.ts: comparison rows, the total order of the sorts, the win/loss trend replay.
 */
import { comparePositions, compareSides, positionOf, winLossTrend, type ComparisonRow } from '../../src/domain/rivals';

const chart = (chartId: number, level: number, title: string) => ({ chartId, title, level, notes: 1000, bpm: '150' });
const side = (exScore: number, bpi: number | null = null) => ({ exScore, bpi, playedAt: new Date(0) });

describe('compareSides', () => {
  it('counts a missing EX as 0 and a missing BPI as −15', () => {
    // exDiff = 0 − 900; bpiDiff = −15 − 20 = −35
    expect(compareSides(chart(1, 12, 'a'), null, side(900, 20))).toMatchObject({
      exDiff: -900,
      bpiDiff: -35,
      outcome: 'LOSE',
    });
    // bpiDiff = round2(10.004 − (−15)) = 25
    expect(compareSides(chart(1, 12, 'a'), side(900, 10.004), side(900))).toMatchObject({
      exDiff: 0,
      bpiDiff: 25,
      outcome: 'DRAW',
    });
  });
});

describe('sort order', () => {
  const rows: ComparisonRow[] = [
    compareSides(chart(1, 12, 'b'), side(1000), side(990)), // +10
    compareSides(chart(2, 11, 'a'), side(1000), side(1030)), // −30
    compareSides(chart(3, 12, 'a'), side(1000), side(1005)), // −5
    compareSides(chart(4, 11, 'c'), side(1000), side(990)), // +10
  ];
  const sorted = (sort: Parameters<typeof positionOf>[1], order: 'ASC' | 'DESC') =>
    rows
      .map((r) => ({ r, p: positionOf(r, sort) }))
      .sort((a, b) => comparePositions(a.p, b.p, order))
      .map((x) => x.r.chartId);
  it('EX_DIFF desc: ties by level desc', () => expect(sorted('EX_DIFF', 'DESC')).toEqual([1, 4, 3, 2]));
  it('LOSE_GAP asc: lost charts first by smallest lead, then the others', () =>
    expect(sorted('LOSE_GAP', 'ASC')).toEqual([3, 2, 1, 4]));
  it('WIN_GAP desc: won charts first by largest margin', () =>
    expect(sorted('WIN_GAP', 'DESC').slice(0, 2)).toEqual([1, 4]));
  it('TITLE asc: code-point order, ties by level desc', () => expect(sorted('TITLE', 'ASC')).toEqual([3, 2, 1, 4]));
});

describe('winLossTrend', () => {
  it('sums outcome changes per day', () => {
    const t = winLossTrend([
      { side: 'mine', chartId: 1, exScore: 100, date: 'd1' }, // 0 → 0 (rival missing)
      { side: 'theirs', chartId: 1, exScore: 90, date: 'd1' }, // 0 → +1
      { side: 'theirs', chartId: 1, exScore: 80, date: 'd2' }, // a lower play keeps the best 90: no change
      { side: 'theirs', chartId: 1, exScore: 120, date: 'd3' }, // +1 → −1
    ]);
    expect(t).toEqual([
      { date: 'd1', delta: 1, cumulative: 1 },
      { date: 'd2', delta: 0, cumulative: 1 },
      { date: 'd3', delta: -2, cumulative: -1 },
    ]);
  });
});
