import { capNewTitles } from '../../src/domain/new-titles';

describe('capNewTitles (docs/domain/imports.md#new-titles)', () => {
  const rows = [
    { line: 1, newTitle: 'A' },
    { line: 2 }, // an ordinary song: never counted
    { line: 3, newTitle: 'B' },
    { line: 4, newTitle: 'A' }, // A again: already taken
    { line: 5, newTitle: 'C' },
    { line: 6, newTitle: 'D' },
    { line: 7, newTitle: 'C' }, // C again: refused with its first row
  ];

  it('takes new titles in file order up to the per-import cap', () => {
    // per import 2: A, B taken; C, D refused
    const v = capNewTitles(rows, new Set(), 0, { perImport: 2, perDay: 100 });
    expect([...v.taken]).toEqual(['A', 'B']);
    expect([...v.refused.keys()]).toEqual(['C', 'D']);
    expect(v.refused.get('C')).toBe('new title not taken: at most 2 new titles per import');
  });

  it("stops at what is left of the player's day, and skips titles the player holds", () => {
    // held: B. Day cap 4 with 2 already: 2 left → A, C taken (B is not new), D refused
    const v = capNewTitles(rows, new Set(['B']), 2, { perImport: 10, perDay: 4 });
    expect([...v.taken]).toEqual(['A', 'C']);
    expect(v.refused).toEqual(
      new Map([['D', 'new title not taken: at most 4 new titles per player in 24 hours (2 already)']]),
    );
  });

  it('refuses every new title when the day is used up (more used than the cap: none left, not negative)', () => {
    const v = capNewTitles(rows, new Set(), 7, { perImport: 10, perDay: 5 });
    expect(v.taken.size).toBe(0);
    expect([...v.refused.keys()]).toEqual(['A', 'B', 'C', 'D']);
  });
});
