import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import {
  aBestScoreRow,
  aPlayer,
  aPrivatePlayer,
  aPublicPlayer,
  aVersionStatus,
  anAdmin,
  follows,
} from '../../helpers/factories';
import { createContext } from '../../../src/graphql/context';
import { UsersResolver } from '../../../src/modules/users/users.resolver';
import { calcBpi, totalBpi } from '../../../src/domain/bpi';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const PROFILE = `query($id: ID!) { user(id: $id) {
  id: databaseId name isPublic isMasked profileText profileImage gameId socialId
  role { role description grantedAt }
  follows { followers following }
  relationship { isFollowing isFollowedBy isMutual isSelf }
  stats { version totalBpi arenaClass arenaRank area gradeSp gradeDp updatedAt bestArenaClass bestArenaClassAt }
  areaRank { area areaRank rank totalInArea }
  statsPrivacy { showArenaClass showArenaRank showArea showGrade }
} }`;

const spCharts = (level: number) =>
  [...s.app.catalogue.charts()].filter((c) => c.playStyle === 'SP' && c.level === level);

describe('profile read', () => {
  it("shows a public profile to anyone, masking stats by the owner's switches; the owner sees all and statsPrivacy", async () => {
    const u = await aPublicPlayer(s.db.prisma, { gameId: '12345678' });
    await s.db.prisma.user.update({ where: { id: u.id }, data: { profileText: 'hello', socialId: 'dj_u' } });
    await s.db.prisma.userBadge.create({ data: { userId: u.id, role: 'COFFEE', description: 'supporter' } });
    await aVersionStatus(s.db.prisma, u, '33', {
      totalBpi: 42.5,
      arenaClass: 'A3',
      arenaRank: 120,
      area: '東京都',
      gradeSp: '皆伝',
      gradeDp: '十段',
      bestArenaClass: 'A2',
      bestArenaClassAt: new Date('2026-01-01T00:00:00Z'),
    });
    await aVersionStatus(s.db.prisma, u, 'INF', { totalBpi: 10 });
    await aVersionStatus(s.db.prisma, u, '31', { totalBpi: 5 });

    const anon = expectNoErrors<any>(await s.gql(PROFILE, { id: u.id })).user;
    expect(anon).toMatchObject({
      id: u.id,
      name: u.name,
      isPublic: true,
      isMasked: false,
      profileText: 'hello',
      gameId: '1234-5678',
      socialId: 'dj_u',
    });
    expect(anon.role).toMatchObject({ role: 'coffee', description: 'supporter' });
    expect(anon.statsPrivacy).toBeNull();
    expect(anon.relationship).toEqual({ isFollowing: false, isFollowedBy: false, isMutual: false, isSelf: false });
    expect(anon.stats.map((e: any) => e.version)).toEqual(['33', '31', 'INF']);
    // defaults: class shown; rank, area, grade hidden
    expect(anon.stats[0]).toMatchObject({
      totalBpi: 42.5,
      arenaClass: 'A3',
      bestArenaClass: 'A2',
      arenaRank: null,
      area: null,
      gradeSp: null,
      gradeDp: null,
    });

    const owner = expectNoErrors<any>(await s.gql(PROFILE, { id: u.id }, await s.tokenFor(u.id))).user;
    expect(owner.stats[0]).toMatchObject({
      arenaClass: 'A3',
      arenaRank: 120,
      area: '東京都',
      gradeSp: '皆伝',
      gradeDp: '十段',
    });
    expect(owner.statsPrivacy).toEqual({
      showArenaClass: true,
      showArenaRank: false,
      showArea: false,
      showGrade: false,
    });
    expect(owner.relationship.isSelf).toBe(true);
  });

  it('applies every privacy switch to other viewers', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    await s.db.prisma.user.update({
      where: { id: u.id },
      data: { showArenaClass: false, showArenaRank: true, showArea: true, showGrade: true },
    });
    await aVersionStatus(s.db.prisma, u, '33', {
      arenaClass: 'A1',
      arenaRank: 3,
      area: '大阪府',
      gradeSp: '皆伝',
      bestArenaClass: 'A1',
      bestArenaClassAt: new Date(),
    });
    const other = await aPublicPlayer(s.db.prisma);
    const seen = expectNoErrors<any>(await s.gql(PROFILE, { id: u.id }, await s.tokenFor(other.id))).user;
    expect(seen.stats[0]).toMatchObject({
      arenaClass: null,
      bestArenaClass: null,
      bestArenaClassAt: null,
      arenaRank: 3,
      area: '大阪府',
      gradeSp: '皆伝',
    });
    expect(seen.statsPrivacy).toBeNull();
  });

  it('refuses a private profile to anonymous callers, strangers and unapproved followers; allows approved followers and the owner', async () => {
    const p = await aPrivatePlayer(s.db.prisma);
    const stranger = await aPublicPlayer(s.db.prisma);
    const legacy = await aPublicPlayer(s.db.prisma);
    const approved = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, legacy, p);
    await follows(s.db.prisma, approved, p, { approved: true });
    for (const token of [undefined, await s.tokenFor(stranger.id), await s.tokenFor(legacy.id)]) {
      const res = await s.gql(PROFILE, { id: p.id }, token);
      expect(res.body.errors?.[0]).toMatchObject({
        message: 'This profile is set as a private.',
        extensions: { code: 'FORBIDDEN' },
      });
    }
    const ok = expectNoErrors<any>(await s.gql(PROFILE, { id: p.id }, await s.tokenFor(approved.id))).user;
    expect(ok).toMatchObject({
      id: p.id,
      name: p.name,
      isMasked: false,
      relationship: { isFollowing: true, isFollowedBy: false },
    });
    expect(ok.follows).toEqual({ followers: 2, following: 0 });
    expectNoErrors<any>(await s.gql(PROFILE, { id: p.id }, await s.tokenFor(p.id)));
  });

  it('answers NOT_FOUND for an unknown id', async () => {
    const res = await s.gql(PROFILE, { id: '00000000-0000-0000-0000-000000000000' });
    expect(res.body.errors?.[0]).toMatchObject({ message: 'User not found', extensions: { code: 'NOT_FOUND' } });
  });

  it('finds users by name case-insensitively, null for unknown, FORBIDDEN for invisible private ones', async () => {
    const u = await aPublicPlayer(s.db.prisma, { name: 'CaseName' });
    expect(
      expectNoErrors<any>(await s.gql('{ userByName(name: "casename") { id: databaseId name } }')).userByName,
    ).toEqual({ id: u.id, name: 'CaseName' });
    expect(expectNoErrors<any>(await s.gql('{ userByName(name: "nobody-here") { id } }')).userByName).toBeNull();
    await aPrivatePlayer(s.db.prisma, { name: 'HiddenOne' });
    const res = await s.gql('{ userByName(name: "HIDDENONE") { id } }');
    expect(res.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('reports relationship flags and live follow counts', async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const b = await aPublicPlayer(s.db.prisma);
    const c = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, a, b);
    await follows(s.db.prisma, b, a);
    await follows(s.db.prisma, c, b);
    const seen = expectNoErrors<any>(await s.gql(PROFILE, { id: b.id }, await s.tokenFor(a.id))).user;
    expect(seen.relationship).toEqual({ isFollowing: true, isFollowedBy: true, isMutual: true, isSelf: false });
    expect(seen.follows).toEqual({ followers: 2, following: 1 });
    const byC = expectNoErrors<any>(await s.gql(PROFILE, { id: b.id }, await s.tokenFor(c.id))).user;
    expect(byC.relationship).toEqual({ isFollowing: true, isFollowedBy: false, isMutual: false, isSelf: false });
  });

  it('computes the area rank among A-class players of the same area in the latest snapshot, hidden unless showArea', async () => {
    const u = await aPublicPlayer(s.db.prisma, { gameId: '11112222' });
    const old = await s.db.prisma.arenaSnapshot.create({
      data: { version: '33', fetchedAt: new Date('2026-01-01T00:00:00Z') },
    });
    await s.db.prisma.arenaEntry.create({
      data: { snapshotId: old.id, gameId: '11112222', name: 'U', area: '東京都', arenaClass: 'A1', rank: 1 },
    });
    const snap = await s.db.prisma.arenaSnapshot.create({
      data: { version: '33', fetchedAt: new Date('2026-02-01T00:00:00Z') },
    });
    await s.db.prisma.arenaEntry.createMany({
      data: [
        { snapshotId: snap.id, gameId: '90000001', name: 'X', area: '東京都', arenaClass: 'A1', rank: 50 },
        { snapshotId: snap.id, gameId: '90000002', name: 'Y', area: '東京都', arenaClass: 'A2', rank: 2 },
        { snapshotId: snap.id, gameId: '11112222', name: 'U', area: '東京都', arenaClass: 'A2', rank: 10 },
        { snapshotId: snap.id, gameId: '90000003', name: 'Z', area: '東京都', arenaClass: 'B1', rank: 1 },
        { snapshotId: snap.id, gameId: '90000004', name: 'W', area: '大阪府', arenaClass: 'A1', rank: 1 },
      ],
    });
    const owner = expectNoErrors<any>(await s.gql(PROFILE, { id: u.id }, await s.tokenFor(u.id))).user;
    expect(owner.areaRank).toEqual({ area: '東京都', areaRank: 3, rank: 3, totalInArea: 3 }); // rank = areaRank (its deprecated name)
    const anon = expectNoErrors<any>(await s.gql(PROFILE, { id: u.id })).user;
    expect(anon.areaRank).toBeNull();
    await s.db.prisma.user.update({ where: { id: u.id }, data: { showArea: true } });
    expect(expectNoErrors<any>(await s.gql(PROFILE, { id: u.id })).user.areaRank).toEqual({
      area: '東京都',
      areaRank: 3,
      rank: 3,
      totalInArea: 3,
    });
  });
});

describe('followers / following connections', () => {
  const Q = `query($id: ID!, $after: String) { user(id: $id) {
    followers(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { followedAt node { id: databaseId name isMasked profileText stats { totalBpi } follows { followers } } } }
    following(first: 5) { totalCount edges { node { id: databaseId } } }
  } }`;

  it('pages followers newest first and masks users the viewer may not see', async () => {
    const target = await aPublicPlayer(s.db.prisma);
    const pub = await aPublicPlayer(s.db.prisma);
    const priv = await aPrivatePlayer(s.db.prisma);
    const third = await aPublicPlayer(s.db.prisma);
    await aVersionStatus(s.db.prisma, priv, '33', { totalBpi: 77 });
    await aVersionStatus(s.db.prisma, pub, '33', { totalBpi: 11 });
    await s.db.prisma.user.update({ where: { id: priv.id }, data: { profileText: 'secret' } });
    const t0 = Date.now();
    await s.db.prisma.follow.create({
      data: { followerId: third.id, followingId: target.id, createdAt: new Date(t0 - 3000) },
    });
    await s.db.prisma.follow.create({
      data: { followerId: priv.id, followingId: target.id, createdAt: new Date(t0 - 2000) },
    });
    await s.db.prisma.follow.create({
      data: { followerId: pub.id, followingId: target.id, createdAt: new Date(t0 - 1000) },
    });
    await follows(s.db.prisma, target, pub);

    const p1 = expectNoErrors<any>(await s.gql(Q, { id: target.id })).user;
    expect(p1.followers.totalCount).toBe(3);
    expect(p1.followers.pageInfo.hasNextPage).toBe(true);
    expect(p1.followers.edges[0].node).toMatchObject({
      id: pub.id,
      name: pub.name,
      isMasked: false,
      stats: [{ totalBpi: 11 }],
    });
    // the private follower: masked completely — a random id that names nobody, masked name, no profile, no stats
    const masked = p1.followers.edges[1].node;
    expect(masked).toEqual({
      id: expect.any(String),
      name: '非公開ユーザー',
      isMasked: true,
      profileText: null,
      stats: null,
      follows: null,
    });
    expect(masked.id).not.toBe(priv.id);
    expect(await s.db.prisma.user.count({ where: { id: masked.id } })).toBe(0);
    expect(new Date(p1.followers.edges[1].followedAt).getTime()).toBe(t0 - 2000);
    expect(p1.following).toEqual({ totalCount: 1, edges: [{ node: { id: pub.id } }] });

    const p2 = expectNoErrors<any>(await s.gql(Q, { id: target.id, after: p1.followers.pageInfo.endCursor })).user;
    expect(p2.followers.edges.map((e: any) => e.node.id)).toEqual([third.id]);
    expect(p2.followers.pageInfo.hasNextPage).toBe(false);

    // the private follower sees themself unmasked
    const self = expectNoErrors<any>(await s.gql(Q, { id: target.id }, await s.tokenFor(priv.id))).user;
    expect(self.followers.edges[1].node).toMatchObject({
      name: priv.name,
      isMasked: false,
      profileText: 'secret',
      stats: [{ totalBpi: 77 }],
    });
  });
});

describe('compare', () => {
  const Q = `query($id: ID!, $v: GameVersion) { user(id: $id) { compare(version: $v) { version winLoss { level win lose draw } radar { NOTES CHORD PEAK CHARGE SCRATCH SOFLAN notes chord peak charge scratch soflan } } } }`;

  it('counts wins, losses and draws per level on charts both played; null winLoss for anonymous viewers', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const them = await aPublicPlayer(s.db.prisma);
    const [a, b, c] = spCharts(12);
    const [d] = spCharts(11);
    const [e] = spCharts(12).slice(3);
    await aBestScoreRow(s.db.prisma, me, a.id, 2000);
    await aBestScoreRow(s.db.prisma, them, a.id, 1900); // win
    await aBestScoreRow(s.db.prisma, me, b.id, 1500);
    await aBestScoreRow(s.db.prisma, them, b.id, 1600); // lose
    await aBestScoreRow(s.db.prisma, me, c.id, 1700);
    await aBestScoreRow(s.db.prisma, them, c.id, 1700); // draw
    await aBestScoreRow(s.db.prisma, me, d.id, 1200);
    await aBestScoreRow(s.db.prisma, them, d.id, 1000); // win at 11
    await aBestScoreRow(s.db.prisma, me, e.id, 1000); // only me: not compared
    await aBestScoreRow(s.db.prisma, them, a.id + 0, 1, { version: '32' }).catch(() => undefined);

    const res = expectNoErrors<any>(await s.gql(Q, { id: them.id }, await s.tokenFor(me.id))).user.compare;
    expect(res.version).toBe('33');
    expect(res.winLoss).toEqual([
      { level: 11, win: 1, lose: 0, draw: 0 },
      { level: 12, win: 1, lose: 1, draw: 1 },
    ]);
    const anon = expectNoErrors<any>(await s.gql(Q, { id: them.id })).user.compare;
    expect(anon.winLoss).toBeNull();
    expect(Object.keys(anon.radar)).toEqual([
      'NOTES',
      'CHORD',
      'PEAK',
      'CHARGE',
      'SCRATCH',
      'SOFLAN',
      'notes',
      'chord',
      'peak',
      'charge',
      'scratch',
      'soflan',
    ]);
    // the camelCase fields are the deprecated upper-case ones under their new names
    for (const k of ['notes', 'chord', 'peak', 'charge', 'scratch', 'soflan'])
      expect([k, anon.radar[k]]).toEqual([k, anon.radar[k.toUpperCase()]]);
    const other = expectNoErrors<any>(await s.gql(Q, { id: them.id, v: '30' }, await s.tokenFor(me.id))).user.compare;
    expect(other.winLoss).toEqual([]);
    const bad = await s.gql(Q, { id: them.id, v: '99' });
    expect(bad.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('computes the radar from imported categories: total BPI over the category charts', async () => {
    const admin = await anAdmin(s.db.prisma);
    const notes = spCharts(12).slice(0, 3);
    const chord = spCharts(12).slice(3, 4);
    const doc = [
      ...notes.map((c) => ({ title: c.title, difficulty: c.difficulty, top: 'NOTES' })),
      ...chord.map((c) => ({ title: c.title, difficulty: c.difficulty, top: 'CHORD' })),
      { title: 'No Such Song', difficulty: 'ANOTHER', top: 'PEAK' },
      { title: 'bad' },
    ];
    const denied = await s.gql(
      'mutation($j: String!) { importRadarCategories(json: $j) { matched } }',
      { j: JSON.stringify(doc) },
      await s.tokenFor((await aPublicPlayer(s.db.prisma)).id),
    );
    expect(denied.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const imp = expectNoErrors<any>(
      await s.gql(
        'mutation($j: String!) { importRadarCategories(json: $j) { total matched updated unmatched invalid unmatchedSamples } }',
        { j: JSON.stringify(doc) },
        await s.tokenFor(admin.id),
      ),
    );
    expect(imp.importRadarCategories).toEqual({
      total: 6,
      matched: 4,
      updated: 4,
      unmatched: 1,
      invalid: 1,
      unmatchedSamples: ['No Such Song (ANOTHER)'],
    });
    const again = expectNoErrors<any>(
      await s.gql(
        'mutation($j: String!) { importRadarCategories(json: $j) { updated } }',
        { j: JSON.stringify(doc) },
        await s.tokenFor(admin.id),
      ),
    );
    expect(again.importRadarCategories.updated).toBe(0);
    expect(s.app.catalogue.chart(notes[0].id)?.radarCategory).toBe('NOTES');

    const u = await aPublicPlayer(s.db.prisma);
    // EX scores between kaiden average and world record: BPIs in (0, 100), derived from the current definitions
    const exBetween = (c: (typeof notes)[number], f: number) =>
      Math.floor(c.definition!.kaidenAvg! + f * (c.definition!.wr! - c.definition!.kaidenAvg!));
    const ex0 = exBetween(notes[0], 0.7);
    const ex1 = exBetween(notes[1], 0.3);
    await aBestScoreRow(s.db.prisma, u, notes[0].id, ex0, { bpi: 50 }); // a play's stored BPI is not the best's
    await aBestScoreRow(s.db.prisma, u, notes[1].id, ex1, { bpi: 20 });
    await aBestScoreRow(s.db.prisma, u, chord[0].id, 900, { bpi: null });
    const radar = expectNoErrors<any>(await s.gql(Q, { id: u.id })).user.compare.radar;
    const validNotes = [...s.app.catalogue.charts()].filter(
      (c) =>
        c.playStyle === 'SP' && c.radarCategory === 'NOTES' && (c.releasedVersion ?? 0) <= 33 && !c.removedInVersion,
    ).length;
    const bpis = [calcBpi(ex0, notes[0].definition!)!, calcBpi(ex1, notes[1].definition!)!];
    expect(bpis.every((b) => b > 0 && b < 100)).toBe(true);
    expect(radar.NOTES).toBe(totalBpi(bpis, validNotes));
    expect(radar.CHORD).toBe(-15);
    expect(radar.PEAK).toBe(-15);
  });
});

describe('profile writes', () => {
  const UPDATE = `mutation($i: UpdateProfileInput!) { updateProfile(input: $i) { user { id: databaseId name gameId profileText profileImage socialId isPublic statsPrivacy { showArenaClass showArenaRank showArea showGrade } } } }`;

  it('updates only the given fields (PATCH), normalises the game id and validates everything', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const t = await s.tokenFor(u.id);
    const r1 = expectNoErrors<any>(
      await s.gql(
        UPDATE,
        { i: { profileText: 'hi', gameId: '1234-5678', socialId: '@dj_x', profileImage: 'https://img.example/a.png' } },
        t,
      ),
    ).updateProfile.user;
    expect(r1).toMatchObject({
      name: u.name,
      profileText: 'hi',
      gameId: '1234-5678',
      socialId: 'dj_x',
      profileImage: 'https://img.example/a.png',
      isPublic: true,
    });
    expect((await s.db.prisma.user.findUnique({ where: { id: u.id } }))!.gameId).toBe('12345678');
    const r2 = expectNoErrors<any>(await s.gql(UPDATE, { i: { isPublic: false, statsPrivacy: { showArea: true } } }, t))
      .updateProfile.user;
    expect(r2).toMatchObject({
      profileText: 'hi',
      gameId: '1234-5678',
      isPublic: false,
      statsPrivacy: { showArenaClass: true, showArenaRank: false, showArea: true, showGrade: false },
    });
    const r3 = expectNoErrors<any>(
      await s.gql(UPDATE, { i: { profileText: null, name: 'Renamed_' + u.name.slice(0, 10) } }, t),
    ).updateProfile.user;
    expect(r3).toMatchObject({ profileText: null, gameId: '1234-5678', name: 'Renamed_' + u.name.slice(0, 10) });

    const bad = await s.gql(
      UPDATE,
      { i: { gameId: '123', profileImage: 'http://x.example/a.png', profileText: 'x'.repeat(501), name: 'a/b' } },
      t,
    );
    expect(bad.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await s.db.prisma.user.findUnique({ where: { id: u.id } }))!.profileText).toBeNull();
    const anon = await s.gql(UPDATE, { i: { profileText: 'x' } });
    expect(anon.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('answers CONFLICT for a name taken case-insensitively', async () => {
    await aPublicPlayer(s.db.prisma, { name: 'TakenName' });
    const u = await aPublicPlayer(s.db.prisma);
    const res = await s.gql(UPDATE, { i: { name: 'takenname' } }, await s.tokenFor(u.id));
    expect(res.body.errors?.[0]).toMatchObject({
      message: 'This user name is already taken',
      extensions: { code: 'CONFLICT' },
    });
  });

  it('checks name availability', async () => {
    await aPublicPlayer(s.db.prisma, { name: 'AvailCheck' });
    const q = 'query($n: String!) { nameAvailability(name: $n) { name available message } }';
    expect(expectNoErrors<any>(await s.gql(q, { n: 'availcheck' })).nameAvailability.available).toBe(false);
    expect(expectNoErrors<any>(await s.gql(q, { n: 'FreeName99' })).nameAvailability).toMatchObject({
      available: true,
    });
    expect(expectNoErrors<any>(await s.gql(q, { n: 'x' })).nameAvailability).toMatchObject({
      available: false,
      message: expect.stringMatching(/2–20/),
    });
  });

  it('creates a profile for an external identity without a local user (user + identity in one transaction); CONFLICT with a local user', async () => {
    const resolver = new UsersResolver();
    const ctx = createContext(s.app, null);
    ctx.identity = { issuer: 'https://idp.example', subject: 'sub-1' };
    const { user } = await resolver.createProfile({ name: 'OidcNewbie', isPublic: false, gameId: '87654321' }, ctx);
    expect(user).toMatchObject({ name: 'OidcNewbie', nameKey: 'oidcnewbie', isPublic: false, gameId: '87654321' });
    expect(
      await s.db.prisma.externalIdentity.findUnique({
        where: { issuer_subject: { issuer: 'https://idp.example', subject: 'sub-1' } },
      }),
    ).toMatchObject({ userId: user.id });
    await expect(resolver.createProfile({ name: 'OidcAgain' }, ctx)).rejects.toMatchObject({ code: 'CONFLICT' });
    const ctx2 = createContext(s.app, null);
    ctx2.identity = { issuer: 'https://idp.example', subject: 'sub-2' };
    await expect(resolver.createProfile({ name: 'oidcnewbie' }, ctx2)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await s.db.prisma.externalIdentity.count({ where: { subject: 'sub-2' } })).toBe(0);
    await expect(resolver.createProfile({ name: 'x' }, ctx2)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });

    const local = await aPublicPlayer(s.db.prisma);
    const res = await s.gql(
      'mutation { createProfile(input: { name: "SomeoneNew" }) { user { id: databaseId } } }',
      {},
      await s.tokenFor(local.id),
    );
    expect(res.body.errors?.[0].extensions.code).toBe('CONFLICT');
    const anon = await s.gql('mutation { createProfile(input: { name: "SomeoneNew" }) { user { id: databaseId } } }');
    expect(anon.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('deletes an account only with the exact name, removing its data and keeping others consistent', async () => {
    const db = s.db.prisma;
    const doomed = await aPlayer(db, { name: 'DoomedUser' });
    const friend = await aPublicPlayer(db);
    const author = await aPublicPlayer(db);
    await follows(db, doomed, friend);
    await follows(db, friend, doomed);
    const [chart] = spCharts(12);
    await aBestScoreRow(db, doomed, chart.id, 1500);
    await aVersionStatus(db, doomed, '33', { totalBpi: 30, arenaClass: 'A1' });
    await db.arenaAverage.create({
      data: { chartId: chart.id, version: '33', arenaClass: 'A1', avgExScore: 1500, count: 1 },
    });
    const note = await db.songNote.create({
      data: { chartId: chart.id, authorId: author.id, body: 'tip', upvoteCount: 1 },
    });
    await db.songNoteUpvote.create({ data: { noteId: note.id, userId: doomed.id } });
    await db.fingeringPattern.create({ data: { chartId: chart.id, pattern: '1234567', upvotes: 1, score: 1 } });
    await db.fingeringPatternVote.create({
      data: { chartId: chart.id, pattern: '1234567', userId: doomed.id, type: 'UPVOTE' },
    });
    await db.followRequest.create({ data: { requesterId: doomed.id, targetId: author.id } });
    await db.followList.create({
      data: { ownerId: friend.id, name: 'rivals', members: { create: { userId: doomed.id } } },
    });
    const events: unknown[] = [];
    s.app.events.on('users.deleted', (e) => void events.push(e));

    const t = await s.tokenFor(doomed.id);
    const DEL = 'mutation($c: String!) { deleteAccount(confirmName: $c) { deletedUserId message } }';
    const wrong = await s.gql(DEL, { c: 'doomeduser' }, t);
    expect(wrong.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(await db.user.count({ where: { id: doomed.id } })).toBe(1);

    expect(expectNoErrors<any>(await s.gql(DEL, { c: 'DoomedUser' }, t)).deleteAccount.deletedUserId).toBe(doomed.id);
    expect(await db.user.count({ where: { id: doomed.id } })).toBe(0);
    for (const n of [
      await db.score.count({ where: { userId: doomed.id } }),
      await db.bestScore.count({ where: { userId: doomed.id } }),
      await db.importBatch.count({ where: { userId: doomed.id } }),
      await db.playerVersionStatus.count({ where: { userId: doomed.id } }),
      await db.follow.count({ where: { OR: [{ followerId: doomed.id }, { followingId: doomed.id }] } }),
      await db.followRequest.count({ where: { requesterId: doomed.id } }),
      await db.followListMember.count({ where: { userId: doomed.id } }),
      await db.songNoteUpvote.count({ where: { userId: doomed.id } }),
    ])
      expect(n).toBe(0);
    expect((await db.songNote.findUnique({ where: { id: note.id } }))!.upvoteCount).toBe(0);
    expect(
      await db.fingeringPattern.findUnique({ where: { chartId_pattern: { chartId: chart.id, pattern: '1234567' } } }),
    ).toMatchObject({ upvotes: 0, score: 0 });
    const f = expectNoErrors<any>(
      await s.gql('query($id: ID!) { user(id: $id) { follows { followers following } } }', { id: friend.id }),
    ).user;
    expect(f.follows).toEqual({ followers: 0, following: 0 });
    expect(await db.followList.count({ where: { ownerId: friend.id } })).toBe(1);
    expect(events).toEqual([{ userId: doomed.id, bestCharts: [{ version: '33', chartIds: [chart.id] }] }]);
    // the cached arena average built on the deleted best is recomputed (by the users.deleted listener)
    let left = 1;
    for (let i = 0; i < 200 && left > 0; i++) {
      left = await db.arenaAverage.count({ where: { chartId: chart.id, version: '33', arenaClass: 'A1' } });
      if (left > 0) await new Promise((r) => setImmediate(r));
    }
    expect(left).toBe(0);
    // the old token no longer works
    const after = await s.gql('{ serverInfo { name } }', {}, t);
    expect(after.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
