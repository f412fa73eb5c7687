/**
 * Dashboard neighbours read in one statement (src/modules/stats/stats.loaders.ts `neighbourhood`):
 * SQL picks the n nearest candidates itself, ties by user id in code-point order ("C"); the rule
 * (pickNeighbours) breaks ties by JavaScript string order, which differs only for ids with characters
 * beyond U+FFFF. When the two picks differ, the service reads the rule's neighbours' bests itself.
 *
 * Catalogue: one chart, Alpha (SP ANOTHER ☆12, notes 1000, WR 1900, kaiden 1600, coef 1): BPI 0 at
 * EX 1600, 100 at EX 1900.
 * P: total 50, Alpha at 1900 (BPI 100). n = 5 neighbours:
 *   N1…N4 totals 51…54 (distance 1…4), Alpha at 1600 (BPI 0);
 *   the fifth slot is a tie at distance 5: A ("nb-𐀀", U+10000, total 55, Alpha at 1900, BPI 100)
 *   and B ("nb-", U+E000, total 45, no Alpha).
 * JavaScript order: "nb-𐀀" (surrogate U+D800 first) < "nb-" → A is the fifth neighbour.
 * "C" order (UTF-8 bytes F0… against EE…): B first → SQL picks B.
 * Alpha, with A: 5 neighbours played it, avg (4·0 + 100) / 5 = 20, diff 100 − 20 = 80
 * (with B it would be 4 neighbours, avg 0, diff 100).
 */
import { importDefinitions } from '../../../src/db/definitions';
import type { User } from '../../../src/generated/prisma/client';
import { neighbourhood } from '../../../src/modules/stats/stats.loaders';
import { aPublicPlayer, aScoreImport, aVersionStatus } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let p: User;
let alpha: number;
const A = 'nb-\u{10000}';
const B = 'nb-\ue000';

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const db = s.db.prisma;
  await importDefinitions(db, {
    version: 'neighbourhood-test',
    requireVersion: '0',
    body: [
      {
        title: 'Alpha',
        difficulty: '4',
        wr: 1900,
        avg: 1600,
        notes: 1000,
        bpm: '150',
        textage: '20/Alpha.html',
        difficultyLevel: '12',
        dpLevel: '0',
        coef: 1,
      },
    ],
  });
  await s.app.catalogue.load();
  alpha = (await db.chart.findFirstOrThrow({ where: { song: { title: 'Alpha' } } })).id;
  p = await aPublicPlayer(db, { name: 'nbh_p' });
  await aScoreImport(db, p, [{ chartId: alpha, exScore: 1900 }]);
  await aVersionStatus(db, p, '33', { totalBpi: 50 });
  for (let i = 1; i <= 4; i++) {
    const u = await aPublicPlayer(db, { name: `nbh_${i}` });
    await aVersionStatus(db, u, '33', { totalBpi: 50 + i });
    await aScoreImport(db, u, [{ chartId: alpha, exScore: 1600 }]);
  }
  const a = await db.user.create({ data: { id: A, name: 'nbh_a', nameKey: 'nbh_a', isPublic: true } });
  await aVersionStatus(db, a, '33', { totalBpi: 55 });
  await aScoreImport(db, a, [{ chartId: alpha, exScore: 1900 }]);
  const b = await db.user.create({ data: { id: B, name: 'nbh_b', nameKey: 'nbh_b', isPublic: true } });
  await aVersionStatus(db, b, '33', { totalBpi: 45 });
}, 120_000);

afterAll(async () => s?.close());

describe('neighbours in one statement', () => {
  it('SQL breaks the distance tie in "C" order (B), the rule in JavaScript order (A): the answer follows the rule', async () => {
    const near = await neighbourhood(s.db.prisma, p.id, '33', 5);
    expect(near.stored).toBe(50);
    expect(near.candidates).toHaveLength(6);
    expect(near.picked).toContain(B);
    expect(near.picked).not.toContain(A);
    const res = await s.gql<{ user: { dashboard: any } }>(
      `query($id: ID!) { user(id: $id) { dashboard(version: "33") {
        neighbours(n: 5) { usedNeighbors weapons { total data { title neighborAvgBpi neighborCount bpiDiff } } } } } }`,
      { id: p.id },
      await s.tokenFor(p.id),
    );
    const n = expectNoErrors(res).user.dashboard.neighbours;
    expect(n.usedNeighbors).toBe(5);
    expect(n.weapons.data).toEqual([{ title: 'Alpha', neighborAvgBpi: 20, neighborCount: 5, bpiDiff: 80 }]);
  });

  it('no stored total: the candidates around −15, no picked player below it', async () => {
    const lone = await aPublicPlayer(s.db.prisma, { name: 'nbh_lone' });
    const near = await neighbourhood(s.db.prisma, lone.id, '33', 3);
    // every total (45, 50…55) is ≥ −15: the three lowest, nearest first
    expect(near.stored).toBeNull();
    const byTotal = [...near.candidates].sort((x, y) => x.totalBpi - y.totalBpi);
    expect(byTotal.map((c) => c.totalBpi)).toEqual([45, 50, 51]);
    expect([...near.picked].sort()).toEqual(byTotal.map((c) => c.userId).sort());
    expect(near.picked).toContain(B);
    expect(near.picked).toContain(p.id);
    expect(near.theirs).toEqual([]); // no bests of the lone player: no charts to compare
  });
});
