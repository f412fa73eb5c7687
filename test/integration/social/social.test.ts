import { toGlobalId } from '../../../src/graphql/global-id';
import type { User } from '../../../src/generated/prisma/client';
import { onScoresImported } from '../../../src/modules/social/social.events';
import { aPrivatePlayer, aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let chartIds: number[];
beforeAll(async () => {
  s = await startTestServer();
  chartIds = (await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 5, select: { id: true } })).map(
    (c) => c.id,
  );
});
afterAll(() => s.close());

const errorCode = (res: { body: { errors?: any[] } }) => res.body.errors?.[0]?.extensions?.code;

async function as(user: User | null, query: string, variables: Record<string, unknown> = {}) {
  return s.gql(query, variables, user ? await s.tokenFor(user.id) : undefined);
}
async function ok<T = any>(user: User | null, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return expectNoErrors(await as(user, query, variables)) as T;
}

const FOLLOW = 'mutation($u: ID!) { follow(userId: $u) { followerId followingId state pendingRequest } }';
const UNFOLLOW = 'mutation($u: ID!) { unfollow(userId: $u) { state pendingRequest } }';
const FOLLOW_CHANGED = 'mutation($u: ID!) { follow(userId: $u) { state changed } }';
const UNFOLLOW_CHANGED = 'mutation($u: ID!) { unfollow(userId: $u) { state pendingRequest changed } }';
const ISSUE = 'mutation($o: ID!) { issueFollowInvite(userId: $o) { token createdAt } }';
const SEND = 'mutation($t: String!) { sendFollowRequest(token: $t) { status targetId state } }';
const WITHDRAW = 'mutation($u: ID!) { withdrawFollowRequest(userId: $u) { state pendingRequest } }';
const INCOMING =
  'query($o: ID!) { incomingFollowRequests(userId: $o) { totalCount edges { node { kind requestId requesterId requester { id: databaseId name } } } } }';
const APPROVE =
  'mutation($o: ID!, $r: ID!) { approveFollowRequest(userId: $o, requestId: $r) { followerId state pendingRequest } }';
const REJECT = 'mutation($o: ID!, $r: ID!) { rejectFollowRequest(userId: $o, requestId: $r) { state } }';
const APPROVE_FOLLOWER = 'mutation($o: ID!, $f: ID!) { approveFollower(userId: $o, followerId: $f) { state } }';
const REMOVE_FOLLOWER =
  'mutation($o: ID!, $f: ID!) { removeFollower(userId: $o, followerId: $f) { state pendingRequest } }';
const NOTIFS =
  'query($o: ID!, $type: NotificationType, $first: Int, $after: String) { notifications(userId: $o, type: $type, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id type read actorId actor { id: databaseId } chartId actorExScore myExScore } } } }';
const UNREAD = 'query($o: ID!) { unreadNotificationCount(userId: $o) }';
const MARK_READ = 'mutation($o: ID!) { markNotificationsRead(userId: $o) { unreadCount lastReadAt } }';
const TIMELINE =
  'query($o: ID!, $mode: TimelineMode, $first: Int, $after: String) { timeline(userId: $o, mode: $mode, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id userId chartId exScore previousExScore diffExScore previousBpi clearLamp isOvertaken viewerScore { exScore diffExScore } user { id: databaseId } chart { id: databaseId } } } } }';

async function notificationTypes(user: User): Promise<string[]> {
  const d = await ok(user, NOTIFS, { o: user.id });
  return d.notifications.edges.map((e: any) => e.node.type);
}

/** Invite → request (helper): returns the request id on the owner's side. */
async function requestVia(owner: User, requester: User): Promise<number> {
  const { issueFollowInvite } = await ok(owner, ISSUE, { o: owner.id });
  const sent = await ok(requester, SEND, { t: issueFollowInvite.token });
  expect(sent.sendFollowRequest).toEqual({ status: 'REQUESTED', targetId: owner.id, state: expect.any(String) });
  const row = await s.db.prisma.followRequest.findUniqueOrThrow({
    where: { requesterId_targetId: { requesterId: requester.id, targetId: owner.id } },
  });
  return row.id;
}

describe('public follow / unfollow', () => {
  it('follows a public player at once, notifies them, emits social.followed; illegal repeats are clear errors', async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const b = await aPublicPlayer(s.db.prisma);
    const events: unknown[] = [];
    s.app.events.on('social.followed', (e) => {
      if (e.followerId === a.id) events.push(e);
    });
    const d = await ok(a, FOLLOW, { u: b.id });
    expect(d.follow).toEqual({ followerId: a.id, followingId: b.id, state: 'FOLLOWING', pendingRequest: false });
    expect(events).toEqual([{ followerId: a.id, followingId: b.id, approved: false }]);
    expect(await notificationTypes(b)).toEqual(['NEW_FOLLOWER']);

    // following again succeeds and changes nothing: no second row, no second notification, no event
    expect((await ok(a, FOLLOW_CHANGED, { u: b.id })).follow).toEqual({ state: 'FOLLOWING', changed: false });
    expect(await s.db.prisma.follow.count({ where: { followerId: a.id, followingId: b.id } })).toBe(1);
    expect(await notificationTypes(b)).toEqual(['NEW_FOLLOWER']);
    expect(events).toHaveLength(1);
    expect(errorCode(await as(a, FOLLOW, { u: a.id }))).toBe('BAD_USER_INPUT');
    expect(errorCode(await as(null, FOLLOW, { u: b.id }))).toBe('UNAUTHENTICATED');
    expect(errorCode(await as(a, FOLLOW, { u: '00000000-0000-0000-0000-000000000000' }))).toBe('NOT_FOUND');

    expect((await ok(a, UNFOLLOW, { u: b.id })).unfollow).toEqual({ state: 'NONE', pendingRequest: false });
    expect(await s.db.prisma.follow.count({ where: { followerId: a.id } })).toBe(0);
    expect(await notificationTypes(b)).toEqual([]); // the new-follower item goes with the follow
    // unfollowing someone not followed succeeds and changes nothing
    expect((await ok(a, UNFOLLOW_CHANGED, { u: b.id })).unfollow).toEqual({
      state: 'NONE',
      pendingRequest: false,
      changed: false,
    });
    expect(await s.db.prisma.follow.count({ where: { followerId: a.id } })).toBe(0);
  });

  it('refuses a direct follow of a private player (FORBIDDEN)', async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const p = await aPrivatePlayer(s.db.prisma);
    const res = await as(a, FOLLOW, { u: p.id });
    expect(errorCode(res)).toBe('FORBIDDEN');
    expect(await s.db.prisma.follow.count({ where: { followerId: a.id } })).toBe(0);
  });

  it('a public player’s invitation is a follow, idempotent', async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const b = await aPublicPlayer(s.db.prisma);
    const { issueFollowInvite } = await ok(b, ISSUE, { o: b.id });
    expect((await ok(a, SEND, { t: issueFollowInvite.token })).sendFollowRequest).toEqual({
      status: 'FOLLOWED',
      targetId: b.id,
      state: 'FOLLOWING',
    });
    expect((await ok(a, SEND, { t: issueFollowInvite.token })).sendFollowRequest.status).toBe('FOLLOWED');
    expect(await s.db.prisma.follow.count({ where: { followerId: a.id, followingId: b.id } })).toBe(1);
    expect(errorCode(await as(b, SEND, { t: issueFollowInvite.token }))).toBe('BAD_USER_INPUT'); // own invitation
  });
});

describe('invitations', () => {
  it('stores only a hash, shows the token once, reissue kills the old one, resolves publicly', async () => {
    const p = await aPrivatePlayer(s.db.prisma);
    const other = await aPublicPlayer(s.db.prisma);
    expect(
      (await ok(p, 'query($o: ID!) { followInvite(userId: $o) { exists createdAt } }', { o: p.id })).followInvite,
    ).toEqual({ exists: false, createdAt: null });
    const first = (await ok(p, ISSUE, { o: p.id })).issueFollowInvite;
    expect(first.token).toMatch(/^[0-9a-f]{32}$/);
    const stored = await s.db.prisma.followInviteToken.findUniqueOrThrow({ where: { userId: p.id } });
    expect(stored.tokenHash).not.toContain(first.token);
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const status = (await ok(p, 'query($o: ID!) { followInvite(userId: $o) { exists createdAt } }', { o: p.id }))
      .followInvite;
    expect(status).toEqual({ exists: true, createdAt: first.createdAt });

    const RESOLVE =
      'query($t: String!) { resolveFollowInvite(token: $t) { type inviterId isSelf isFollowing hasPendingRequest inviter { id: databaseId } } }';
    expect((await ok(null, RESOLVE, { t: first.token })).resolveFollowInvite).toEqual({
      type: 'follow',
      inviterId: p.id,
      isSelf: false,
      isFollowing: false,
      hasPendingRequest: false,
      inviter: { id: p.id },
    });
    expect((await ok(p, RESOLVE, { t: first.token })).resolveFollowInvite.isSelf).toBe(true);

    const second = (await ok(p, ISSUE, { o: p.id })).issueFollowInvite;
    expect(second.token).not.toBe(first.token);
    expect(errorCode(await as(null, RESOLVE, { t: first.token }))).toBe('NOT_FOUND');
    expect(errorCode(await as(other, SEND, { t: first.token }))).toBe('NOT_FOUND');
    expect(errorCode(await as(null, RESOLVE, { t: 'not-a-token' }))).toBe('BAD_USER_INPUT');
    await ok(other, SEND, { t: second.token });
    expect((await ok(other, RESOLVE, { t: second.token })).resolveFollowInvite).toMatchObject({
      isFollowing: false,
      hasPendingRequest: true,
    });
  });
});

describe('invitations: the owner sees the working link again (sealed token, issue #17 item 8)', () => {
  const STATUS = 'query($o: ID!) { followInvite(userId: $o) { exists createdAt token } }';
  it('followInvite gives back the current token; the row holds only its hash and a sealed copy bound to the owner', async () => {
    const p = await aPrivatePlayer(s.db.prisma);
    const q = await aPrivatePlayer(s.db.prisma);
    const other = await aPublicPlayer(s.db.prisma);
    expect((await ok(p, STATUS, { o: p.id })).followInvite).toEqual({ exists: false, createdAt: null, token: null });
    const first = (await ok(p, ISSUE, { o: p.id })).issueFollowInvite;
    expect((await ok(p, STATUS, { o: p.id })).followInvite).toEqual({
      exists: true,
      createdAt: first.createdAt,
      token: first.token,
    });
    const row = await s.db.prisma.followInviteToken.findUniqueOrThrow({ where: { userId: p.id } });
    expect(row.tokenSealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(row.tokenSealed).not.toContain(first.token);
    // the shown token works
    await ok(other, SEND, { t: first.token });
    expect(await s.db.prisma.followRequest.count({ where: { requesterId: other.id, targetId: p.id } })).toBe(1);
    // only the owner may ask (OWNER rule)
    expect(errorCode(await as(other, STATUS, { o: p.id }))).toBe('FORBIDDEN');
    // a reissue: the status shows the new token, the old one stops working
    const second = (await ok(p, ISSUE, { o: p.id })).issueFollowInvite;
    expect((await ok(p, STATUS, { o: p.id })).followInvite.token).toBe(second.token);
    expect(
      errorCode(
        await as(null, 'query($t: String!) { resolveFollowInvite(token: $t) { inviterId } }', { t: first.token }),
      ),
    ).toBe('NOT_FOUND');
    // a sealed copy moved to another owner's row does not open there (the owner id is bound in)
    await ok(q, ISSUE, { o: q.id });
    await s.db.prisma.followInviteToken.update({
      where: { userId: q.id },
      data: {
        tokenSealed: (await s.db.prisma.followInviteToken.findUniqueOrThrow({ where: { userId: p.id } })).tokenSealed,
      },
    });
    expect((await ok(q, STATUS, { o: q.id })).followInvite).toMatchObject({ exists: true, token: null });
    // a token issued before sealing (no sealed copy): exists, but cannot be shown — reissue
    await s.db.prisma.followInviteToken.update({ where: { userId: p.id }, data: { tokenSealed: null } });
    expect((await ok(p, STATUS, { o: p.id })).followInvite).toMatchObject({ exists: true, token: null });
  });
});

describe('invitation resolving is rate limited per client IP', () => {
  it('answers RATE_LIMITED with retryAfter past 30 a minute', async () => {
    const p = await aPrivatePlayer(s.db.prisma);
    const { token } = (await ok(p, ISSUE, { o: p.id })).issueFollowInvite;
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 31; i++)
      codes.push(
        errorCode(await as(null, 'query($t: String!) { resolveFollowInvite(token: $t) { inviterId } }', { t: token })),
      );
    expect(codes.filter((c) => c === 'RATE_LIMITED').length).toBeGreaterThanOrEqual(1);
    expect(codes[0]).toBeUndefined();
    const limited = await as(null, 'query($t: String!) { resolveFollowInvite(token: $t) { inviterId } }', { t: token });
    expect(errorCode(limited)).toBe('RATE_LIMITED');
    expect(limited.body.errors![0].extensions.retryAfter).toBeGreaterThan(0);
  });
});

describe('private players: request → approve / reject / withdraw', () => {
  it('walks invite → request → withdraw → request → reject → request → approve', async () => {
    const owner = await aPrivatePlayer(s.db.prisma);
    const f = await aPublicPlayer(s.db.prisma);
    const events: any[] = [];
    s.app.events.on('social.followed', (e) => {
      if (e.followingId === owner.id) events.push(e);
    });

    // request (idempotent), owner notified once
    let rid = await requestVia(owner, f);
    const token = (await ok(owner, ISSUE, { o: owner.id })).issueFollowInvite.token;
    expect((await ok(f, SEND, { t: token })).sendFollowRequest).toEqual({
      status: 'REQUESTED',
      targetId: owner.id,
      state: 'REQUESTED',
    });
    expect(await s.db.prisma.followRequest.count({ where: { requesterId: f.id } })).toBe(1);
    expect(await notificationTypes(owner)).toEqual(['FOLLOW_REQUEST']);
    const out = await ok(
      f,
      'query($o: ID!) { outgoingFollowRequests(userId: $o) { totalCount edges { node { id targetId target { id: databaseId } } } } }',
      { o: f.id },
    );
    expect(out.outgoingFollowRequests.edges.map((e: any) => e.node)).toEqual([
      { id: rid, targetId: owner.id, target: { id: owner.id } },
    ]);
    const inc = await ok(owner, INCOMING, { o: owner.id });
    expect(inc.incomingFollowRequests.edges.map((e: any) => e.node)).toEqual([
      { kind: 'REQUEST', requestId: rid, requesterId: f.id, requester: { id: f.id, name: f.name } },
    ]);

    // withdraw (the owner's request notification goes with it)
    expect((await ok(f, WITHDRAW, { u: owner.id })).withdrawFollowRequest).toEqual({
      state: 'NONE',
      pendingRequest: false,
    });
    expect(await notificationTypes(owner)).toEqual([]);
    expect(errorCode(await as(f, WITHDRAW, { u: owner.id }))).toBe('CONFLICT');
    expect(errorCode(await as(owner, APPROVE, { o: owner.id, r: rid }))).toBe('NOT_FOUND');

    // reject: silent
    rid = await requestVia(owner, f);
    expect((await ok(owner, REJECT, { o: owner.id, r: rid })).rejectFollowRequest).toEqual({ state: 'NONE' });
    expect(await notificationTypes(f)).toEqual([]);
    expect(errorCode(await as(owner, REJECT, { o: owner.id, r: rid }))).toBe('NOT_FOUND');

    // approve
    rid = await requestVia(owner, f);
    const other = await aPrivatePlayer(s.db.prisma);
    expect(errorCode(await as(other, APPROVE, { o: other.id, r: rid }))).toBe('NOT_FOUND'); // not their request
    expect((await ok(owner, APPROVE, { o: owner.id, r: rid })).approveFollowRequest).toEqual({
      followerId: f.id,
      state: 'APPROVED_FOLLOWER',
      pendingRequest: false,
    });
    const row = await s.db.prisma.follow.findUniqueOrThrow({
      where: { followerId_followingId: { followerId: f.id, followingId: owner.id } },
    });
    expect(row.approvedAt).toBeInstanceOf(Date);
    expect(await s.db.prisma.followRequest.count({ where: { requesterId: f.id } })).toBe(0);
    const fn = (await ok(f, NOTIFS, { o: f.id })).notifications.edges.map((e: any) => e.node);
    expect(fn).toEqual([
      expect.objectContaining({ type: 'FOLLOW_APPROVED', actorId: owner.id, actor: { id: owner.id } }),
    ]);
    expect(events).toEqual([{ followerId: f.id, followingId: owner.id, approved: true }]);
    // approved: the invitation says so; following again changes nothing (the approval stays)
    const fresh = (await ok(owner, ISSUE, { o: owner.id })).issueFollowInvite.token;
    expect((await ok(f, SEND, { t: fresh })).sendFollowRequest).toEqual({
      status: 'FOLLOWED',
      targetId: owner.id,
      state: 'APPROVED_FOLLOWER',
    });
    expect((await ok(f, FOLLOW_CHANGED, { u: owner.id })).follow).toEqual({
      state: 'APPROVED_FOLLOWER',
      changed: false,
    });
    // the approved follower sees the private profile
    expect((await ok(f, 'query($id: ID!) { user(id: $id) { id: databaseId } }', { id: owner.id })).user).toEqual({
      id: owner.id,
    });
  });

  it('legacy followers: listed while private, retro-approval, force-removal cleans lists; unfollow revokes approval', async () => {
    const owner = await aPublicPlayer(s.db.prisma);
    const f = await aPublicPlayer(s.db.prisma);
    await ok(f, FOLLOW, { u: owner.id });
    const list = (
      await ok(f, 'mutation($o: ID!) { createFollowList(userId: $o, name: "rivals") { id: databaseId } }', { o: f.id })
    ).createFollowList;
    await ok(
      f,
      'mutation($o: ID!, $l: ID!, $m: ID!) { addFollowListMember(userId: $o, listId: $l, memberId: $m) { isMember } }',
      { o: f.id, l: list.id, m: owner.id },
    );

    // public → private: f becomes a legacy follower without access
    await s.db.prisma.user.update({ where: { id: owner.id }, data: { isPublic: false } });
    let inc = (await ok(owner, INCOMING, { o: owner.id })).incomingFollowRequests;
    expect(inc.totalCount).toBe(1);
    expect(inc.edges[0].node).toMatchObject({ kind: 'LEGACY', requestId: null, requesterId: f.id });
    expect(errorCode(await as(f, 'query($id: ID!) { user(id: $id) { id: databaseId } }', { id: owner.id }))).toBe(
      'FORBIDDEN',
    );
    const fl = (
      await ok(
        f,
        'query($o: ID!) { followingWithLists(userId: $o) { edges { node { userId state listIds user { id: databaseId } } } } }',
        { o: f.id },
      )
    ).followingWithLists;
    expect(fl.edges.map((e: any) => e.node)).toEqual([
      { userId: owner.id, state: 'LEGACY_FOLLOWER', listIds: [list.id], user: null },
    ]);

    // a legacy follower with a request appears once, as REQUEST
    await requestVia(owner, f);
    inc = (await ok(owner, INCOMING, { o: owner.id })).incomingFollowRequests;
    expect(inc.edges.map((e: any) => e.node.kind)).toEqual(['REQUEST']);

    // retro-approval (also withdraws the request), notifies; twice is a conflict
    expect((await ok(owner, APPROVE_FOLLOWER, { o: owner.id, f: f.id })).approveFollower).toEqual({
      state: 'APPROVED_FOLLOWER',
    });
    expect(await s.db.prisma.followRequest.count({ where: { requesterId: f.id } })).toBe(0);
    expect(await notificationTypes(f)).toContain('FOLLOW_APPROVED');
    expect(errorCode(await as(owner, APPROVE_FOLLOWER, { o: owner.id, f: f.id }))).toBe('CONFLICT');
    expect((await ok(owner, INCOMING, { o: owner.id })).incomingFollowRequests.totalCount).toBe(0);

    // force-removal: follow + approval gone, owner removed from f's lists, not a block
    expect((await ok(owner, REMOVE_FOLLOWER, { o: owner.id, f: f.id })).removeFollower).toEqual({
      state: 'NONE',
      pendingRequest: false,
    });
    expect(await s.db.prisma.followListMember.count({ where: { listId: list.id } })).toBe(0);
    expect(errorCode(await as(owner, REMOVE_FOLLOWER, { o: owner.id, f: f.id }))).toBe('NOT_FOUND');
    expect(errorCode(await as(owner, APPROVE_FOLLOWER, { o: owner.id, f: f.id }))).toBe('NOT_FOUND');
    await requestVia(owner, f);

    // unfollow by a legacy follower works and leaves nothing that could re-grant access
    const g = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, g, owner, { approved: false });
    expect((await ok(g, UNFOLLOW, { u: owner.id })).unfollow.state).toBe('NONE');
    const h = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, h, owner, { approved: true });
    await ok(h, UNFOLLOW, { u: owner.id });
    await s.db.prisma.user.update({ where: { id: owner.id }, data: { isPublic: true } });
    await ok(h, FOLLOW, { u: owner.id });
    await s.db.prisma.user.update({ where: { id: owner.id }, data: { isPublic: false } });
    expect(errorCode(await as(h, 'query($id: ID!) { user(id: $id) { id: databaseId } }', { id: owner.id }))).toBe(
      'FORBIDDEN',
    );
  });
});

describe('follow lists', () => {
  it('create / rename / visibility / delete, members must be followed, unfollow cleans memberships', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const b = await aPublicPlayer(s.db.prisma);
    const c = await aPublicPlayer(s.db.prisma);
    const other = await aPublicPlayer(s.db.prisma);
    const CREATE =
      'mutation($o: ID!, $n: String!, $p: Boolean) { createFollowList(userId: $o, name: $n, isPublic: $p) { id: databaseId name isPublic memberCount } }';
    const created = (await ok(me, CREATE, { o: me.id, n: '  friends  ' })).createFollowList;
    expect(created).toMatchObject({ name: 'friends', isPublic: false, memberCount: 0 });
    expect(errorCode(await as(me, CREATE, { o: me.id, n: '   ' }))).toBe('BAD_USER_INPUT');
    expect(errorCode(await as(me, CREATE, { o: me.id, n: 'x'.repeat(51) }))).toBe('BAD_USER_INPUT');
    expect((await ok(me, CREATE, { o: me.id, n: 'y'.repeat(50), p: true })).createFollowList.isPublic).toBe(true);

    const UPDATE =
      'mutation($o: ID!, $l: ID!, $n: String, $p: Boolean) { updateFollowList(userId: $o, listId: $l, name: $n, isPublic: $p) { id: databaseId name isPublic } }';
    expect((await ok(me, UPDATE, { o: me.id, l: created.id, n: 'rivals' })).updateFollowList).toEqual({
      id: created.id,
      name: 'rivals',
      isPublic: false,
    });
    expect((await ok(me, UPDATE, { o: me.id, l: created.id, p: true })).updateFollowList.isPublic).toBe(true);
    expect(errorCode(await as(me, UPDATE, { o: me.id, l: created.id }))).toBe('BAD_USER_INPUT');
    expect(errorCode(await as(other, UPDATE, { o: other.id, l: created.id, n: 'mine' }))).toBe('NOT_FOUND');

    const ADD =
      'mutation($o: ID!, $l: ID!, $m: ID!) { addFollowListMember(userId: $o, listId: $l, memberId: $m) { listId userId isMember } }';
    const REMOVE =
      'mutation($o: ID!, $l: ID!, $m: ID!) { removeFollowListMember(userId: $o, listId: $l, memberId: $m) { isMember } }';
    expect(errorCode(await as(me, ADD, { o: me.id, l: created.id, m: b.id }))).toBe('BAD_USER_INPUT');
    await ok(me, FOLLOW, { u: b.id });
    await ok(me, FOLLOW, { u: c.id });
    expect((await ok(me, ADD, { o: me.id, l: created.id, m: b.id })).addFollowListMember).toEqual({
      listId: created.id,
      userId: b.id,
      isMember: true,
    });
    await ok(me, ADD, { o: me.id, l: created.id, m: b.id }); // idempotent
    await ok(me, ADD, { o: me.id, l: created.id, m: c.id });
    expect(errorCode(await as(other, ADD, { o: other.id, l: created.id, m: b.id }))).toBe('NOT_FOUND');

    const lists = (
      await ok(me, 'query($o: ID!) { followLists(userId: $o) { id: databaseId name memberCount } }', { o: me.id })
    ).followLists;
    expect(lists[0]).toEqual({ id: created.id, name: 'rivals', memberCount: 2 });
    const fl = (
      await ok(
        me,
        'query($o: ID!) { followingWithLists(userId: $o) { totalCount edges { node { userId listIds } } } }',
        { o: me.id },
      )
    ).followingWithLists;
    expect(fl.totalCount).toBe(2);
    expect(fl.edges.map((e: any) => e.node)).toEqual(
      expect.arrayContaining([
        { userId: b.id, listIds: [created.id] },
        { userId: c.id, listIds: [created.id] },
      ]),
    );

    expect((await ok(me, REMOVE, { o: me.id, l: created.id, m: c.id })).removeFollowListMember.isMember).toBe(false);
    await ok(me, ADD, { o: me.id, l: created.id, m: c.id });
    await ok(me, UNFOLLOW, { u: b.id });
    expect(
      await s.db.prisma.followListMember.findMany({ where: { listId: created.id }, select: { userId: true } }),
    ).toEqual([{ userId: c.id }]);

    const DELETE = 'mutation($o: ID!, $l: ID!) { deleteFollowList(userId: $o, listId: $l) { id deleted } }';
    expect(errorCode(await as(other, DELETE, { o: other.id, l: created.id }))).toBe('NOT_FOUND');
    expect((await ok(me, DELETE, { o: me.id, l: created.id })).deleteFollowList).toEqual({
      id: toGlobalId('FollowList', created.id),
      deleted: true,
    });
    expect(await s.db.prisma.followListMember.count({ where: { listId: created.id } })).toBe(0);
  });
});

describe('follow lists mask private members completely', () => {
  it('a private member the viewer may not see has no id, name or data in followers / following (reference: userId "")', async () => {
    const hub = await aPublicPlayer(s.db.prisma);
    const priv = await aPrivatePlayer(s.db.prisma);
    const pub = await aPublicPlayer(s.db.prisma);
    const approved = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, priv, hub); // priv follows hub
    await follows(s.db.prisma, hub, priv, { approved: false }); // hub follows priv (legacy: hub may not see priv)
    await follows(s.db.prisma, pub, hub);
    await follows(s.db.prisma, approved, priv, { approved: true });
    const Q = `query($h: ID!) { user(id: $h) {
      followers(first: 10) { totalCount edges { followedAt node { id name isMasked isPublic createdAt profileText relationship { isFollowing isFollowedBy } } } }
      following(first: 10) { totalCount edges { node { id name isMasked } } } } }`;
    for (const viewer of [null, pub, hub]) {
      const res = await as(viewer, Q, { h: hub.id });
      const body = JSON.stringify(res.body);
      expect(body).not.toContain(priv.id); // nowhere: not as id, not in a cursor
      expect(body).not.toContain(priv.name);
      const u = res.body.data.user;
      expect(u.followers.totalCount).toBe(2); // the masked member still counts
      const masked = u.followers.edges.map((e: any) => e.node).filter((n: any) => n.isMasked);
      expect(masked).toEqual([
        {
          id: expect.any(String),
          name: '非公開ユーザー',
          isMasked: true,
          isPublic: false,
          createdAt: new Date(0).toISOString(),
          profileText: null,
          relationship: { isFollowing: false, isFollowedBy: false },
        },
      ]);
      expect(u.following.edges.map((e: any) => e.node)).toEqual([
        { id: expect.any(String), name: '非公開ユーザー', isMasked: true },
      ]);
    }
    // two requests: two different stand-in ids (nothing to correlate)
    const a = (await as(null, Q, { h: hub.id })).body.data.user.following.edges[0].node.id;
    const b = (await as(null, Q, { h: hub.id })).body.data.user.following.edges[0].node.id;
    expect(a).not.toBe(b);
    // an approved follower of priv, and priv themself, see the member
    for (const viewer of [approved, priv]) {
      const u = (await ok(viewer, Q, { h: hub.id })).user;
      expect(u.followers.edges.map((e: any) => e.node.id)).toEqual(
        expect.arrayContaining([toGlobalId('User', priv.id)]),
      );
      expect(u.following.edges.map((e: any) => e.node)).toEqual([
        { id: toGlobalId('User', priv.id), name: priv.name, isMasked: false },
      ]);
    }
  });
});

describe('notifications', () => {
  it('unread count follows the watermark; type filter; cursor pages', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const fans = await Promise.all([1, 2, 3].map(() => aPublicPlayer(s.db.prisma)));
    for (const f of fans) await ok(f, FOLLOW, { u: me.id });
    expect((await ok(me, UNREAD, { o: me.id })).unreadNotificationCount).toBe(3);

    s.sql.reset();
    await ok(me, UNREAD, { o: me.id });
    expect(s.sql.statements.filter((q) => /"Notification"/.test(q))).toHaveLength(1);

    const read = (await ok(me, MARK_READ, { o: me.id })).markNotificationsRead;
    expect(read.unreadCount).toBe(0);
    expect((await ok(me, UNREAD, { o: me.id })).unreadNotificationCount).toBe(0);
    const p1 = (await ok(me, NOTIFS, { o: me.id, first: 2 })).notifications;
    expect(p1.totalCount).toBe(3);
    expect(p1.edges.every((e: any) => e.node.read)).toBe(true);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    const p2 = (await ok(me, NOTIFS, { o: me.id, first: 2, after: p1.pageInfo.endCursor })).notifications;
    expect(p2.pageInfo.hasNextPage).toBe(false);
    const actors = [...p1.edges, ...p2.edges].map((e: any) => e.node.actorId);
    expect(new Set(actors)).toEqual(new Set(fans.map((f) => f.id)));
    expect(actors).toEqual(fans.map((f) => f.id).reverse()); // newest first

    const late = await aPublicPlayer(s.db.prisma);
    await ok(late, FOLLOW, { u: me.id });
    expect((await ok(me, UNREAD, { o: me.id })).unreadNotificationCount).toBe(1);
    const latest = (await ok(me, NOTIFS, { o: me.id, first: 1 })).notifications.edges[0].node;
    expect(latest).toMatchObject({ actorId: late.id, read: false });
    expect((await ok(me, NOTIFS, { o: me.id, type: 'OVERTAKEN' })).notifications.totalCount).toBe(0);
    expect((await ok(me, NOTIFS, { o: me.id, type: 'NEW_FOLLOWER' })).notifications.totalCount).toBe(4);
    expect(errorCode(await as(me, NOTIFS, { o: me.id, after: 'garbage' }))).toBe('BAD_USER_INPUT');
  });

  it('the badge counts what the reference counts: unread notifications + pending requests + legacy followers, broken out', async () => {
    const SUMMARY =
      'query($o: ID!) { unreadNotificationSummary(userId: $o) { total notifications newFollowers overtaken followApproved pendingRequests legacyFollowers } }';
    const owner = await aPublicPlayer(s.db.prisma);
    const fan = await aPublicPlayer(s.db.prisma);
    const legacyReq = await aPublicPlayer(s.db.prisma);
    const req = await aPublicPlayer(s.db.prisma);
    await ok(fan, FOLLOW, { u: owner.id }); // NEW_FOLLOWER item (owner public)
    await s.db.prisma.user.update({ where: { id: owner.id }, data: { isPublic: false } }); // fan: legacy follower now
    await follows(s.db.prisma, legacyReq, owner, { approved: false }); // legacy follower …
    await requestVia(owner, legacyReq); // … with a pending request: counted once, as a request
    await requestVia(owner, req); // a plain pending request
    // notifications: 1 NEW_FOLLOWER (the FOLLOW_REQUEST items are counted as the requests themselves);
    // pendingRequests: legacyReq + req = 2; legacyFollowers: fan = 1 (legacyReq has a request) → 1 + 2 + 1 = 4
    const before = (await ok(owner, SUMMARY, { o: owner.id })).unreadNotificationSummary;
    expect(before).toEqual({
      total: 4,
      notifications: 1,
      newFollowers: 1,
      overtaken: 0,
      followApproved: 0,
      pendingRequests: 2,
      legacyFollowers: 1,
    });
    expect((await ok(owner, UNREAD, { o: owner.id })).unreadNotificationCount).toBe(4);
    // the count is the same number as incomingFollowRequests' list (2 requests + 1 legacy)
    expect((await ok(owner, INCOMING, { o: owner.id })).incomingFollowRequests.totalCount).toBe(3);
    // marking read clears the notifications only: 4 − 1 = 3
    expect((await ok(owner, MARK_READ, { o: owner.id })).markNotificationsRead.unreadCount).toBe(3);
    // acting on them clears the rest: approve req (pending 2 → 1), retro-approve fan (legacy 1 → 0)
    const rid = (
      await s.db.prisma.followRequest.findUniqueOrThrow({
        where: { requesterId_targetId: { requesterId: req.id, targetId: owner.id } },
      })
    ).id;
    await ok(owner, APPROVE, { o: owner.id, r: rid });
    await ok(owner, APPROVE_FOLLOWER, { o: owner.id, f: fan.id });
    expect((await ok(owner, SUMMARY, { o: owner.id })).unreadNotificationSummary).toMatchObject({
      total: 1,
      notifications: 0,
      pendingRequests: 1,
      legacyFollowers: 0,
    });
    // the approved follower's side: one FOLLOW_APPROVED item
    expect((await ok(fan, SUMMARY, { o: fan.id })).unreadNotificationSummary).toMatchObject({
      total: 1,
      notifications: 1,
      followApproved: 1,
    });
  });

  it('OVERTAKEN: followers the importer passed (and may see), from the scores.imported event', async () => {
    const rival = await aPublicPlayer(s.db.prisma);
    const passed = await aPublicPlayer(s.db.prisma); // 900 → passed by 950
    const ahead = await aPublicPlayer(s.db.prisma); // 1000: still ahead
    const already = await aPublicPlayer(s.db.prisma); // 850: was already below the previous best 880
    const [chart] = chartIds;
    for (const u of [passed, ahead, already]) await follows(s.db.prisma, u, rival);
    await aScoreImport(s.db.prisma, passed, [{ chartId: chart, exScore: 900 }]);
    await aScoreImport(s.db.prisma, ahead, [{ chartId: chart, exScore: 1000 }]);
    await aScoreImport(s.db.prisma, already, [{ chartId: chart, exScore: 850 }]);
    await aScoreImport(s.db.prisma, rival, [{ chartId: chart, exScore: 880 }]);
    const imp = await aScoreImport(s.db.prisma, rival, [{ chartId: chart, exScore: 950 }]);
    await onScoresImported(s.app, {
      userId: rival.id,
      version: imp.version,
      batchId: imp.batchId,
      chartIds: imp.chartIds,
    });

    const n = (await ok(passed, NOTIFS, { o: passed.id, type: 'OVERTAKEN' })).notifications.edges.map(
      (e: any) => e.node,
    );
    expect(n).toEqual([
      expect.objectContaining({
        type: 'OVERTAKEN',
        actorId: rival.id,
        chartId: chart,
        actorExScore: 950,
        myExScore: 900,
      }),
    ]);
    expect(await notificationTypes(ahead)).toEqual([]);
    expect(await notificationTypes(already)).toEqual([]);

    // a private rival: only approved followers hear about it; when access ends, so does the notification
    const priv = await aPrivatePlayer(s.db.prisma);
    const approved = await aPublicPlayer(s.db.prisma);
    const legacy = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, approved, priv, { approved: true });
    await follows(s.db.prisma, legacy, priv, { approved: false });
    await aScoreImport(s.db.prisma, approved, [{ chartId: chart, exScore: 500 }]);
    await aScoreImport(s.db.prisma, legacy, [{ chartId: chart, exScore: 500 }]);
    const pimp = await aScoreImport(s.db.prisma, priv, [{ chartId: chart, exScore: 600 }]);
    await onScoresImported(s.app, {
      userId: priv.id,
      version: pimp.version,
      batchId: pimp.batchId,
      chartIds: pimp.chartIds,
    });
    expect(await notificationTypes(approved)).toEqual(['OVERTAKEN']);
    expect(await notificationTypes(legacy)).toEqual([]);
    expect((await ok(approved, UNREAD, { o: approved.id })).unreadNotificationCount).toBe(1);
    await ok(priv, REMOVE_FOLLOWER, { o: priv.id, f: approved.id });
    expect(await notificationTypes(approved)).toEqual([]);
    expect((await ok(approved, UNREAD, { o: approved.id })).unreadNotificationCount).toBe(0);
  });
});

describe('timeline', () => {
  it('feeds plays of followed visible users, newest first, with a (playedAt, id) cursor and modes', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const pub = await aPublicPlayer(s.db.prisma);
    const privApproved = await aPrivatePlayer(s.db.prisma);
    const privLegacy = await aPrivatePlayer(s.db.prisma);
    const stranger = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, me, pub);
    await follows(s.db.prisma, me, privApproved, { approved: true });
    await follows(s.db.prisma, me, privLegacy, { approved: false });
    const [c1, c2, c3] = chartIds;
    const t = (m: number) => new Date(Date.UTC(2026, 10, 1, 12, m));
    await aScoreImport(s.db.prisma, me, [
      { chartId: c1, exScore: 1000, playedAt: t(0) },
      { chartId: c2, exScore: 500, playedAt: t(0) },
    ]);
    await aScoreImport(s.db.prisma, pub, [
      { chartId: c1, exScore: 900, playedAt: t(1), bpi: 10.5, clearLamp: 'CLEAR' },
    ]);
    await aScoreImport(s.db.prisma, pub, [
      { chartId: c1, exScore: 1100, playedAt: t(2), bpi: 20.25, clearLamp: 'HARD_CLEAR' },
    ]); // overtakes me (1000)
    const same = await aScoreImport(s.db.prisma, privApproved, [
      { chartId: c3, exScore: 700, playedAt: t(3) },
      { chartId: c2, exScore: 400, playedAt: t(3) }, // same playedAt: the id breaks the tie
    ]);
    await aScoreImport(s.db.prisma, privLegacy, [{ chartId: c1, exScore: 1500, playedAt: t(4) }]);
    await aScoreImport(s.db.prisma, stranger, [{ chartId: c1, exScore: 1500, playedAt: t(5) }]);

    const all: any[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page: any = (await ok(me, TIMELINE, { o: me.id, first: 2, after })).timeline;
      all.push(...page.edges.map((e: any) => e.node));
      pages++;
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(2);
    const sameIds = same.scores.map((x) => x.id).sort((a, b) => b - a);
    expect(all.map((n) => [n.userId, n.exScore])).toEqual([
      [privApproved.id, sameIds[0] === same.scores[0].id ? 700 : 400],
      [privApproved.id, sameIds[0] === same.scores[0].id ? 400 : 700],
      [pub.id, 1100],
      [pub.id, 900],
    ]);
    const over = all.find((n) => n.exScore === 1100);
    expect(over).toMatchObject({
      previousExScore: 900,
      diffExScore: 200,
      previousBpi: 10.5,
      clearLamp: 'HARD_CLEAR',
      isOvertaken: true,
      viewerScore: { exScore: 1000, diffExScore: -100 },
      user: { id: pub.id },
      chart: { id: c1 },
    });
    expect(all.find((n) => n.exScore === 900)).toMatchObject({
      previousExScore: null,
      previousBpi: null,
      clearLamp: 'CLEAR',
      isOvertaken: false,
    });
    expect((await ok(me, TIMELINE, { o: me.id })).timeline.totalCount).toBe(4);

    const played = (await ok(me, TIMELINE, { o: me.id, mode: 'PLAYED' })).timeline.edges.map(
      (e: any) => e.node.exScore,
    );
    expect(played.sort()).toEqual([1100, 400, 900].sort());
    const overtaken = (await ok(me, TIMELINE, { o: me.id, mode: 'OVERTAKEN' })).timeline.edges.map(
      (e: any) => e.node.exScore,
    );
    expect(overtaken).toEqual([1100]);
    expect(errorCode(await as(me, TIMELINE, { o: me.id, after: 'garbage' }))).toBe('BAD_USER_INPUT');
    expect(errorCode(await as(me, TIMELINE, { o: me.id, first: 101 }))).toBe('BAD_USER_INPUT');

    // filters: chart level / difficulty, and a plain-text search on the player's name or the song title
    const FILTERED =
      'query($o: ID!, $search: String, $levels: [Int!], $difficulties: [Difficulty!]) { timeline(userId: $o, search: $search, levels: $levels, difficulties: $difficulties) { totalCount edges { node { exScore chart { level difficulty } } } } }';
    const charts = await s.db.prisma.chart.findMany({ where: { id: { in: [c1, c2, c3] } }, include: { song: true } });
    const byId = new Map(charts.map((c) => [c.id, c]));
    const lv = byId.get(c1)!.level;
    const expectLevel = all
      .filter((n) => byId.get(n.chartId)!.level === lv)
      .map((n) => n.exScore)
      .sort();
    const byLevel = (await ok(me, FILTERED, { o: me.id, levels: [lv] })).timeline;
    expect(byLevel.edges.map((e: any) => e.node.exScore).sort()).toEqual(expectLevel);
    const df = byId.get(c3)!.difficulty;
    const expectDiff = all
      .filter((n) => byId.get(n.chartId)!.difficulty === df)
      .map((n) => n.exScore)
      .sort();
    expect(
      (await ok(me, FILTERED, { o: me.id, difficulties: [df] })).timeline.edges.map((e: any) => e.node.exScore).sort(),
    ).toEqual(expectDiff);
    expect((await ok(me, FILTERED, { o: me.id, search: pub.name.toUpperCase() })).timeline.totalCount).toBe(2); // case-insensitive
    const title = byId.get(c3)!.song.title;
    const expectTitle = all.filter((n) =>
      byId.get(n.chartId)!.song.title.toLowerCase().includes(title.toLowerCase()),
    ).length;
    expect(expectTitle).toBeGreaterThan(0);
    expect((await ok(me, FILTERED, { o: me.id, search: title })).timeline.totalCount).toBe(expectTitle);
    expect((await ok(me, FILTERED, { o: me.id, search: '%' })).timeline.totalCount).toBe(0); // % is not a wildcard
    expect(errorCode(await as(me, FILTERED, { o: me.id, levels: [13] }))).toBe('BAD_USER_INPUT');
  });
});

describe('batching (no N+1)', () => {
  it('notifications with actors and the timeline with users and charts cost the same SQL for 5 or 20 rows', async () => {
    const me = await aPublicPlayer(s.db.prisma);
    const chart = chartIds[0];
    for (let i = 0; i < 20; i++) {
      const f = await aPublicPlayer(s.db.prisma);
      await ok(f, FOLLOW, { u: me.id });
      await follows(s.db.prisma, me, f);
      await aScoreImport(s.db.prisma, f, [{ chartId: chart, exScore: 100 + i }]);
    }
    const token = await s.tokenFor(me.id);
    const cost = async (query: string, first: number) => {
      s.sql.reset();
      const d = expectNoErrors(await s.gql(query, { o: me.id, first }, token)) as any;
      return { statements: s.sql.count, rows: (Object.values(d)[0] as any).edges.length };
    };
    const NQ =
      'query($o: ID!, $first: Int) { notifications(userId: $o, first: $first) { edges { node { id actor { id: databaseId name isMasked } } } } }';
    const TQ =
      'query($o: ID!, $first: Int) { timeline(userId: $o, first: $first) { edges { node { id user { id: databaseId name } chart { id: databaseId level } } } } }';
    const [n5, n20, t5, t20] = [await cost(NQ, 5), await cost(NQ, 20), await cost(TQ, 5), await cost(TQ, 20)];
    expect([n5.rows, n20.rows, t5.rows, t20.rows]).toEqual([5, 20, 5, 20]);
    expect(n20.statements).toBe(n5.statements);
    expect(t20.statements).toBe(t5.statements);
  });
});
