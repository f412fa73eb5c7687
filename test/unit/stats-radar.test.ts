import { computeRadar } from '../../src/domain/radar';
import { chartInVersion } from '../../src/domain/radar';
import { NO_FILTER, radarWithSongs } from '../../src/domain/stats';
import { aChart, linearSource } from './stats-fixture';

// BPI of EX s in linearSource = (s − 1200) / 3, floor −15.
const charts = [
  aChart({ id: 1, title: 'N1', radarCategory: 'NOTES' }),
  aChart({ id: 2, title: 'N2', radarCategory: 'NOTES' }),
  aChart({ id: 3, title: 'N3 gone', radarCategory: 'NOTES', removedInVersion: '33' }),
  aChart({ id: 4, title: 'N4 gone', radarCategory: 'NOTES', removedInVersion: '33' }),
  aChart({ id: 5, title: 'C5', radarCategory: 'CHORD', level: 11, difficulty: 'HYPER' }),
  aChart({ id: 6, title: 'S6', radarCategory: 'SOFLAN', difficulty: 'LEGGENDARIA' }),
  aChart({ id: 7, title: 'none', radarCategory: null }),
];
const src = linearSource(charts);
const bests = [
  { chartId: 1, exScore: 1500 }, // 100
  { chartId: 4, exScore: 1350 }, // 50: removed in 33 but played there → still counts
  { chartId: 5, exScore: 1230 }, // 10
  { chartId: 7, exScore: 1500 }, // no category: ignored
];

describe('radar with filters and the songs behind each category (docs/domain/stats.md#radar)', () => {
  it('values per category with N = played + unplayed-available charts, and the songs', () => {
    const r = radarWithSongs(src, '33', NO_FILTER, bests);
    // NOTES: played 100 (N1), 50 (N4); unplayed available N2 (N3 removed, unplayed: not counted) → N = 3
    //   K = log2 3 = 1.584963: 100^K = 1478.853, 50^K = 492.951, 15^K = 73.124
    //   (1478.853 + 492.951 − 73.124) / 3 = 632.893; 632.893^(1/K) = 58.54
    const notes = r.categories.find((c) => c.category === 'NOTES')!;
    expect(notes).toMatchObject({ totalBpi: 58.54, playedCount: 2, chartCount: 3 });
    expect(notes.songs.map((s) => [s.chartId, s.exScore, s.bpi])).toEqual([
      [1, 1500, 100],
      [4, 1350, 50],
      [2, null, -15],
    ]);
    // CHORD: one played chart (N = 1, K = 1) → its BPI 10
    expect(r.values.CHORD).toBe(10);
    // SOFLAN: nothing played → −15, its available chart listed as unplayed
    expect(r.values.SOFLAN).toBe(-15);
    expect(r.categories.find((c) => c.category === 'SOFLAN')!.songs.map((s) => s.chartId)).toEqual([6]);
    expect(r.categories.map((c) => c.category)).toEqual(['NOTES', 'CHORD', 'PEAK', 'CHARGE', 'SCRATCH', 'SOFLAN']);
    expect(r.categories.find((c) => c.category === 'PEAK')).toMatchObject({ totalBpi: -15, chartCount: 0, songs: [] });
  });

  it('without a filter equals User.compare.radar (src/domain/radar computeRadar over the same charts)', () => {
    const bpis = new Map(
      bests
        .filter((b) => src.chart(b.chartId)!.radarCategory)
        .map((b) => [b.chartId, src.currentBpi(b.chartId, b.exScore)]),
    );
    const valid = charts.filter((c) => c.radarCategory && chartInVersion(c, '33'));
    expect(radarWithSongs(src, '33', NO_FILTER, bests).values).toEqual(
      computeRadar(valid, bpis, (id) => src.chart(id)?.radarCategory),
    );
  });

  it('a filter narrows both the played and the unplayed charts', () => {
    const r = radarWithSongs(src, '33', { levels: null, difficulties: ['ANOTHER'] }, bests);
    expect(r.values.CHORD).toBe(-15); // the only CHORD chart is HYPER
    expect(r.categories.find((c) => c.category === 'SOFLAN')!.songs).toEqual([]); // LEGGENDARIA
    expect(r.values.NOTES).toBe(58.54);
    // in version 32 the removed NOTES charts are available: N3 unplayed joins → N = 4, K = 2:
    // (100² + 50² − 15² − 15²) / 4 = 3012.5 → 54.89
    expect(radarWithSongs(src, '32', NO_FILTER, bests).values.NOTES).toBe(54.89);
  });
});
