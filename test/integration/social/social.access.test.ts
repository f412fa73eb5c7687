/**
 * Access matrix of the social operations (docs/domain/social.md#privacy) for the six kinds of caller of a
 * PRIVATE owner: anonymous, another player, the owner, an approved follower, a legacy follower
 * (follows without approval) and a pending requester. Owner-only operations refuse everyone but
 * the owner; no private data of the owner reaches anyone but the owner and the approved follower,
 * whichever operation they use.
 */
import type { User } from '../../../src/generated/prisma/client';
import { onScoresImported } from '../../../src/modules/social/social.events';
import { TimelineService } from '../../../src/modules/social/timeline.service';
import { aPrivatePlayer, aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let owner: User;
let roles: Record<'anonymous' | 'other' | 'owner' | 'approved' | 'legacy' | 'pending', User | null>;
let ownerPlayId: number;

beforeAll(async () => {
  s = await startTestServer();
  const db = s.db.prisma;
  owner = await aPrivatePlayer(db);
  const approved = await aPublicPlayer(db);
  const legacy = await aPublicPlayer(db);
  const pending = await aPublicPlayer(db);
  const other = await aPublicPlayer(db);
  await follows(db, approved, owner, { approved: true });
  await follows(db, legacy, owner, { approved: false });
  await db.followRequest.create({ data: { requesterId: pending.id, targetId: owner.id } });
  roles = { anonymous: null, other, owner, approved, legacy, pending };

  // everyone has a score on the chart; then the owner passes them all
  const chart = (await db.chart.findFirstOrThrow({ orderBy: { id: 'asc' } })).id;
  for (const u of [approved, legacy, pending, other]) await aScoreImport(db, u, [{ chartId: chart, exScore: 100 }]);
  const imp = await aScoreImport(db, owner, [{ chartId: chart, exScore: 2000 }]);
  ownerPlayId = imp.scores[0].id;
  await onScoresImported(s.app, {
    userId: owner.id,
    version: imp.version,
    batchId: imp.batchId,
    chartIds: imp.chartIds,
  });
});
afterAll(() => s.close());

async function call(role: keyof typeof roles, query: string, variables: Record<string, unknown>) {
  const u = roles[role];
  return s.gql(query, variables, u ? await s.tokenFor(u.id) : undefined);
}
const code = (res: { body: { errors?: any[] } }) => res.body.errors?.[0]?.extensions?.code ?? null;

/** Owner-only operations; args use the owner's id. Ids that do not exist give NOT_FOUND to the owner (the rule let them in). */
const OWNER_ONLY: [string, string, (o: string) => Record<string, unknown>][] = [
  ['incomingFollowRequests', 'query($o: ID!) { incomingFollowRequests(userId: $o) { totalCount } }', (o) => ({ o })],
  ['outgoingFollowRequests', 'query($o: ID!) { outgoingFollowRequests(userId: $o) { totalCount } }', (o) => ({ o })],
  ['followInvite', 'query($o: ID!) { followInvite(userId: $o) { exists } }', (o) => ({ o })],
  ['followLists', 'query($o: ID!) { followLists(userId: $o) { id: databaseId } }', (o) => ({ o })],
  ['followingWithLists', 'query($o: ID!) { followingWithLists(userId: $o) { totalCount } }', (o) => ({ o })],
  ['notifications', 'query($o: ID!) { notifications(userId: $o) { totalCount } }', (o) => ({ o })],
  ['unreadNotificationCount', 'query($o: ID!) { unreadNotificationCount(userId: $o) }', (o) => ({ o })],
  ['timeline', 'query($o: ID!) { timeline(userId: $o) { edges { node { id } } } }', (o) => ({ o })],
  [
    'approveFollowRequest',
    'mutation($o: ID!) { approveFollowRequest(userId: $o, requestId: 0) { state } }',
    (o) => ({ o }),
  ],
  [
    'rejectFollowRequest',
    'mutation($o: ID!) { rejectFollowRequest(userId: $o, requestId: 0) { state } }',
    (o) => ({ o }),
  ],
  [
    'approveFollower',
    'mutation($o: ID!, $f: ID!) { approveFollower(userId: $o, followerId: $f) { state } }',
    (o) => ({ o, f: '00000000-0000-0000-0000-000000000000' }),
  ],
  [
    'removeFollower',
    'mutation($o: ID!, $f: ID!) { removeFollower(userId: $o, followerId: $f) { state } }',
    (o) => ({ o, f: '00000000-0000-0000-0000-000000000000' }),
  ],
  [
    'updateFollowList',
    'mutation($o: ID!) { updateFollowList(userId: $o, listId: 0, name: "x") { id: databaseId } }',
    (o) => ({ o }),
  ],
  ['deleteFollowList', 'mutation($o: ID!) { deleteFollowList(userId: $o, listId: 0) { id } }', (o) => ({ o })],
  [
    'addFollowListMember',
    'mutation($o: ID!, $m: ID!) { addFollowListMember(userId: $o, listId: 0, memberId: $m) { isMember } }',
    (o) => ({ o, m: o }),
  ],
  [
    'removeFollowListMember',
    'mutation($o: ID!, $m: ID!) { removeFollowListMember(userId: $o, listId: 0, memberId: $m) { isMember } }',
    (o) => ({ o, m: o }),
  ],
  ['markNotificationsRead', 'mutation($o: ID!) { markNotificationsRead(userId: $o) { unreadCount } }', (o) => ({ o })],
];

describe('owner-only social operations', () => {
  it.each(OWNER_ONLY)('%s: only the owner passes', async (_name, query, vars) => {
    const got: Record<string, string | null> = {};
    for (const role of Object.keys(roles) as (keyof typeof roles)[])
      got[role] = code(await call(role, query, vars(owner.id)));
    expect(got.anonymous).toBe('UNAUTHENTICATED');
    for (const r of ['other', 'approved', 'legacy', 'pending'] as const) expect([r, got[r]]).toEqual([r, 'FORBIDDEN']);
    expect(['UNAUTHENTICATED', 'FORBIDDEN']).not.toContain(got.owner);
  });

  it('issueFollowInvite / createFollowList: only the owner', async () => {
    for (const q of [
      'mutation($o: ID!) { issueFollowInvite(userId: $o) { token } }',
      'mutation($o: ID!) { createFollowList(userId: $o, name: "n") { id: databaseId } }',
    ]) {
      expect(code(await call('anonymous', q, { o: owner.id }))).toBe('UNAUTHENTICATED');
      for (const r of ['other', 'approved', 'legacy', 'pending'] as const)
        expect(code(await call(r, q, { o: owner.id }))).toBe('FORBIDDEN');
      expect(code(await call('owner', q, { o: owner.id }))).toBeNull();
    }
  });

  it('every social root field of the schema has a rule', async () => {
    const { getSchema } = await import('../../../src/schema');
    const { RULES } = await import('../../../src/graphql/rules');
    const schema = await getSchema();
    const social = [
      'follow',
      'unfollow',
      'sendFollowRequest',
      'withdrawFollowRequest',
      'notificationAdded',
      'timelineEntryAdded',
      'resolveFollowInvite',
      ...OWNER_ONLY.map(([n]) => n),
    ];
    for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
      for (const f of Object.keys(root?.getFields() ?? {})) {
        if (social.includes(f))
          expect([`${root!.name}.${f}`, !!RULES[`${root!.name}.${f}`]]).toEqual([`${root!.name}.${f}`, true]);
      }
    }
  });
});

describe('the private owner’s data reaches only the owner and the approved follower', () => {
  it('profile (root VISIBLE rule)', async () => {
    const q = 'query($id: ID!) { user(id: $id) { id: databaseId } }';
    const got: Record<string, string | null> = {};
    for (const role of Object.keys(roles) as (keyof typeof roles)[])
      got[role] = code(await call(role, q, { id: owner.id }));
    expect(got).toEqual({
      anonymous: 'FORBIDDEN',
      other: 'FORBIDDEN',
      owner: null,
      approved: null,
      legacy: 'FORBIDDEN',
      pending: 'FORBIDDEN',
    });
  });

  it('reads of the other areas under the VISIBLE rule (GraphQL roots and REST paths)', async () => {
    const chart = String(
      (await s.db.prisma.chart.findFirstOrThrow({ where: { level: 12 }, orderBy: { id: 'asc' } })).id,
    );
    const reads: [string, Record<string, unknown>][] = [
      ['query($u: ID!) { userSongs(userId: $u, first: 1) { totalCount } }', { u: owner.id }],
      [
        'query($u: ID!, $c: ID!) { userSongRanking(userId: $u, chartId: $c, first: 1) { __typename } }',
        { u: owner.id, c: chart },
      ],
      [
        'query($u: ID!, $c: ID!) { userSimilarSongs(userId: $u, chartId: $c, limit: 1) { __typename } }',
        { u: owner.id, c: chart },
      ],
    ];
    for (const [q, vars] of reads) {
      const got: Record<string, string | null> = {};
      for (const role of Object.keys(roles) as (keyof typeof roles)[]) got[role] = code(await call(role, q, vars));
      const denied = Object.entries(got)
        .filter(([, c]) => c === 'FORBIDDEN' || c === 'UNAUTHENTICATED')
        .map(([r]) => r)
        .sort();
      expect([q, denied]).toEqual([q, ['anonymous', 'legacy', 'other', 'pending']]);
    }
    for (const path of [`/api/v1/users/${owner.id}/profile`, `/api/v1/users/${owner.id}/stats/recommended`]) {
      const status: Record<string, number> = {};
      for (const role of Object.keys(roles) as (keyof typeof roles)[]) {
        const u = roles[role];
        status[role] = (await s.get(path, u ? await s.tokenFor(u.id) : undefined)).status;
      }
      const denied = Object.entries(status)
        .filter(([, st]) => st === 401 || st === 403)
        .map(([r]) => r)
        .sort();
      expect([path, denied]).toEqual([path, ['anonymous', 'legacy', 'other', 'pending']]);
      expect([path, status.owner < 400, status.approved < 400]).toEqual([path, true, true]);
    }
  });

  it('timeline: the owner’s plays appear only in the approved follower’s feed (query and live entry)', async () => {
    for (const role of ['other', 'approved', 'legacy', 'pending'] as const) {
      const u = roles[role]!;
      const res = await call(role, 'query($o: ID!) { timeline(userId: $o) { edges { node { userId exScore } } } }', {
        o: u.id,
      });
      const fromOwner = res.body.data.timeline.edges.filter((e: any) => e.node.userId === owner.id);
      expect([role, fromOwner.length]).toEqual([role, role === 'approved' ? 1 : 0]);
      const live = await new TimelineService({ db: s.db.prisma, catalogue: s.app.catalogue }).entry(u.id, ownerPlayId);
      expect([role, live?.exScore ?? null]).toEqual([role, role === 'approved' ? 2000 : null]);
    }
  });

  it('OVERTAKEN notifications (with the owner’s score) only for the approved follower', async () => {
    for (const role of ['other', 'approved', 'legacy', 'pending'] as const) {
      const u = roles[role]!;
      const res = await call(
        role,
        'query($o: ID!) { notifications(userId: $o, type: OVERTAKEN) { edges { node { actorId actorExScore } } } unreadNotificationCount(userId: $o) }',
        { o: u.id },
      );
      const n = res.body.data.notifications.edges.map((e: any) => e.node);
      expect([role, n]).toEqual([role, role === 'approved' ? [{ actorId: owner.id, actorExScore: 2000 }] : []]);
      expect([role, res.body.data.unreadNotificationCount]).toEqual([role, role === 'approved' ? 1 : 0]);
    }
    // the legacy follower has no OVERTAKEN row at all (not only filtered)
    expect(await s.db.prisma.notification.count({ where: { recipientId: roles.legacy!.id, type: 'OVERTAKEN' } })).toBe(
      0,
    );
  });

  it('nested users: a followee the viewer may not see is null / masked', async () => {
    const legacy = await call(
      'legacy',
      'query($o: ID!) { followingWithLists(userId: $o) { edges { node { userId state user { id: databaseId } } } } }',
      { o: roles.legacy!.id },
    );
    expect(legacy.body.data.followingWithLists.edges.map((e: any) => e.node)).toEqual([
      { userId: owner.id, state: 'LEGACY_FOLLOWER', user: null },
    ]);
    const approved = await call(
      'approved',
      'query($o: ID!) { followingWithLists(userId: $o) { edges { node { userId state user { id: databaseId } } } } }',
      { o: roles.approved!.id },
    );
    expect(approved.body.data.followingWithLists.edges.map((e: any) => e.node)).toEqual([
      { userId: owner.id, state: 'APPROVED_FOLLOWER', user: { id: owner.id } },
    ]);
  });

  it('follow / invitation answers carry ids and flags only', async () => {
    for (const role of ['other', 'legacy', 'pending'] as const) {
      const res = await call(role, 'mutation($u: ID!) { follow(userId: $u) { state changed } }', { u: owner.id });
      // a legacy follower already follows: a no-op that grants nothing; the others are refused
      if (role === 'legacy') expect(res.body.data.follow).toEqual({ state: 'LEGACY_FOLLOWER', changed: false });
      else expect(code(res)).toBe('FORBIDDEN');
    }
    const { token } = (
      await call('owner', 'mutation($o: ID!) { issueFollowInvite(userId: $o) { token } }', { o: owner.id })
    ).body.data.issueFollowInvite;
    const q =
      'query($t: String!) { resolveFollowInvite(token: $t) { inviterId isFollowing hasPendingRequest inviter { isMasked } } }';
    const expected = {
      anonymous: { isFollowing: false, hasPendingRequest: false, isMasked: true },
      other: { isFollowing: false, hasPendingRequest: false, isMasked: true },
      approved: { isFollowing: true, hasPendingRequest: false, isMasked: false },
      legacy: { isFollowing: false, hasPendingRequest: false, isMasked: true },
      pending: { isFollowing: false, hasPendingRequest: true, isMasked: true },
    };
    for (const [role, want] of Object.entries(expected)) {
      const r = (await call(role as keyof typeof roles, q, { t: token })).body.data.resolveFollowInvite;
      expect([
        role,
        { isFollowing: r.isFollowing, hasPendingRequest: r.hasPendingRequest, isMasked: r.inviter.isMasked },
      ]).toEqual([role, want]);
      expect(r.inviterId).toBe(owner.id);
    }
  });
});
