import { sortWithTitles, titleOrder } from '../../src/domain/stats';
import { aChart, linearSource } from './stats-fixture';

describe('title order of the stats lists (localeCompare, from a rank per title)', () => {
  // 'é' and 'e' + combining acute are canonically equivalent: localeCompare says 0 for the two strings
  const src = linearSource([
    aChart({ id: 1, title: 'b' }),
    aChart({ id: 2, title: 'a' }),
    aChart({ id: 3, title: 'B' }),
    aChart({ id: 4, title: 'c' }),
    aChart({ id: 5, title: '\u00e9' }),
    aChart({ id: 6, title: 'e\u0301' }),
  ]);

  it('compares titles as localeCompare does, known or not', () => {
    const byTitle = titleOrder(src);
    // a < b < B < c (lower case first at the same letter), 'zz' is unknown to the ranks: after c
    expect(['c', 'zz', 'B', 'a', 'b'].sort(byTitle)).toEqual(['a', 'b', 'B', 'c', 'zz']);
    expect(byTitle('\u00e9', 'e\u0301')).toBe(0);
    expect(byTitle('b', 'b')).toBe(0);
  });

  it('sorts by the first key, then the title, then the last key', () => {
    const rows = [
      { id: 6, level: 12, title: 'e\u0301' },
      { id: 2, level: 11, title: 'a' },
      { id: 5, level: 12, title: '\u00e9' },
      { id: 9, level: 12, title: 'b' },
      { id: 1, level: 12, title: 'b' },
    ];
    const sorted = sortWithTitles(
      src,
      rows,
      (r) => r.title,
      (a, b) => b.level - a.level,
      (a, b) => a.id - b.id,
    );
    // ☆12 first: b (ids 1, 9), then the two equal é titles by id (5, 6); then ☆11 a
    expect(sorted.map((r) => r.id)).toEqual([1, 9, 5, 6, 2]);
    expect(sorted).toBe(rows); // in place
  });
});
