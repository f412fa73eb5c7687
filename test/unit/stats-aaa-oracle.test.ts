/**
 * The AAA table (src/domain/stats/aaa-table.ts) against ../shared/data/definitions/aaa-bpi-ex.csv
 * (title, difficulty, BPI at AAA, EX for AAA — published by another tool for the ☆12 charts).
 *
 * What the CSV can and cannot check: its EX column is the inverse of a BPI rounded to 2 decimals
 * (ceiled), under a definitions vintage we do not hold, so it sits within ±1 of the exact border
 * ceil(2·notes·8/9) (e.g. X-DEN: 2·notes = 4440, 4440·8/9 = 3946.67 → 3947; the CSV says 3948),
 * and its BPI column differs from ours wherever WR or the kaiden average moved. We check: every
 * chart of the CSV that the published definitions hold is in our table (level 12, SP), our EX
 * border is exactly ceil(m·8/9) and within 1 of the CSV's, and at least a third agree exactly.
 */
import fs from 'node:fs';
import { normalizeDefinitions } from '../../src/domain/definitions';
import { aaaTable, chartSource, type StatsChart } from '../../src/domain/stats';
import { describeWithShared, readSharedJson, sharedFile } from '../helpers/shared-data';

describeWithShared('data/definitions/aaa-bpi-ex.csv', 'AAA table against the published AAA list', (csvFile) => {
  it('EX borders within ±1 of the list (exactly ceil(8/9 of the maximum)), for every chart both hold', () => {
    const defsFile = sharedFile('data/definitions/definitions-202509156.json')!;
    const doc = normalizeDefinitions(readSharedJson(defsFile));
    const charts: StatsChart[] = doc.entries.map((e, i) => ({
      id: i + 1,
      title: e.title,
      playStyle: e.playStyle,
      difficulty: e.difficulty,
      level: e.level,
      notes: e.notes,
      bpm: e.bpm,
      releasedVersion: e.releasedVersion,
      removedInVersion: e.removedInVersion,
      radarCategory: null,
      definition: { notes: e.notes, wr: e.wr, kaidenAvg: e.kaidenAvg, coef: e.coef },
    }));
    const table = aaaTable(chartSource(charts), 'INF', { levels: [12], difficulties: null });
    const ours = new Map(table.rows.map((r) => [`${r.title}\u0000${r.difficulty.toLowerCase()}`, r]));
    let compared = 0;
    let exact = 0;
    const far: string[] = [];
    for (const line of fs.readFileSync(csvFile, 'utf8').trim().split('\n')) {
      const cells = line.split(',');
      const ex = Number(cells.pop());
      const bpi = Number(cells.pop());
      const difficulty = cells.pop()!;
      const title = cells.join(',');
      const row = ours.get(`${title}\u0000${difficulty}`);
      if (!row || !Number.isFinite(ex) || !Number.isFinite(bpi)) continue; // titles spelled differently, or not in this vintage
      compared++;
      expect(row.aaa.exScore).toBe(Math.ceil((row.maxScore * 8) / 9 - 1e-9));
      if (row.aaa.exScore === ex) exact++;
      else if (Math.abs(row.aaa.exScore - ex) > 1)
        far.push(`${title} [${difficulty}]: ours ${row.aaa.exScore}, list ${ex}`);
      expect(row.aaa.bpi).not.toBeNull();
    }
    expect(far).toEqual([]);
    expect(compared).toBeGreaterThan(250);
    expect(exact).toBeGreaterThan(compared / 3);
  });
});
