/**
 * Issue #33 item 5: rival suggestions search name and game id, order nearest / by value / newest /
 * supporters / seeded shuffle, on the total BPI or a radar category; user search by substring.
 *
 * Fixture (version 33; stored totals; radar NOTES from RadarCache):
 *   V  sg_v      public  total 40                        (the owner; badge 2026-01-01; no plays → live radar −15)
 *   A  sg_alpha  public  total 42  game id 1111-2222  NOTES −5   updated 2026-01-03
 *   B  sg_beta   public  total 30  game id 3333-4444  NOTES 80   updated 2026-01-05
 *   C  sg_gamma  public  total 39                     NOTES 20   updated 2026-01-01  badge 2026-01-02
 *   D  sg_delta  private total 40.5                               badge 2025-12-01 (never suggested)
 *   E  sg_22x    public  total 60                     (no radar)  updated 2026-01-04
 */
import type { User } from '../../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, aVersionStatus } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let v: User, a: User, b: User, c: User, e: User;
let token: string;
const names = new Map<string, string>();

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const db = s.db.prisma;
  v = await aPublicPlayer(db, { name: 'sg_v' });
  a = await aPublicPlayer(db, { name: 'sg_alpha', gameId: '1111-2222' });
  b = await aPublicPlayer(db, { name: 'sg_beta', gameId: '3333-4444' });
  c = await aPublicPlayer(db, { name: 'sg_gamma' });
  const d = await aPrivatePlayer(db, { name: 'sg_delta' });
  e = await aPublicPlayer(db, { name: 'sg_22x' });
  for (const u of [v, a, b, c, d, e]) names.set(u.id, u.name);
  const totals: [User, number, string][] = [
    [v, 40, '2026-01-02'],
    [a, 42, '2026-01-03'],
    [b, 30, '2026-01-05'],
    [c, 39, '2026-01-01'],
    [d, 40.5, '2026-01-06'],
    [e, 60, '2026-01-04'],
  ];
  for (const [u, t, at] of totals) {
    await aVersionStatus(db, u, '33', { totalBpi: t });
    await db.$executeRaw`UPDATE "PlayerVersionStatus" SET "updatedAt" = ${new Date(`${at}T00:00:00Z`)} WHERE "userId" = ${u.id}`;
  }
  for (const [u, notes] of [
    [a, -5],
    [b, 80],
    [c, 20],
  ] as const)
    await db.radarCache.create({ data: { userId: u.id, version: '33', notes } });
  await db.userBadge.create({ data: { userId: v.id, role: 'COFFEE', grantedAt: new Date('2026-01-01T00:00:00Z') } });
  await db.userBadge.create({ data: { userId: c.id, role: 'SABA', grantedAt: new Date('2026-01-02T00:00:00Z') } });
  await db.userBadge.create({ data: { userId: d.id, role: 'COFFEE', grantedAt: new Date('2025-12-01T00:00:00Z') } });
  token = await s.tokenFor(v.id);
}, 120_000);
afterAll(() => s?.close());

const Q = `query($id: ID!, $o: SuggestionOrder, $c: RadarCategory, $q: String, $seed: Int, $first: Int, $offset: Int) {
  user(id: $id) { suggestedRivals(version: "33", order: $o, category: $c, search: $q, seed: $seed, first: $first, offset: $offset) {
    userId totalBpi value distance } } }`;
const suggest = async (vars: Record<string, unknown> = {}) =>
  expectNoErrors<any>(await s.gql(Q, { id: v.id, ...vars }, token)).user.suggestedRivals;
const who = (rows: any[]) => rows.map((r) => names.get(r.userId));

describe('rival suggestions (issue #33 item 5)', () => {
  it('NEAREST on the total (mine 40): C 39 (1), A 42 (2), B 30 (10), E 60 (20); D is private', async () => {
    const rows = await suggest();
    expect(rows.map((r: any) => [names.get(r.userId), r.value, r.distance])).toEqual([
      ['sg_gamma', 39, 1],
      ['sg_alpha', 42, 2],
      ['sg_beta', 30, 10],
      ['sg_22x', 60, 20],
    ]);
    // the offset path (one SQL statement) agrees with the default's two range scans
    expect(who(await suggest({ first: 2, offset: 1 }))).toEqual(['sg_alpha', 'sg_beta']);
  });

  it('VALUE: 60, 42, 39, 30; NEWEST by the total update: B 01-05, E 01-04, A 01-03, C 01-01', async () => {
    expect(who(await suggest({ o: 'VALUE' }))).toEqual(['sg_22x', 'sg_alpha', 'sg_gamma', 'sg_beta']);
    expect(who(await suggest({ o: 'NEWEST' }))).toEqual(['sg_beta', 'sg_22x', 'sg_alpha', 'sg_gamma']);
  });

  it('SUPPORTERS: public badge holders, oldest badge first, the owner included: V (01-01), C (01-02)', async () => {
    expect(who(await suggest({ o: 'SUPPORTERS' }))).toEqual(['sg_v', 'sg_gamma']);
  });

  it('SHUFFLE: the window 40 − 3 … 40 + 5 = [37, 45] holds A 42 and C 39; the same seed gives the same order', async () => {
    const one = who(await suggest({ o: 'SHUFFLE', seed: 7 }));
    expect([...one].sort()).toEqual(['sg_alpha', 'sg_gamma']);
    expect(who(await suggest({ o: 'SHUFFLE', seed: 7 }))).toEqual(one);
    const err = (await s.gql<any>(Q, { id: v.id, o: 'SHUFFLE' }, token)).body.errors?.[0];
    expect([err?.extensions?.code, JSON.stringify(err?.extensions)]).toEqual([
      'BAD_USER_INPUT',
      expect.stringContaining('"seed"'),
    ]);
  });

  it('radar basis NOTES (my live radar −15 without plays): A −5 (10), C 20 (35), B 80 (95); E has no radar row', async () => {
    const rows = await suggest({ c: 'NOTES' });
    expect(rows.map((r: any) => [names.get(r.userId), r.value, r.distance, r.totalBpi])).toEqual([
      ['sg_alpha', -5, 10, 42],
      ['sg_gamma', 20, 35, 39],
      ['sg_beta', 80, 95, 30],
    ]);
  });

  it('search: "22" holds E\'s name and A\'s game id (11112222); "1111-2222" only A; "GAM" the name sg_gamma', async () => {
    expect(who(await suggest({ q: '22' }))).toEqual(['sg_alpha', 'sg_22x']);
    expect(who(await suggest({ q: '1111-2222' }))).toEqual(['sg_alpha']);
    expect(who(await suggest({ q: 'GAM' }))).toEqual(['sg_gamma']);
  });
});

describe('searchUsers by substring of the name or game id (issue #33 item 5)', () => {
  const S = `query($p: String, $q: String) { searchUsers(prefix: $p, search: $q) { name } }`;
  it('"3333-4" → B (game id 33334444 holds 33334); "sg_" → every public player by name (not the private D)', async () => {
    const r1 = expectNoErrors<any>(await s.gql(S, { q: '3333-4' })).searchUsers;
    expect(r1.map((u: any) => u.name)).toEqual(['sg_beta']);
    const r2 = expectNoErrors<any>(await s.gql(S, { q: 'sg_' })).searchUsers;
    expect(r2.map((u: any) => u.name)).toEqual(['sg_22x', 'sg_alpha', 'sg_beta', 'sg_gamma', 'sg_v']);
  });
  it('both or neither of prefix / search: BAD_USER_INPUT naming the argument', async () => {
    for (const [vars, arg] of [
      [{ p: 'sg', q: 'sg' }, 'search'],
      [{}, 'prefix'],
    ] as const) {
      const err = (await s.gql<any>(S, vars)).body.errors?.[0];
      expect([err?.extensions?.code, JSON.stringify(err?.extensions)]).toEqual([
        'BAD_USER_INPUT',
        expect.stringContaining(`"${arg}"`),
      ]);
    }
  });
});
