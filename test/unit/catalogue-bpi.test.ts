import type { Db } from '../../src/db/client';
import { safeBpi } from '../../src/domain/bpi';
import { Catalogue } from '../../src/modules/catalogue/catalogue';

/** A Catalogue over an in-memory stand-in for the two reads load() makes. */
function catalogueOver(
  charts: {
    id: number;
    notes: number;
    def: { wr: number | null; kaidenAvg: number | null; coef: number | null } | null;
  }[],
) {
  const rows = () =>
    charts.map((c) => ({
      id: c.id,
      songId: c.id,
      song: { title: `song ${c.id}` },
      playStyle: 'SP',
      difficulty: 'ANOTHER',
      level: 12,
      notes: c.notes,
      bpm: '150',
      releasedVersion: null,
      removedInVersion: null,
      radarCategory: null,
      definitions: c.def ? [{ id: c.id, definitionsVersion: 'x', notes: c.notes, ...c.def }] : [],
    }));
  const db = {
    chart: { findMany: async () => rows() },
    definitionsRelease: { findFirst: async () => null },
  } as unknown as Db;
  return new Catalogue(db);
}

describe('Catalogue.currentBpi (the BPI of a best under the current definition)', () => {
  const charts = [
    { id: 1, notes: 1500, def: { wr: 2950, kaidenAvg: 2600, coef: 1.175 } },
    { id: 2, notes: 900, def: { wr: 1700, kaidenAvg: 1400, coef: null } },
    { id: 3, notes: 1200, def: null },
    { id: 4, notes: 1000, def: { wr: null, kaidenAvg: 1500, coef: null } },
  ];

  it('equals safeBpi for every EX score, memoised or not (over the maximum and without a definition: null)', async () => {
    const cat = catalogueOver(charts);
    await cat.load();
    for (const c of charts) {
      for (let pass = 0; pass < 2; pass++) {
        for (let ex = -2; ex <= c.notes * 2 + 2; ex++) {
          const expected = c.def ? safeBpi(ex, { notes: c.notes, ...c.def }) : null;
          expect(cat.currentBpi(c.id, ex)).toBe(expected);
        }
      }
    }
    expect(cat.currentBpi(1, 2950)).toBe(100);
    expect(cat.currentBpi(1, 3001)).toBeNull();
    expect(cat.currentBpi(3, 1000)).toBeNull();
    expect(cat.currentBpi(999, 1000)).toBeNull();
  });

  it('follows a reload of the definitions (the memo goes with the old ones)', async () => {
    const data = charts.map((c) => ({ ...c, def: c.def && { ...c.def } }));
    const cat = catalogueOver(data);
    await cat.load();
    const before = cat.currentBpi(1, 2800);
    data[0].def!.wr = 2990;
    expect(cat.currentBpi(1, 2800)).toBe(before);
    await cat.load();
    const after = cat.currentBpi(1, 2800);
    expect(after).toBe(safeBpi(2800, { notes: 1500, wr: 2990, kaidenAvg: 2600, coef: 1.175 }));
    expect(after).toBeLessThan(before!);
  });
});
