import { bpmBand, bpmBands, NO_FILTER } from '../../src/domain/stats';
import { aChart, linearSource } from './stats-fixture';

// BPI of EX s in linearSource = (s − 1200) / 3, floor −15.
describe('BPI by BPM band (docs/domain/stats.md#bpm-bands)', () => {
  it('bands by the BPM text; a range of different tempos is Soflan, a text without a number is "?"', () => {
    expect(bpmBand('200')).toBe('200~');
    expect(bpmBand('199')).toBe('180~200');
    expect(bpmBand('180')).toBe('180~200');
    expect(bpmBand('160')).toBe('160~180');
    expect(bpmBand('140')).toBe('140~160');
    expect(bpmBand('120')).toBe('120~140');
    expect(bpmBand('119')).toBe('~120');
    expect(bpmBand('75-150')).toBe('Soflan');
    expect(bpmBand('75~150')).toBe('Soflan');
    expect(bpmBand('150-150')).toBe('140~160');
    expect(bpmBand('')).toBe('?');
    expect(bpmBand('???')).toBe('?');
  });

  it('a total per band over its charts available in the version, unplayed as −15', () => {
    const charts = [
      aChart({ id: 1, bpm: '150', title: 'A' }), // played 1350 → 50
      aChart({ id: 2, bpm: '155', title: 'B' }), // unplayed → −15
      aChart({ id: 3, bpm: '200', title: 'C' }), // played 1500 → 100
      aChart({ id: 4, bpm: '75-150', title: 'D' }), // played 1230 → 10
      aChart({ id: 5, bpm: '120', title: 'E' }), // played 1170 → −10
      aChart({ id: 6, bpm: '', title: 'F' }), // unplayed → −15
      aChart({ id: 7, bpm: '150-150', title: 'G' }), // played 1200 → 0
      aChart({ id: 8, bpm: '119', title: 'H', removedInVersion: '33' }), // not in 33: no band
    ];
    const bests = [
      { chartId: 1, exScore: 1350 },
      { chartId: 3, exScore: 1500 },
      { chartId: 4, exScore: 1230 },
      { chartId: 5, exScore: 1170 },
      { chartId: 7, exScore: 1200 },
      { chartId: 8, exScore: 1500 },
    ];
    const r = bpmBands(linearSource(charts), '33', NO_FILTER, bests);
    expect(r.map((b) => b.label)).toEqual(['200~', '140~160', '120~140', 'Soflan', '?']); // empty bands omitted
    const b140 = r[1];
    // N = 3, K = log2 3 = 1.584963: 50^K = 492.951, 0^K = 0, 15^K = 73.124
    // sum = (492.951 + 0 − 73.124) / 3 = 139.942; total = 139.942^(1/K) = 22.59
    expect(b140).toMatchObject({ chartCount: 3, playedCount: 2, totalBpi: 22.59 });
    expect(b140.songs.map((s) => [s.chartId, s.bpi, s.exScore])).toEqual([
      [1, 50, 1350],
      [7, 0, 1200],
      [2, -15, null],
    ]);
    // one chart per band: N = 1, K = max(1, log2 1) = 1 → the chart's BPI
    expect(r[0]).toMatchObject({ totalBpi: 100, chartCount: 1 });
    expect(r[2]).toMatchObject({ totalBpi: -10 });
    expect(r[3]).toMatchObject({ totalBpi: 10 });
    expect(r[4]).toMatchObject({ totalBpi: -15, playedCount: 0 });
  });

  it('follows the level / difficulty filter', () => {
    const charts = [
      aChart({ id: 1, bpm: '150' }),
      aChart({ id: 2, bpm: '150', level: 11 }),
      aChart({ id: 3, bpm: '150', difficulty: 'LEGGENDARIA' }),
    ];
    const r = bpmBands(linearSource(charts), '33', { levels: [12], difficulties: ['ANOTHER'] }, [
      { chartId: 2, exScore: 1500 },
    ]);
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ label: '140~160', chartCount: 1, playedCount: 0, totalBpi: -15 });
  });
});
