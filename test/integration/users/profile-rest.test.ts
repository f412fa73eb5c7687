import Ajv from 'ajv';
import { startTestServer, type TestServer } from '../../helpers/server';
import { aBestScoreRow, aPrivatePlayer, aPublicPlayer, aVersionStatus, follows } from '../../helpers/factories';

/**
 * JSON schema of GET /api/v1/users/{userId}/profile, written from the seed
 * (service-interface.md "Profile response", domain-social.md §2.1): exact field names and types.
 */
const ISO = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';
const str = { type: ['string', 'null'] };
const ts = { type: ['string', 'null'], pattern: ISO };
const num = { type: ['number', 'null'] };
const int = { type: ['integer', 'null'] };
const obj = (properties: Record<string, unknown>, nullable = false) => ({
  type: nullable ? ['object', 'null'] : 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const statsEntry = obj({
  version: { type: 'string' },
  totalBpi: num,
  arenaClass: str,
  arenaRank: int,
  area: str,
  gradeSp: str,
  gradeDp: str,
  updatedAt: ts,
  bestArenaClass: str,
  bestArenaClassAt: ts,
});
const profile = obj({
  userId: { type: 'string' },
  userName: { type: 'string' },
  profileText: str,
  profileImage: str,
  gameId: str,
  socialId: str,
  isPublic: { type: 'integer', enum: [0, 1] },
  follows: obj({ followers: { type: 'integer' }, following: { type: 'integer' } }),
  relationship: obj({
    isFollowing: { type: 'boolean' },
    isFollowedBy: { type: 'boolean' },
    isMutual: { type: 'boolean' },
    isSelf: { type: 'boolean' },
  }),
  role: obj(
    { role: { type: 'string' }, description: { type: 'string' }, grantedAt: { type: 'string', pattern: ISO } },
    true,
  ),
  stats: { type: 'array', items: statsEntry },
  areaRank: obj({ area: { type: 'string' }, areaRank: { type: 'integer' }, totalInArea: { type: 'integer' } }, true),
});
const radar = obj(
  Object.fromEntries(['NOTES', 'CHORD', 'PEAK', 'CHARGE', 'SCRATCH', 'SOFLAN'].map((k) => [k, { type: 'number' }])),
  true,
);
const compare = obj({
  winLoss: {
    type: ['array', 'null'],
    items: obj({
      level: { type: 'integer', enum: [11, 12] },
      win: { type: 'integer' },
      lose: { type: 'integer' },
      draw: { type: 'integer' },
    }),
  },
  radar,
});
const statsPrivacy = obj({
  showArenaClass: { type: 'boolean' },
  showArenaRank: { type: 'boolean' },
  showArea: { type: 'boolean' },
  showGrade: { type: 'boolean' },
});
const responseSchema = (opts: { compare: boolean; owner: boolean }) => ({
  type: 'object',
  properties: { profile, compare, statsPrivacy },
  required: ['profile', ...(opts.compare ? ['compare'] : []), ...(opts.owner ? ['statsPrivacy'] : [])],
  additionalProperties: false,
  ...(opts.compare ? {} : { not: { required: ['compare'] } }),
  ...(opts.owner ? {} : { allOf: [{ not: { required: ['statsPrivacy'] } }] }),
});
const messageSchema = obj({ message: { type: 'string' } });

const ajv = new Ajv({ allErrors: true });
function expectValid(schema: object, body: unknown) {
  const validate = ajv.compile(schema);
  if (!validate(body))
    throw new Error(`schema violations: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body, null, 2)}`);
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

async function richUser(isPublic = true) {
  const db = s.db.prisma;
  const u = isPublic
    ? await aPublicPlayer(db, { gameId: '20202020' })
    : await aPrivatePlayer(db, { gameId: '20202020' });
  await db.user.update({
    where: { id: u.id },
    data: { profileText: 'text', profileImage: 'https://img.example/u.png', socialId: 'dj_rest' },
  });
  await db.userBadge.create({ data: { userId: u.id, role: 'DEVELOPER', description: 'dev' } });
  await aVersionStatus(db, u, '33', {
    totalBpi: 33.3,
    arenaClass: 'A4',
    arenaRank: 900,
    area: '北海道',
    gradeSp: '十段',
    bestArenaClass: 'A3',
    bestArenaClassAt: new Date(),
  });
  await aVersionStatus(db, u, '32', { totalBpi: 20 });
  return u;
}

describe('GET /api/v1/users/{userId}/profile', () => {
  it('answers a public profile in the seed shape, without compare and statsPrivacy for others', async () => {
    const u = await richUser();
    const res = await s.get(`/api/v1/users/${u.id}/profile`);
    expect(res.status).toBe(200);
    expectValid(responseSchema({ compare: false, owner: false }), res.body);
    expect(res.body.profile).toMatchObject({
      userId: u.id,
      userName: u.name,
      isPublic: 1,
      gameId: '2020-2020',
      role: { role: 'developer', description: 'dev' },
    });
    expect(res.body.profile.stats.map((e: any) => e.version)).toEqual(['33', '32']);
    expect(res.body.profile.stats[0]).toMatchObject({ arenaClass: 'A4', arenaRank: null, area: null, gradeSp: null });
    const f = await s.get(`/api/v1/users/${u.id}/profile?compare=false`);
    expect(f.body).toEqual(res.body);
  });

  it('answers 403 {"message":"This profile is set as a private."} for a private profile the viewer may not see', async () => {
    const u = await richUser(false);
    const stranger = await aPublicPlayer(s.db.prisma);
    for (const token of [undefined, await s.tokenFor(stranger.id)]) {
      const res = await s.get(`/api/v1/users/${u.id}/profile`, token);
      expect(res.status).toBe(403);
      expectValid(messageSchema, res.body);
      expect(res.body).toEqual({ message: 'This profile is set as a private.' });
    }
    const follower = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, follower, u, { approved: true });
    const ok = await s.get(`/api/v1/users/${u.id}/profile`, await s.tokenFor(follower.id));
    expect(ok.status).toBe(200);
    expectValid(responseSchema({ compare: false, owner: false }), ok.body);
    expect(ok.body.profile).toMatchObject({
      isPublic: 0,
      relationship: { isFollowing: true, isFollowedBy: false, isMutual: false, isSelf: false },
    });
  });

  it('gives the owner everything and statsPrivacy', async () => {
    const u = await richUser(false);
    const snap = await s.db.prisma.arenaSnapshot.create({ data: { version: '33' } });
    await s.db.prisma.arenaEntry.createMany({
      data: [
        { snapshotId: snap.id, gameId: '20202020', name: 'U', area: '北海道', arenaClass: 'A4', rank: 900 },
        { snapshotId: snap.id, gameId: '30303030', name: 'V', area: '北海道', arenaClass: 'A1', rank: 5 },
      ],
    });
    const res = await s.get(`/api/v1/users/${u.id}/profile`, await s.tokenFor(u.id));
    expect(res.status).toBe(200);
    expectValid(responseSchema({ compare: false, owner: true }), res.body);
    expect(res.body.statsPrivacy).toEqual({
      showArenaClass: true,
      showArenaRank: false,
      showArea: false,
      showGrade: false,
    });
    expect(res.body.profile.stats[0]).toMatchObject({ arenaRank: 900, area: '北海道', gradeSp: '十段' });
    expect(res.body.profile.areaRank).toEqual({ area: '北海道', areaRank: 2, totalInArea: 2 });
    expect(res.body.profile.relationship.isSelf).toBe(true);
  });

  it('adds compare with winLoss for a viewer and winLoss null for anonymous callers', async () => {
    const u = await richUser();
    const me = await aPublicPlayer(s.db.prisma);
    const chart = [...s.app.catalogue.charts()].find((c) => c.playStyle === 'SP' && c.level === 12)!;
    await aBestScoreRow(s.db.prisma, u, chart.id, 1500);
    await aBestScoreRow(s.db.prisma, me, chart.id, 1600);
    const withViewer = await s.get(`/api/v1/users/${u.id}/profile?compare=true`, await s.tokenFor(me.id));
    expect(withViewer.status).toBe(200);
    expectValid(responseSchema({ compare: true, owner: false }), withViewer.body);
    expect(withViewer.body.compare.winLoss).toEqual([{ level: 12, win: 1, lose: 0, draw: 0 }]);
    const anon = await s.get(`/api/v1/users/${u.id}/profile?compare=true`);
    expect(anon.status).toBe(200);
    expectValid(responseSchema({ compare: true, owner: false }), anon.body);
    expect(anon.body.compare.winLoss).toBeNull();
    expect(Object.keys(anon.body.compare.radar)).toEqual(['NOTES', 'CHORD', 'PEAK', 'CHARGE', 'SCRATCH', 'SOFLAN']);
  });

  it('answers 404 for an unknown user, 400 for a bad compare value, 405 for other methods', async () => {
    const missing = await s.get('/api/v1/users/nobody-at-all/profile');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'User not found' });
    const u = await aPublicPlayer(s.db.prisma);
    const bad = await s.get(`/api/v1/users/${u.id}/profile?compare=yes`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('compare must be true or false');
    const post = await fetch(`${s.url}/api/v1/users/${u.id}/profile`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('answers 500 {message} on an unexpected failure', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const spy = jest.spyOn(s.app.catalogue, 'charts').mockImplementation(() => {
      throw new Error('boom');
    });
    try {
      const res = await s.get(`/api/v1/users/${u.id}/profile?compare=true`);
      expect(res.status).toBe(500);
      expectValid(messageSchema, res.body);
    } finally {
      spy.mockRestore();
    }
  });
});
