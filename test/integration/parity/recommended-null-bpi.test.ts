/**
 * Recommended charts with a null BPI (issue #33 item 6): a best whose BPI is null is left out of weapons and potential
 * in GraphQL and in REST alike (docs/parity.md).
 *
 * Catalogue: Alpha, Beta, Gamma, SP ANOTHER ☆12, notes 1000 (maximum EX 2000), WR 1900, kaiden 1600, coef 1:
 * BPI(1900) = 100, BPI(1600) = 0. Player (public), version 33, stored total 50:
 *   Alpha 1900 → BPI 100, diff 100 − 50 = 50
 *   Beta  1600 → BPI 0,   diff 0 − 50 = −50
 *   Gamma 2100 → above the maximum 2000 → BPI null: left out (it was −15 − 50 = −65, first of potential)
 */
import { importDefinitions } from '../../../src/db/definitions';
import type { User } from '../../../src/generated/prisma/client';
import { aPublicPlayer, aScoreImport, aVersionStatus } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let p: User;

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const db = s.db.prisma;
  const def = (title: string) => ({
    title,
    difficulty: '4',
    wr: 1900,
    avg: 1600,
    notes: 1000,
    bpm: '150',
    textage: `20/${title}.html`,
    difficultyLevel: '12',
    dpLevel: '0',
    coef: 1,
  });
  await importDefinitions(db, {
    version: 'null-bpi-test',
    requireVersion: '0',
    body: [def('Alpha'), def('Beta'), def('Gamma')],
  });
  await s.app.catalogue.load();
  const ids = Object.fromEntries(
    (await db.chart.findMany({ include: { song: true } })).map((c) => [c.song.title, c.id]),
  );
  p = await aPublicPlayer(db, { name: 'nullbpi_p' });
  await aScoreImport(db, p, [
    { chartId: ids.Alpha, exScore: 1900, bpi: 100 },
    { chartId: ids.Beta, exScore: 1600, bpi: 0 },
    { chartId: ids.Gamma, exScore: 2100 },
  ]);
  await aVersionStatus(db, p, '33', { totalBpi: 50 });
}, 120_000);
afterAll(() => s.close());

describe('recommended charts with a null BPI (issue #33 item 6)', () => {
  it('GraphQL: Gamma (BPI null) is in neither list nor in the totals', async () => {
    const Q = `query($id: ID!) { user(id: $id) { recommended(version: "33") {
      totalBpi weapons { total data { title bpi bpiDiff } } potential { total data { title bpiDiff } } } } }`;
    const r = expectNoErrors<any>(await s.gql(Q, { id: p.id })).user.recommended;
    expect(r.totalBpi).toBe(50);
    expect(r.weapons).toEqual({
      total: 2,
      data: [
        { title: 'Alpha', bpi: 100, bpiDiff: 50 },
        { title: 'Beta', bpi: 0, bpiDiff: -50 },
      ],
    });
    expect(r.potential).toEqual({
      total: 2,
      data: [
        { title: 'Beta', bpiDiff: -50 },
        { title: 'Alpha', bpiDiff: 50 },
      ],
    });
  });

  it('REST: the same two charts in the same orders', async () => {
    const res = await s.get(`/api/v1/users/${p.id}/stats/recommended?version=33`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect([body.weapons.total, body.weapons.data.map((x: any) => [x.title, x.bpi])]).toEqual([
      2,
      [
        ['Alpha', 100],
        ['Beta', 0],
      ],
    ]);
    expect([body.potential.total, body.potential.data.map((x: any) => x.title)]).toEqual([2, ['Beta', 'Alpha']]);
  });
});
