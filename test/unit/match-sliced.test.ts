/**
 * The import matches rows in slices (matchRowsSliced, src/modules/scores/import-steps.ts): the
 * same answer as matchRows, and a definitions change while it lets the event loop through ends
 * it with StaleCatalogueError (withCurrentCatalogue then reloads and runs the import again).
 */
import { ChartMatcher, type CatalogueChart } from '../../src/modules/catalogue/catalogue';
import {
  matchRows,
  matchRowsSliced,
  type ImportCatalogue,
  type ImportRow,
} from '../../src/modules/scores/import.service';
import { StaleCatalogueError } from '../../src/modules/scores/current-definitions';
import { NO_CORRECTIONS } from '../../src/domain/csv';

const def = (id: number) => ({ id, definitionsVersion: 'v', wr: 1800, kaidenAvg: 1500, coef: -1, notes: 1000 });
const chart = (id: number, title: string): CatalogueChart => ({
  id,
  songId: id,
  title,
  playStyle: 'SP',
  difficulty: 'ANOTHER',
  level: 12,
  notes: 1000,
  bpm: '150',
  releasedVersion: 30,
  removedInVersion: null,
  radarCategory: null,
  definition: def(id),
});
const charts = [chart(1, 'Song A'), chart(2, 'Song B')];
const matcher = new ChartMatcher(charts);
const catalogue: ImportCatalogue = {
  chart: (id) => charts.find((c) => c.id === id),
  charts: () => charts.values(),
  currentBpi: (_chartId, exScore) => exScore / 100,
  find: (t, s, d) => matcher.find(t, s, d),
};
const NOW = new Date('2026-03-01T00:00:00Z');
// 1,000 rows (4 slices of 250): known charts, an unknown title with a level (learned), one without
const rows: ImportRow[] = Array.from({ length: 1000 }, (_, i) => ({
  line: i + 2,
  title: ['Song A', 'Song B', `New ${i % 7}`, 'Nowhere'][i % 4],
  difficulty: 'ANOTHER',
  level: i % 4 === 2 ? 11 : null,
  exScore: 1000 + i,
  clearLamp: null,
  missCount: null,
  lastPlayed: i % 2 ? '2026-01-02 12:34' : null,
}));

describe('matchRowsSliced', () => {
  it('answers what matchRows answers', async () => {
    // fingerprint of the two charts: largest definition id 2, 2 charts with one
    const sliced = await matchRowsSliced(catalogue, rows, NO_CORRECTIONS, NOW, { top: 2, n: 2 });
    expect(sliced).toEqual(matchRows(catalogue, rows, NO_CORRECTIONS, NOW));
    // 250 rows of each kind: Song A and Song B matched, 7 titles learned, Nowhere not found
    expect([sliced.matched.length, sliced.learned.length, sliced.notFound.length]).toEqual([750, 7, 250]);
  });

  it('a definitions change while it pauses ends it with StaleCatalogueError', async () => {
    const swapped = [chart(1, 'Song A'), { ...chart(2, 'Song B'), definition: def(3) }];
    // the writer saw definitions up to id 2; the catalogue, read again after the slices, holds id 3
    const changing: ImportCatalogue = { ...catalogue, charts: () => swapped.values() };
    await expect(matchRowsSliced(changing, rows, NO_CORRECTIONS, NOW, { top: 2, n: 2 })).rejects.toBeInstanceOf(
      StaleCatalogueError,
    );
    // not checked (null: the last attempt of withCurrentCatalogue): the matching is answered
    await expect(matchRowsSliced(changing, rows, NO_CORRECTIONS, NOW, null)).resolves.toBeDefined();
  });
});
