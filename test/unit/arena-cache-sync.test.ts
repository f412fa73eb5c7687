import { ArenaAverageCache } from '../../src/modules/arena/arena.cache';
import type { Catalogue } from '../../src/modules/catalogue/catalogue';
import type { Db } from '../../src/db/client';
import { ArenaClass } from '../../src/domain/constants';

/**
 * The arena averages' in-memory cache answers without a promise once a version is loaded (the
 * calculator's hot path, issue #32), and an invalidation drops that answer as it drops the promise.
 */

/** A database whose arenaAverage.findMany answers `rows()` once `release()` is called. */
function fakeDb(rows: () => object[]) {
  const pending: (() => void)[] = [];
  let calls = 0;
  const db = {
    arenaAverage: {
      findMany: () => {
        calls++;
        return new Promise<object[]>((resolve) => pending.push(() => resolve(rows())));
      },
    },
  } as unknown as Db;
  return {
    db,
    calls: () => calls,
    release: async () => {
      for (const r of pending.splice(0)) r();
      await new Promise((r) => setImmediate(r));
    },
  };
}

// Chart 7 has 1,000 notes: max EX score 2,000.
const catalogue = { chart: (id: number) => (id === 7 ? { notes: 1000 } : undefined) } as unknown as Catalogue;
const row = (arenaClass: ArenaClass, avgExScore: number) => ({
  chartId: 7,
  version: '33',
  arenaClass,
  avgExScore,
  count: 4,
  avgBpi: null,
});

describe('ArenaAverageCache.forChartLoaded', () => {
  it('is undefined until the version is loaded, then the same view as forChart, with no promise', async () => {
    const f = fakeDb(() => [row(ArenaClass.A2, 1500), row(ArenaClass.A1, 1800)]);
    const cache = new ArenaAverageCache(f.db, catalogue);
    expect(cache.forChartLoaded(7, '33')).toBeUndefined();
    const loading = cache.forChart(7, '33');
    expect(cache.forChartLoaded(7, '33')).toBeUndefined(); // still loading
    await f.release();
    // A1 first (ARENA_ORDER); rate = avgExScore / 2,000 × 100: 1,800 → 90, 1,500 → 75
    const expected = [
      { arenaClass: ArenaClass.A1, avgExScore: 1800, rate: 90, count: 4, avgBpi: null },
      { arenaClass: ArenaClass.A2, avgExScore: 1500, rate: 75, count: 4, avgBpi: null },
    ];
    await expect(loading).resolves.toEqual(expected);
    expect(cache.forChartLoaded(7, '33')).toEqual(expected);
    expect(cache.forChartLoaded(8, '33')).toBeNull(); // no rows for that chart
    expect(cache.forChartLoaded(7, '32')).toBeUndefined(); // another version: not loaded
    expect(f.calls()).toBe(1);
  });

  it('forgets a version on invalidate, also when the invalidation comes while it loads', async () => {
    let avg = 1000;
    const f = fakeDb(() => [row(ArenaClass.A1, avg)]);
    const cache = new ArenaAverageCache(f.db, catalogue);
    const first = cache.forChart(7, '33');
    cache.invalidate('33'); // a recompute wrote new values while the first load ran
    avg = 1200;
    await f.release();
    await first;
    // the load that began before the invalidation does not become the synchronous answer
    expect(cache.forChartLoaded(7, '33')).toBeUndefined();
    const second = cache.forChart(7, '33');
    await f.release();
    await second;
    expect(cache.forChartLoaded(7, '33')?.[0].avgExScore).toBe(1200); // rate 1,200 / 2,000 = 60 %
    expect(cache.forChartLoaded(7, '33')?.[0].rate).toBe(60);
    cache.invalidate();
    expect(cache.forChartLoaded(7, '33')).toBeUndefined();
    expect(f.calls()).toBe(2);
  });
});
