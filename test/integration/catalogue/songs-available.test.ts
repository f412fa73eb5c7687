/**
 * songs(filter: {availableIn: V}): songs with a chart that exists in game version V — released at
 * or before V and not removed at or before V (domain-social.md §4 version filter; the same rule as
 * the total BPI chart set, src/domain/totals.ts availableIn).
 */
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const song = async (title: string, releasedVersion: number | null, removedInVersion: string | null) =>
    s.db.prisma.song.create({
      data: {
        title,
        charts: {
          create: [
            { playStyle: 'SP', difficulty: 'ANOTHER', level: 12, notes: 1000, releasedVersion, removedInVersion },
          ],
        },
      },
    });
  await song('Avail A', 30, null); // released 30, still there
  await song('Avail B', 33, null); // released 33
  await song('Avail C', 28, '32'); // released 28, removed in 32
  await song('Avail D', null, null); // release unknown: counts as released
  await song('Avail E', 27, 'unknown'); // removal of unknown version: counts as removed
}, 60_000);
afterAll(() => s.close());

const Q =
  'query($v: GameVersion) { songs(first: 50, filter: { title: "Avail ", availableIn: $v }) { totalCount edges { node { title } } } }';
const titles = async (v: string | null) => {
  const d = expectNoErrors<any>(await s.gql(Q, { v })).songs;
  expect(d.totalCount).toBe(d.edges.length);
  return d.edges.map((e: any) => e.node.title);
};

describe('songs availableIn', () => {
  it('keeps songs released at or before V and not yet removed', async () => {
    // V = 31: A (30 ≤ 31), C (28 ≤ 31, removed in 32 > 31), D (unknown release); not B (33 > 31), not E (removal unknown)
    expect(await titles('31')).toEqual(['Avail A', 'Avail C', 'Avail D']);
    // V = 32: C is removed in 32 (removed at or before V) → A, D
    expect(await titles('32')).toEqual(['Avail A', 'Avail D']);
    // V = 33: A, B (33 ≤ 33), D
    expect(await titles('33')).toEqual(['Avail A', 'Avail B', 'Avail D']);
    // INF: no filter; absent: no filter
    expect(await titles('INF')).toEqual(['Avail A', 'Avail B', 'Avail C', 'Avail D', 'Avail E']);
    expect(await titles(null)).toEqual(['Avail A', 'Avail B', 'Avail C', 'Avail D', 'Avail E']);
  });

  it('an unknown version is BAD_USER_INPUT naming filter.availableIn', async () => {
    const res = await s.gql(Q, { v: '99' });
    expect(res.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(JSON.stringify(res.body.errors?.[0].extensions)).toContain('filter.availableIn');
  });
});
