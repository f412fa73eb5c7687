import { aaaTable, chartSource, customBorder, NO_FILTER, parseAaaGoal } from '../../src/domain/stats';
import { aChart } from './stats-fixture';

/*
 * Real BPI formula (src/domain/bpi) on the fixture definition: notes 800 → m = 1600,
 * kaiden average K = 1200, WR Z = 1500, coef 1. pgf(x) = 0.5 / (1 − x/m):
 *   pgf(K) = 0.5/0.25 = 2, pgf(Z) = 0.5/0.0625 = 8, so ln Z' = ln(8/2) = ln 4 = 1.386294.
 *   BPI(s) = 100 · ln(pgf(s)/2) / ln 4 for s ≥ K (coef 1: no power).
 * AAA border  = ceil(1600 · 8/9)  = ceil(1422.22) = 1423: pgf = 800/177 = 4.519774,
 *   ln(2.259887) = 0.815317 → 100 · 0.815317 / 1.386294 = 58.81.
 * MAX- border = ceil(1600 · 17/18) = ceil(1511.11) = 1512: pgf = 800/88 = 9.090909,
 *   ln(4.545455) = 1.514128 → 109.22 (above the WR, so above 100).
 * Player EX 1440: pgf = 800/160 = 5, ln 2.5 = 0.916291 → 66.10.
 * Custom goal ratio 0.9, offset −10: ceil(1600 · 0.9) − 10 = 1440 − 10 = 1430:
 *   pgf = 800/170 = 4.705882, ln(2.352941) = 0.855666 → 61.72.
 */
describe('AAA table (docs/domain/stats.md#aaa-table)', () => {
  const charts = [
    aChart({ id: 1, title: 'Beta' }),
    aChart({
      id: 2,
      title: 'Alpha',
      level: 11,
      difficulty: 'HYPER',
      notes: 900,
      definition: { notes: 900, wr: 1700, kaidenAvg: 1300, coef: null },
    }),
    aChart({ id: 3, title: 'Gone', removedInVersion: '33' }),
    aChart({ id: 4, title: 'Future', releasedVersion: 34 }),
    aChart({ id: 5, title: 'No definition', definition: null }),
    aChart({ id: 6, title: 'Double', playStyle: 'DP' }),
  ];
  const src = chartSource(charts);

  it('gives per chart the EX and BPI needed for AAA and MAX-, next to the best', () => {
    const t = aaaTable(src, '33', NO_FILTER, [{ chartId: 1, exScore: 1440 }]);
    // charts 3 (removed in 33), 4 (released in 34), 5 (no definition), 6 (DP) are not listed
    expect(t.rows.map((r) => r.chartId)).toEqual([1, 2]); // level desc: ☆12 Beta before ☆11 Alpha
    const beta = t.rows[0];
    expect(beta.maxScore).toBe(1600);
    expect(beta.aaa).toEqual({ exScore: 1423, bpi: 58.81, diff: 1440 - 1423, reached: true });
    expect(beta.maxMinus).toEqual({ exScore: 1512, bpi: 109.22, diff: 1440 - 1512, reached: false });
    expect(beta.exScore).toBe(1440);
    expect(beta.bpi).toBe(66.1);
    expect(beta.custom).toBeNull();
    // unplayed: EX and BPI null, diff counts from 0; notes 900 → m 1800: AAA 1600, MAX- 1700 exactly
    const alpha = t.rows[1];
    expect(alpha).toMatchObject({ exScore: null, bpi: null, maxScore: 1800 });
    expect(alpha.aaa).toMatchObject({ exScore: 1600, diff: -1600, reached: false });
    expect(alpha.maxMinus).toMatchObject({ exScore: 1700, diff: -1700 });
    expect(t.summary).toEqual({ charts: 2, aaa: 1, maxMinus: 0, custom: null });
  });

  it('a new definition (a catalogue load makes new definition objects) gives new border BPIs, the old one its own', () => {
    // The fixed borders' BPI are remembered per definition object. Same chart, WR 1520 instead of 1500:
    // pgf(1520) = 0.5 / (1 − 1520/1600) = 10, ln(10/2) = ln 5 = 1.609438;
    //   AAA 1423: 100 · 0.815317 / 1.609438 = 50.66; MAX- 1512: 100 · 1.514128 / 1.609438 = 94.08.
    const before = aaaTable(src, '33', { levels: [12], difficulties: null });
    const reloaded = chartSource([
      aChart({ id: 1, title: 'Beta', definition: { notes: 800, wr: 1520, kaidenAvg: 1200, coef: 1 } }),
    ]);
    const after = aaaTable(reloaded, '33', { levels: [12], difficulties: null });
    expect(after.rows[0].aaa).toMatchObject({ exScore: 1423, bpi: 50.66 });
    expect(after.rows[0].maxMinus).toMatchObject({ exScore: 1512, bpi: 94.08 });
    // the old catalogue's objects still answer with the old definition (58.81 / 109.22, worked out above)
    expect(aaaTable(src, '33', { levels: [12], difficulties: null })).toEqual(before);
    expect(before.rows[0].aaa.bpi).toBe(58.81);
    expect(before.rows[0].maxMinus.bpi).toBe(109.22);
  });

  it('an older version lists what was available then (the removal in 33 does not hide it in 32)', () => {
    expect(aaaTable(src, '32', NO_FILTER).rows.map((r) => r.chartId)).toEqual([1, 3, 2]); // ☆12 Beta, Gone; ☆11 Alpha
    expect(aaaTable(src, '33', { levels: [11], difficulties: null }).rows.map((r) => r.chartId)).toEqual([2]);
  });

  it('a custom goal: clamp(ceil(m·ratio) + offset, 0, m)', () => {
    const t = aaaTable(src, '33', { levels: [12], difficulties: null }, [{ chartId: 1, exScore: 1440 }], {
      ratio: 0.9,
      offset: -10,
    });
    expect(t.rows[0].custom).toEqual({ exScore: 1430, bpi: 61.72, diff: 10, reached: true });
    expect(t.summary.custom).toBe(1);
    expect(customBorder(1600, { ratio: 1, offset: 5 })).toBe(1600); // clamped to the maximum
    expect(customBorder(1600, { ratio: 0, offset: -5 })).toBe(0);
    expect(customBorder(3000, { ratio: 0.9, offset: 0 })).toBe(2700); // 3000·0.9 is 2700, not 2701
  });

  it('checks the goal arguments', () => {
    expect(parseAaaGoal(undefined, undefined)).toEqual({ ok: true, value: null });
    expect(parseAaaGoal(0.95, undefined)).toEqual({ ok: true, value: { ratio: 0.95, offset: 0 } });
    expect(parseAaaGoal(1.5, 0)).toMatchObject({ ok: false, issues: [{ path: ['customGoalRatio'] }] });
    expect(parseAaaGoal(0.9, 1.5)).toMatchObject({ ok: false, issues: [{ path: ['customGoalOffset'] }] });
    expect(parseAaaGoal(null, 10)).toMatchObject({ ok: false, issues: [{ path: ['customGoalOffset'] }] });
  });
});
