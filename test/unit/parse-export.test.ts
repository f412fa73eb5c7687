/**
 * Parsing an export in the worker pool (src/modules/scores/parse.task.ts) reads the catalogue as
 * plain data (exportKeys → lookupFromKeys); on the calling thread it reads the catalogue itself
 * (parseExport). Both must answer the same rows and problems: a title with a comma repaired
 * against the catalogue's titles, an EX score over 2 × notes dropped (matched through the title
 * key, as ChartMatcher matches), a provisional chart's title known too.
 */
import { ChartMatcher, type CatalogueChart } from '../../src/modules/catalogue/catalogue';
import { OFFICIAL_HEADER } from '../../src/domain/csv/official-writer';
import {
  exportKeys,
  lookupFromKeys,
  parseExport,
  parseExportWith,
  MAX_IMPORT_ROWS,
} from '../../src/modules/scores/parse-export';
import { parseExportTask } from '../../src/modules/scores/parse.task';
import { WorkerPool } from '../../src/workers/pool';
import { NO_CORRECTIONS } from '../../src/domain/csv';

const chart = (id: number, title: string, notes: number, provisional = false): CatalogueChart => ({
  id,
  songId: id,
  title,
  playStyle: 'SP',
  difficulty: 'ANOTHER',
  level: 12,
  notes,
  bpm: '150',
  releasedVersion: 30,
  removedInVersion: null,
  radarCategory: null,
  provisional,
  definition: null,
});
// "Song, with comma": 1,000 notes (max EX 2,000); "Ｗｉｄｅ" (full width) matches "Wide" by title key: 500 notes (max 1,000)
const charts = [chart(1, 'Song, with comma', 1000), chart(2, 'Wide', 500), chart(3, 'Learned Song', 800, true)];
const matcher = new ChartMatcher(charts);
const catalogue = {
  charts: () => charts.filter((c) => !c.provisional).values(),
  allCharts: () => charts.values(),
  find: (t: string, s: 'SP' | 'DP', d: CatalogueChart['difficulty']) => matcher.find(t, s, d),
};
const block = (ex: number) => `12,${ex},0,0,1,HARD CLEAR,AA`;
const NONE = '0,0,0,0,---,NO PLAY,---';
const line = (title: string, ex: number) =>
  ['33 Sparkle Shower', title, 'G', 'A', 1, NONE, NONE, NONE, block(ex), NONE, '2025-06-01 12:00'].join(',');
const csv = [
  OFFICIAL_HEADER,
  line('Song, with comma', 1500), // unquoted comma: repaired to the catalogue title
  line('Ｗｉｄｅ', 1001), // over 2 × 500 notes: dropped with a problem
  line('Learned Song', 1200), // a provisional chart's title
  line('Nowhere', 100), // unknown: kept (matching reports it)
].join('\r\n');

describe('parsing an export with the catalogue as plain data', () => {
  it('answers what parsing with the catalogue itself answers', () => {
    const inline = parseExport(csv, '33', catalogue);
    const keys = exportKeys(catalogue);
    // titles once each, charts in the catalogue's order: [title index, style, difficulty, notes]
    expect(keys).toEqual({
      titles: ['Song, with comma', 'Wide', 'Learned Song'],
      charts: [
        [0, 'SP', 'ANOTHER', 1000],
        [1, 'SP', 'ANOTHER', 500],
        [2, 'SP', 'ANOTHER', 800],
      ],
    });
    const viaKeys = parseExportWith(csv, '33', lookupFromKeys(keys), NO_CORRECTIONS, 'SP');
    expect(viaKeys).toEqual(inline);
    expect(inline.rows.map((r) => [r.title, r.exScore])).toEqual([
      ['Song, with comma', 1500],
      ['Learned Song', 1200],
      ['Nowhere', 100],
    ]);
    expect(inline.parseIssues).toEqual([
      expect.objectContaining({ line: 3, title: 'Ｗｉｄｅ', severity: 'error', reason: expect.stringMatching(/1000/) }),
    ]);
  });

  it('runs in a worker with the same answer; more than MAX_IMPORT_ROWS rows is refused there', async () => {
    const pool = new WorkerPool({ size: 1, maxQueue: 4, budgetMs: 30_000 });
    try {
      const input = {
        text: csv,
        version: '33',
        keys: exportKeys(catalogue),
        corrections: NO_CORRECTIONS,
        officialPlayStyle: 'SP' as const,
      };
      expect(await pool.run(parseExportTask, input)).toEqual(parseExport(csv, '33', catalogue));
      const many = [OFFICIAL_HEADER, ...Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => line(`T${i}`, 100))].join(
        '\n',
      );
      await expect(pool.run(parseExportTask, { ...input, text: many })).rejects.toMatchObject({
        code: 'BAD_USER_INPUT',
        message: `At most 10000 rows per import (got ${MAX_IMPORT_ROWS + 1})`,
      });
    } finally {
      await pool.close();
    }
  }, 60_000);
});
