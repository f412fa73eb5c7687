/**
 * The pure steps of a score import (src/modules/scores/import-steps.ts, re-exported by import.service.ts), without a database or
 * HTTP: the export file checked against the version (parseExport), rows matched to charts
 * (matchRows), the improving plays (improvingPlays) and the best rows to write (bestUpserts).
 * A tiny catalogue: two SP charts of 1,000 notes (max EX 2,000), matched by the one ChartMatcher;
 * its "BPI" is EX / 100, so a play's stored BPI is easy to check by hand.
 */
import { ChartMatcher, type CatalogueChart } from '../../src/modules/catalogue/catalogue';
import {
  bestUpserts,
  improvingPlays,
  matchRows,
  parseExport,
  type ImportCatalogue,
  type ImportRow,
} from '../../src/modules/scores/import.service';
import { parseTitleCorrections, NO_CORRECTIONS } from '../../src/domain/csv';
import type { Best } from '../../src/domain/scores';

const chart = (id: number, title: string, difficulty: 'HYPER' | 'ANOTHER'): CatalogueChart => ({
  id,
  songId: id,
  title,
  playStyle: 'SP',
  difficulty,
  level: 12,
  notes: 1000,
  bpm: '150',
  releasedVersion: 30,
  removedInVersion: null,
  radarCategory: null,
  definition: null,
});
const A = chart(1, 'Song A', 'ANOTHER');
const B = chart(2, 'Song B', 'HYPER');
const matcher = new ChartMatcher([A, B]);
const catalogue: ImportCatalogue = {
  chart: (id) => [A, B].find((c) => c.id === id),
  charts: () => [A, B].values(),
  currentBpi: (_chartId, exScore) => exScore / 100,
  find: (title, playStyle, difficulty) => matcher.find(title, playStyle, difficulty),
};
const NOW = new Date('2026-03-01T00:00:00Z');
const row = (over: Partial<ImportRow>): ImportRow => ({
  line: 1,
  title: 'Song A',
  difficulty: 'ANOTHER',
  exScore: 1500,
  clearLamp: null,
  missCount: null,
  lastPlayed: null,
  ...over,
});

describe('score import, pure steps', () => {
  it('parseExport: detects the format and refuses a file that does not fit the version', () => {
    const header = [
      'title',
      'Type',
      'Label',
      'Cost Normal',
      'SPN Lamp',
      'SPN EX Score',
      'SPN Miss Count',
      'SPA Lamp',
      'SPA EX Score',
      'SPA Miss Count',
      'SPL Lamp',
      'SPL EX Score',
      'SPL Miss Count',
    ].join('\t');
    const tsv = [header, ['Song A', 'x', 'y', '0', 'NP', '0', '-', 'HC', '1500', '4', 'NP', '0', '-'].join('\t')].join(
      '\n',
    );
    const parsed = parseExport(tsv, 'INF', catalogue);
    expect(parsed.source).toBe('REFLUX');
    expect(parsed.format).toBe('reflux');
    // one played cell (SPA: ANOTHER, 1500 EX, HARD CLEAR, 4 misses); the two NO PLAY cells are skipped
    expect(parsed.rows).toEqual([
      expect.objectContaining({
        title: 'Song A',
        difficulty: 'ANOTHER',
        exScore: 1500,
        clearLamp: 'HARD_CLEAR',
        missCount: 4,
      }),
    ]);
    // a Reflux export is INFINITAS data: an arcade version refuses it, naming the argument
    expect(() => parseExport(tsv, '33', catalogue)).toThrow(
      expect.objectContaining({
        code: 'BAD_USER_INPUT',
        details: { issues: [expect.objectContaining({ code: 'format_version_mismatch', path: ['version'] })] },
      }),
    );
    expect(() => parseExport('not an export', '33', catalogue)).toThrow(
      expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    );
  });

  it('matchRows: matches by title + difficulty (then the corrected title), checks cells, reads JST play times', () => {
    const corrections = parseTitleCorrections({ 'Song Bee': 'Song B' });
    const rows = [
      row({ line: 2, exScore: 1500, lastPlayed: '2026-01-02 12:34' }), // matched; 12:34 JST = 03:34 UTC
      row({ line: 3, title: 'Song Bee', difficulty: 'HYPER', exScore: 800 }), // matched through the correction
      row({ line: 4, title: 'Nowhere' }), // no chart
      row({ line: 5, exScore: 0 }), // a chart without a play
      row({ line: 6, exScore: 2001 }), // max EX = 2 × 1,000 notes = 2,000
      row({ line: 7, missCount: -1 }),
      row({ line: 8, exScore: 1600, lastPlayed: 'yesterday' }), // unreadable: the import time, with a warning
    ];
    // a problem names the offending cell's value; a row not found names its play style (SP by default)
    const r = matchRows(catalogue, rows, corrections, NOW);
    expect(r.matched.map((m) => [m.row.line, m.chart.id, m.playedAt.toISOString(), m.bpi])).toEqual([
      [2, 1, '2026-01-02T03:34:00.000Z', 15], // BPI = 1500 / 100
      [3, 2, NOW.toISOString(), 8],
      [8, 1, NOW.toISOString(), 16],
    ]);
    expect(r.notFound).toEqual([{ line: 4, title: 'Nowhere', difficulty: 'ANOTHER', playStyle: 'SP' }]);
    expect(r.skipped).toBe(1);
    expect(r.problems).toEqual([
      {
        line: 6,
        title: 'Song A',
        difficulty: 'ANOTHER',
        column: 'exScore',
        reason: "exScore 2001 exceeds the chart's maximum 2000",
        severity: 'error',
        value: '2001',
      },
      {
        line: 7,
        title: 'Song A',
        difficulty: 'ANOTHER',
        column: 'missCount',
        reason: 'missCount must be a non-negative integer',
        severity: 'error',
        value: '-1',
      },
      {
        line: 8,
        title: 'Song A',
        difficulty: 'ANOTHER',
        column: 'lastPlayed',
        reason: 'not a date-time; the import time is used',
        severity: 'warning',
        value: 'yesterday',
      },
    ]);
    // without corrections the misspelt title is not found
    expect(matchRows(catalogue, [rows[1]], NO_CORRECTIONS, NOW).notFound).toHaveLength(1);
  });

  it('improvingPlays: keeps the rows that improve some field over the running best, in file order', () => {
    const old = new Date('2026-01-01T00:00:00Z');
    // the player's best on A: 1400 EX (play 10), HARD CLEAR (play 11), 5 misses (play 12)
    const bests = new Map<number, Best>([
      [
        1,
        {
          exScore: 1400,
          exScoreId: 10,
          clearLamp: 'HARD_CLEAR',
          clearLampId: 11,
          missCount: 5,
          missCountId: 12,
          playedAt: old,
        },
      ],
    ]);
    const { matched } = matchRows(
      catalogue,
      [
        row({ line: 1, exScore: 1500, clearLamp: 'CLEAR', missCount: 6 }), // EX 1500 > 1400: stored (play −1)
        row({ line: 2, exScore: 1450, clearLamp: 'FULLCOMBO_CLEAR', missCount: 0 }), // lamp and misses better: stored (play −2)
        row({ line: 3, exScore: 1500, clearLamp: 'CLEAR', missCount: 6 }), // nothing better than the running best: dropped
        row({ line: 4, title: 'Song B', difficulty: 'HYPER', exScore: 700 }), // first play on B: stored (play −3)
      ],
      NO_CORRECTIONS,
      NOW,
    );
    const plays = improvingPlays(matched, bests);
    expect(plays.map((p) => [p.row.line, p.tempId])).toEqual([
      [1, -1],
      [2, -2],
      [4, -3],
    ]);
    expect(bests.get(1)).toEqual({
      exScore: 1500,
      exScoreId: -1,
      clearLamp: 'FULLCOMBO_CLEAR',
      clearLampId: -2,
      missCount: 0,
      missCountId: -2,
      playedAt: NOW,
    });
    expect(bests.get(2)).toEqual({
      exScore: 700,
      exScoreId: -3,
      clearLamp: null,
      clearLampId: null,
      missCount: null,
      missCountId: null,
      playedAt: NOW,
    });

    // the rows to write once the plays are inserted with ids 101, 102, 103 (in candidate order)
    expect(bestUpserts(bests, [1, 2], [101, 102, 103])).toEqual([
      {
        chartId: 1,
        exScore: 1500,
        exScoreId: 101,
        clearLamp: 'FULLCOMBO_CLEAR',
        clearLampId: 102,
        missCount: 0,
        missCountId: 102,
        playedAt: NOW.toISOString(),
      },
      {
        chartId: 2,
        exScore: 700,
        exScoreId: 103,
        clearLamp: null,
        clearLampId: null,
        missCount: null,
        missCountId: null,
        playedAt: NOW.toISOString(),
      },
    ]);
  });
});
