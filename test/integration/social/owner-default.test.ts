import type { User } from '../../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, anAdmin } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

/**
 * Owner operations take the viewer from the token (issue #13): `userId` is optional and defaults
 * to the caller; an administrator may name someone else; anyone else naming someone else is
 * FORBIDDEN, and a signed-out caller is UNAUTHENTICATED.
 */
let s: TestServer;
let owner: User;
let other: User;
let admin: User;
let chartId: number;

beforeAll(async () => {
  s = await startTestServer();
  const db = s.db.prisma;
  owner = await aPrivatePlayer(db);
  other = await aPublicPlayer(db);
  admin = await anAdmin(db);
  chartId = (await db.chart.findFirstOrThrow({ orderBy: { id: 'asc' }, select: { id: true } })).id;
  // owner: 3 notifications; other: 1
  for (const recipient of [owner, owner, owner, other])
    await db.notification.create({ data: { recipientId: recipient.id, type: 'NEW_FOLLOWER', actorId: admin.id } });
});
afterAll(() => s.close());

const code = (res: { body: { errors?: any[] } }) => res.body.errors?.[0]?.extensions?.code ?? null;
const as = async (user: User | null, query: string, variables: Record<string, unknown> = {}) =>
  s.gql(query, variables, user ? await s.tokenFor(user.id) : undefined);

describe('owner operations default to the viewer', () => {
  const MINE = '{ notifications { totalCount } unreadNotificationCount }';
  const FOR = 'query($u: ID) { notifications(userId: $u) { totalCount } }';

  it("without userId: the caller's own inbox (owner 3, other 1)", async () => {
    expect(expectNoErrors(await as(owner, MINE))).toEqual({
      notifications: { totalCount: 3 },
      unreadNotificationCount: 3,
    });
    expect(expectNoErrors(await as(other, MINE))).toEqual({
      notifications: { totalCount: 1 },
      unreadNotificationCount: 1,
    });
  });

  it('signed out: UNAUTHENTICATED (no viewer to default to)', async () => {
    expect(code(await as(null, MINE))).toBe('UNAUTHENTICATED');
  });

  it('naming yourself is the same as leaving it out; naming someone else is FORBIDDEN for a non-admin', async () => {
    expect(expectNoErrors(await as(owner, FOR, { u: owner.id }))).toEqual({ notifications: { totalCount: 3 } });
    expect(expectNoErrors(await as(owner, FOR, { u: null }))).toEqual({ notifications: { totalCount: 3 } });
    expect(code(await as(other, FOR, { u: owner.id }))).toBe('FORBIDDEN');
  });

  it('an administrator may act for someone (their inbox, 3), and defaults to their own (0)', async () => {
    expect(expectNoErrors(await as(admin, FOR, { u: owner.id }))).toEqual({ notifications: { totalCount: 3 } });
    expect(expectNoErrors(await as(admin, FOR))).toEqual({ notifications: { totalCount: 0 } });
  });

  it('a mutation too: importScores without userId stores the rows for the caller', async () => {
    const chart = await s.db.prisma.chart.findUniqueOrThrow({ where: { id: chartId }, include: { song: true } });
    const IMPORT = `mutation($rows: [ScoreRowInput!]!) { importScores(version: "33", rows: $rows) { rowCount updatedCount } }`;
    const rows = [
      {
        title: chart.song.title,
        difficulty: chart.difficulty,
        playStyle: chart.playStyle,
        exScore: 100,
        clearState: 'CLEAR',
      },
    ];
    // one row, one improving play
    expect(expectNoErrors(await as(other, IMPORT, { rows }))).toEqual({
      importScores: { rowCount: 1, updatedCount: 1 },
    });
    const best = await s.db.prisma.bestScore.findMany({
      where: { chartId, version: '33' },
      select: { userId: true, exScore: true },
    });
    expect(best).toEqual([{ userId: other.id, exScore: 100 }]);
  });
});
