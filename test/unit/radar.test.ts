import { chartInVersion, computeRadar } from '../../src/domain/radar';
import { totalBpi } from '../../src/domain/bpi';

const charts = [
  { id: 1, radarCategory: 'NOTES' as const },
  { id: 2, radarCategory: 'NOTES' as const },
  { id: 3, radarCategory: 'NOTES' as const },
  { id: 4, radarCategory: 'CHORD' as const },
  { id: 5, radarCategory: 'SOFLAN' as const },
  { id: 6, radarCategory: null },
];

describe('radar (docs/domain/stats.md#radar)', () => {
  it('is the total BPI over the played charts of each category with N = played + unplayed charts of the category', () => {
    const r = computeRadar(
      charts,
      new Map([
        [1, 40],
        [2, 10],
        [4, 55.5],
      ]),
    );
    expect(r.NOTES).toBe(totalBpi([40, 10], 3));
    expect(r.CHORD).toBe(totalBpi([55.5], 1));
    expect(r.CHORD).toBe(55.5);
  });

  it('gives −15 to categories with no played chart', () => {
    const r = computeRadar(charts, new Map([[1, 40]]));
    expect(r).toMatchObject({ CHORD: -15, PEAK: -15, CHARGE: -15, SCRATCH: -15, SOFLAN: -15 });
  });

  it('counts a played chart without BPI as −15, and ignores charts without a category', () => {
    const r = computeRadar(
      charts,
      new Map<number, number | null>([
        [5, null],
        [6, 99],
      ]),
    );
    expect(r.SOFLAN).toBe(-15);
    expect(r.NOTES).toBe(-15);
  });

  it('counts played charts outside the valid list through categoryOf (e.g. removed in the version)', () => {
    const cat = (id: number) => (id === 9 ? ('CHORD' as const) : undefined);
    const r = computeRadar(
      charts,
      new Map([
        [4, 20],
        [9, 30],
      ]),
      cat,
    );
    expect(r.CHORD).toBe(totalBpi([20, 30], 2));
  });

  it('decides chart existence per version (released ≤ v, not removed; INF always)', () => {
    expect(chartInVersion({ releasedVersion: 33, removedInVersion: null }, '32')).toBe(false);
    expect(chartInVersion({ releasedVersion: 30, removedInVersion: null }, '33')).toBe(true);
    expect(chartInVersion({ releasedVersion: 30, removedInVersion: '32' }, '33')).toBe(false);
    expect(chartInVersion({ releasedVersion: 30, removedInVersion: '32' }, '31')).toBe(true);
    expect(chartInVersion({ releasedVersion: 34, removedInVersion: '30' }, 'INF')).toBe(true);
  });
});
