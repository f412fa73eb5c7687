/**
 * selectPage (src/domain/score-list.ts): one keyset page of a score list read through one reused
 * entry — rows a source skips are not counted, the filter's total is the whole list's, the order is
 * the sort then level desc / title / chart id, and a position continues after the cursor.
 */
import { Difficulty } from '../../src/domain/constants';
import {
  positionOf,
  ScoreSortKey,
  selectPage,
  SortOrder,
  type ListEntry,
  type ListSource,
} from '../../src/domain/score-list';

interface Row {
  chartId: number;
  title: string;
  level: number;
  exScore: number;
  skip?: boolean;
}

// Six rows; chart 6 is not a list row (e.g. a chart without a definition).
const ROWS: Row[] = [
  { chartId: 1, title: 'Alpha', level: 12, exScore: 3000 },
  { chartId: 2, title: 'Bravo', level: 11, exScore: 3500 },
  { chartId: 3, title: 'Charlie', level: 12, exScore: 3500 },
  { chartId: 4, title: 'Delta', level: 12, exScore: 2000 },
  { chartId: 5, title: 'Echo', level: 11, exScore: 2500 },
  { chartId: 6, title: 'Foxtrot', level: 12, exScore: 9999, skip: true },
];
const titleRank = (id: number) => id; // titles are in chart id order

function source(): { src: ListSource<Row>; built: number[] } {
  const built: number[] = [];
  const src: ListSource<Row> = {
    length: ROWS.length,
    fill: (i, e: ListEntry) => {
      const r = ROWS[i];
      if (r.skip) return false;
      Object.assign(e, {
        chartId: r.chartId,
        title: r.title,
        level: r.level,
        difficulty: Difficulty.ANOTHER,
        notes: 1000,
        bpm: '150',
        releasedVersion: 20,
        exScore: r.exScore,
        clearLamp: 'CLEAR',
      });
      return true;
    },
    build: (i) => {
      built.push(ROWS[i].chartId);
      return ROWS[i];
    },
  };
  return { src, built };
}

describe('selectPage', () => {
  it('orders by the key, ties by level desc then title, counts the filtered rows, builds only the page', () => {
    const { src, built } = source();
    // EX desc: 3500 (charts 2 and 3: level 12 first → 3, then 2), 3000 (1), 2500 (5), 2000 (4); chart 6 skipped.
    const { rows, total } = selectPage(
      src,
      {},
      { key: ScoreSortKey.EX_SCORE, order: SortOrder.DESC },
      titleRank,
      null,
      3,
    );
    expect(rows.map((r) => r.entry.chartId)).toEqual([3, 2, 1]);
    expect(rows.map((r) => r.value)).toEqual([3500, 3500, 3000]);
    expect(total).toBe(5);
    expect(built.sort()).toEqual([1, 2, 3]);
  });

  it('continues after a cursor position and applies filters to the total', () => {
    const { src } = source();
    // after chart 2 at EX 3500 (level 11): remaining in EX desc order are 1 (3000), 5 (2500), 4 (2000)
    const after = positionOf(2, 3500, 11, 'Bravo', '', titleRank);
    const next = selectPage(src, {}, { key: ScoreSortKey.EX_SCORE, order: SortOrder.DESC }, titleRank, after, 10);
    expect(next.rows.map((r) => r.entry.chartId)).toEqual([1, 5, 4]);
    expect(next.total).toBe(5);
    // level 12 only, EX asc: 4 (2000), 1 (3000), 3 (3500); total 3
    const twelve = selectPage(
      source().src,
      { levels: [12] },
      { key: ScoreSortKey.EX_SCORE, order: SortOrder.ASC },
      titleRank,
      null,
      10,
    );
    expect(twelve.rows.map((r) => r.entry.chartId)).toEqual([4, 1, 3]);
    expect(twelve.total).toBe(3);
  });

  it('puts exact and prefix title matches first under a search', () => {
    const { src } = source();
    const r = selectPage(
      src,
      { search: 'a' },
      { key: ScoreSortKey.EX_SCORE, order: SortOrder.ASC },
      titleRank,
      null,
      10,
    );
    // every title contains "a" except "Echo": Alpha(3000) Bravo(3500) Charlie(3500) Delta(2000); none starts with "a" except Alpha
    // Alpha is a prefix match (group 1), the rest group 2 in EX asc: Delta 2000, Charlie 3500 (level 12) before Bravo 3500 (level 11)
    expect(r.rows.map((x) => x.entry.chartId)).toEqual([1, 4, 3, 2]);
    expect(r.total).toBe(4);
  });
});
