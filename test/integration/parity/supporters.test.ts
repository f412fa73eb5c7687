/**
 * The supporters list (issue #33 item 8): `Query.supporters(version)`, badge holders oldest badge first with their
 * stored total BPI; a player the caller may not see is masked.
 *
 * Fixture (version 33):
 *   A public,  COFFEE    granted 2026-01-01, total 50.5
 *   B private, SABA      granted 2026-01-02, total 30
 *   C public,  DEVELOPER granted 2026-01-03, no total stored
 *   D public,  no badge,                     total 70   (never listed)
 *   F follows B, approved: F sees B; a stranger sees B masked.
 */
import type { User } from '../../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, aVersionStatus, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let a: User, b: User, c: User, f: User;

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const db = s.db.prisma;
  a = await aPublicPlayer(db, { name: 'sup_a' });
  b = await aPrivatePlayer(db, { name: 'sup_b' });
  c = await aPublicPlayer(db, { name: 'sup_c' });
  const d = await aPublicPlayer(db, { name: 'sup_d' });
  f = await aPublicPlayer(db, { name: 'sup_f' });
  await db.userBadge.create({
    data: { userId: b.id, role: 'SABA', description: 'saba', grantedAt: new Date('2026-01-02T00:00:00Z') },
  });
  await db.userBadge.create({ data: { userId: a.id, role: 'COFFEE', grantedAt: new Date('2026-01-01T00:00:00Z') } });
  await db.userBadge.create({ data: { userId: c.id, role: 'DEVELOPER', grantedAt: new Date('2026-01-03T00:00:00Z') } });
  await aVersionStatus(db, a, '33', { totalBpi: 50.5 });
  await aVersionStatus(db, b, '33', { totalBpi: 30 });
  await aVersionStatus(db, d, '33', { totalBpi: 70 });
  await follows(db, f, b, { approved: true });
}, 120_000);
afterAll(() => s.close());

const Q = `query($v: GameVersion) { supporters(version: $v) { role description grantedAt totalBpi user { name isMasked } } }`;
const rows = (r: any) => r.supporters.map((x: any) => [x.user.isMasked ? '(masked)' : x.user.name, x.role, x.totalBpi]);

describe('supporters (issue #33 item 8)', () => {
  it('anonymous: badge holders oldest first, the private one masked with no total; D (no badge) absent', async () => {
    const r = expectNoErrors<any>(await s.gql(Q, { v: '33' }));
    expect(rows(r)).toEqual([
      ['sup_a', 'coffee', 50.5],
      ['(masked)', 'saba', null],
      ['sup_c', 'developer', null],
    ]);
    expect(r.supporters[1]).toMatchObject({ description: 'saba', grantedAt: '2026-01-02T00:00:00.000Z' });
    expect(r.supporters[1].user.name).not.toBe('sup_b');
  });

  it('the private player and an approved follower see B with its total 30', async () => {
    for (const who of [b, f]) {
      const r = expectNoErrors<any>(await s.gql(Q, { v: '33' }, await s.tokenFor(who.id)));
      expect(rows(r)[1]).toEqual(['sup_b', 'saba', 30]);
    }
  });

  it('another version has no totals; an unknown version is BAD_USER_INPUT naming it', async () => {
    const r = expectNoErrors<any>(await s.gql(Q, { v: '32' }));
    expect(rows(r).map((x: any[]) => x[2])).toEqual([null, null, null]);
    const err = (await s.gql<any>(Q, { v: 'XX' })).body.errors?.[0];
    expect([err?.extensions?.code, JSON.stringify(err?.extensions)]).toEqual([
      'BAD_USER_INPUT',
      expect.stringContaining('"version"'),
    ]);
  });
});
