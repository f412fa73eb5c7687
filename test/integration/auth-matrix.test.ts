/**
 * The access matrix: for every entry of the rule table (src/graphql/rules.ts RULES) whose rule is
 * OWNER, VISIBLE, AUTHENTICATED or ADMIN, call the operation as anonymous / another user / the
 * owner / an approved follower (and an administrator for ADMIN) and check that the verdict is the
 * rule's. ADDING AN OPERATION? Add a case to CASES below (variables are enough for GraphQL
 * operations: the document is built from the schema, selecting only __typename). Use ids that do
 * not exist and bystander users in arguments so that the owner's calls leave the fixture intact.
 *
 * Object fields too: every field of a type that reveals a player's data (PLAYER_TYPES: every field
 * of User) must have an entry (a field without one fails here, and at start-up); every
 * object-field entry must be applied by the schema's rule wrapper; and every protected one is read
 * on a private player nested in a public player's followers, by each caller: a refused caller gets
 * null (deny 'null') or FORBIDDEN / UNAUTHENTICATED (deny 'error'), an allowed one the value. ADDING
 * A FIELD TO User? Give it an entry in RULES and a case in FIELD_CASES (its arguments), and make
 * the fixture hold data for it (an allowed caller must see a value, not null).
 */
import {
  getNamedType,
  isObjectType,
  isInterfaceType,
  isUnionType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { createContext } from '../../src/graphql/context';
import { NODE_RULES, PLAYER_TYPES, RULED, RULES } from '../../src/graphql/rules';
import { enforce, fieldVerdict } from '../../src/graphql/rules-enforce';
import { toGlobalId } from '../../src/graphql/global-id';
import { LATEST_VERSION } from '../../src/domain/constants';
import { getSchema } from '../../src/schema';
import { hashSecret, newSecret, pkceChallenge } from '../../src/modules/auth/secrets';
import type { User } from '../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, anAdmin, follows } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

type Who = 'anonymous' | 'other' | 'owner' | 'follower' | 'admin';
type Verdict = 'ALLOWED' | 'UNAUTHENTICATED' | 'FORBIDDEN';

/** What a case's builder gets: `target` is the user the operation is about (private owner, or a public user). */
interface Fixture {
  target: User;
  bystander: User;
  clientId: string;
  s: TestServer;
}

type Case =
  /** GraphQL root field: variables (the document is generated from the schema). */
  | { vars: (f: Fixture) => Record<string, unknown> }
  /** Subscriptions cannot run over HTTP POST: the rule is checked through `enforce` with the same context. */
  | { subscription: true; args?: (f: Fixture) => Record<string, unknown> }
  /** A REST / OAuth endpoint: returns the HTTP status. */
  | { http: (f: Fixture, token: string | undefined) => Promise<number> };

const MISSING = '999999';
const NO_CHART = '999999';

const CASES: Record<string, Case> = {
  // users / profile
  'Query.user': { vars: (f) => ({ id: f.target.id }) },
  'Query.userByName': { vars: (f) => ({ name: f.target.name }) },
  'Mutation.updateProfile': { vars: () => ({ input: {} }) },
  'Mutation.deleteAccount': { vars: () => ({ confirmName: 'not-the-name-of-anyone' }) },
  'Mutation.createProfile': { vars: () => ({ input: { name: 'ScopeProbe' } }) }, // PUBLIC: only for the scope check
  'Mutation.importRadarCategories': { vars: () => ({ json: '[]' }) },
  // auth
  'Query.me': { vars: () => ({}) }, // PUBLIC: null when signed out (test/integration/auth/auth.test.ts)
  'Query.viewer': { vars: () => ({}) }, // PUBLIC: never an error
  'Mutation.exchangeApiKey': { vars: () => ({}) }, // PUBLIC: only for the scope check
  'Query.apiKeyStatus': { vars: () => ({}) },
  'Mutation.issueApiKey': { vars: () => ({}) },
  'Query.oauthClient': { vars: () => ({}) },
  'Mutation.issueOAuthClient': { vars: () => ({ redirectUris: ['https://matrix.example/cb'] }) },
  'Mutation.deleteOAuthClient': { vars: () => ({}) },
  'Query.oauthConsentUser': { vars: () => ({}) },
  // the gates of the downloads (src/rest/export.ts) and a batch's card (src/rest/cards.ts)
  'Query.scoresExportUser': { vars: (f) => ({ userId: f.target.id }) },
  'Query.accountExportUser': { vars: () => ({}) },
  'Query.profileImageOwner': { vars: () => ({}) }, // the gate of PUT / DELETE /api/v1/me/profile-image
  'Query.batchCard': { vars: (f) => ({ batchId: batchOf[f.target.id] }) }, // a batch of the target (beforeAll)
  'OAuth.authorize': {
    http: async (f, token) => {
      const qs = new URLSearchParams({
        client_id: f.clientId,
        redirect_uri: 'https://matrix.example/cb',
        code_challenge: pkceChallenge('v'.repeat(43)),
        code_challenge_method: 'S256',
      });
      return (await f.s.get(`/api/oauth/authorize?${qs}`, token)).status;
    },
  },
  'OAuth.consent': {
    http: async (f, token) => {
      const res = await fetch(`${f.s.url}/api/oauth/authorize/consent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({
          client_id: f.clientId,
          redirect_uri: 'https://matrix.example/cb',
          code_challenge: pkceChallenge('v'.repeat(43)),
          code_challenge_method: 'S256',
          approve: false,
        }),
      });
      return res.status;
    },
  },
  // songs, notes, patterns, rankings
  'Mutation.postSongNote': { vars: () => ({ body: 'matrix', chartId: NO_CHART }) },
  'Mutation.editSongNote': { vars: () => ({ body: 'matrix', id: MISSING }) },
  'Mutation.deleteSongNote': { vars: () => ({ id: MISSING }) },
  'Mutation.upvoteSongNote': { vars: () => ({ id: MISSING }) },
  'Mutation.cancelSongNoteUpvote': { vars: () => ({ id: MISSING }) },
  'Mutation.voteFingeringPattern': { vars: () => ({ vote: 'UPVOTE', pattern: '1234567', chartId: NO_CHART }) },
  'Mutation.cancelFingeringPatternVote': { vars: () => ({ pattern: '1234567', chartId: NO_CHART }) },
  'Query.userSongs': { vars: (f) => ({ userId: f.target.id }) },
  'Query.userSongRanking': { vars: (f) => ({ userId: f.target.id, chartId: NO_CHART }) },
  'Query.userSimilarSongs': { vars: (f) => ({ userId: f.target.id, chartId: NO_CHART }) },
  'Mutation.importChartAttributes': { vars: () => ({ entries: [] }) },
  'Query.recomputeStatus': { vars: () => ({}) },
  'Mutation.importDefinitions': { vars: () => ({ json: '{}' }) },
  'Mutation.importOfficialArena': { vars: () => ({ json: '[]' }) },
  'Mutation.recompute': { vars: () => ({}) },
  'Mutation.startRecompute': { vars: () => ({}) },
  // BPI V2: minPlayersPerChart 2 is refused (BAD_USER_INPUT) after the rule, so an allowed call starts no fit
  'Mutation.fitBpiV2': { vars: () => ({ minPlayersPerChart: 2 }) },
  'Query.bpiV2FitStatus': { vars: () => ({}) },
  // provisional charts: an id that is not a provisional chart is refused (BAD_USER_INPUT) after the rule
  'Query.provisionalCharts': { vars: () => ({}) },
  'Mutation.adoptProvisionalCharts': { vars: () => ({ chartIds: [NO_CHART] }) },
  'Mutation.purgeProvisionalCharts': { vars: () => ({ chartIds: [NO_CHART] }) },
  // social
  'Mutation.follow': { vars: (f) => ({ userId: f.bystander.id }) },
  'Mutation.unfollow': { vars: (f) => ({ userId: f.bystander.id }) },
  'Mutation.sendFollowRequest': { vars: () => ({ token: 'no-such-invite-token' }) },
  'Mutation.withdrawFollowRequest': { vars: (f) => ({ userId: f.bystander.id }) },
  'Query.outgoingFollowRequests': { vars: (f) => ({ userId: f.target.id }) },
  'Query.incomingFollowRequests': { vars: (f) => ({ userId: f.target.id }) },
  'Mutation.approveFollowRequest': { vars: (f) => ({ userId: f.target.id, requestId: Number(MISSING) }) },
  'Mutation.rejectFollowRequest': { vars: (f) => ({ userId: f.target.id, requestId: Number(MISSING) }) },
  'Mutation.approveFollower': { vars: (f) => ({ userId: f.target.id, followerId: f.bystander.id }) },
  'Mutation.removeFollower': { vars: (f) => ({ userId: f.target.id, followerId: f.bystander.id }) },
  'Query.followInvite': { vars: (f) => ({ userId: f.target.id }) },
  'Mutation.issueFollowInvite': { vars: (f) => ({ userId: f.target.id }) },
  'Query.followLists': { vars: (f) => ({ userId: f.target.id }) },
  'Query.followingWithLists': { vars: (f) => ({ userId: f.target.id }) },
  'Mutation.createFollowList': { vars: (f) => ({ userId: f.target.id, name: 'matrix' }) },
  'Mutation.updateFollowList': { vars: (f) => ({ userId: f.target.id, listId: Number(MISSING), name: 'x' }) },
  'Mutation.deleteFollowList': { vars: (f) => ({ userId: f.target.id, listId: Number(MISSING) }) },
  'Mutation.addFollowListMember': {
    vars: (f) => ({ userId: f.target.id, listId: Number(MISSING), memberId: f.bystander.id }),
  },
  'Mutation.removeFollowListMember': {
    vars: (f) => ({ userId: f.target.id, listId: Number(MISSING), memberId: f.bystander.id }),
  },
  'Query.notifications': { vars: (f) => ({ userId: f.target.id }) },
  'Query.unreadNotificationCount': { vars: (f) => ({ userId: f.target.id }) },
  'Query.unreadNotificationSummary': { vars: (f) => ({ userId: f.target.id }) },
  'Mutation.markNotificationsRead': { vars: (f) => ({ userId: f.target.id }) },
  'Query.timeline': { vars: (f) => ({ userId: f.target.id }) },
  'Subscription.notificationAdded': { subscription: true },
  'Subscription.timelineEntryAdded': { subscription: true },
  // scores & logs
  'Mutation.importScores': { vars: (f) => ({ userId: f.target.id, version: '33', rows: [] }) },
  'Mutation.importScoresCsv': { vars: (f) => ({ userId: f.target.id, version: '33', csv: '' }) },
  'Mutation.migrateLegacyScores': { vars: (f) => ({ userId: f.target.id, data: '[]' }) },
  'Mutation.deleteBatch': { vars: (f) => ({ userId: f.target.id, batchId: MISSING }) },
  // stats
  'Mutation.registerTower': {
    vars: (f) => ({
      userId: f.target.id,
      version: '33',
      rows: [{ playDate: '2026-01-01', keyCount: 1, scratchCount: 1 }],
    }),
  },
  // optimizer: memos (the owner's save adds a memo to the fixture: the optimizeMemos field case reads it)
  'Mutation.saveOptimizeMemo': { vars: (f) => ({ userId: f.target.id, input: { targetBpi: 0 } }) },
  'Mutation.deleteOptimizeMemo': { vars: (f) => ({ userId: f.target.id, memoId: 'no-such-memo' }) },
  'Mutation.importArrangementScores': { vars: () => ({ json: '[]' }) },
  // REST compatibility routes
  'REST.recommended': {
    http: async (f, token) => (await f.s.get(`/api/v1/users/${f.target.id}/stats/recommended`, token)).status,
  },
  'REST.charts': {
    http: async (f, token) => (await f.s.get(`/api/v1/users/${f.target.id}/charts/radar.svg`, token)).status,
  },
  'REST.scoresExport': {
    http: async (f, token) => (await f.s.get(`/api/v1/users/${f.target.id}/scores/export`, token)).status,
  },
  'REST.accountExport': { http: async (f, token) => (await f.s.get('/api/v1/me/export', token)).status },
  'REST.cards': {
    http: async (f, token) => (await f.s.get(`/api/v1/users/${f.target.id}/cards/profile.png`, token)).status,
  },
  'REST.profileImage': {
    // no image uploaded: an allowed caller gets 404 (no image), a refused one 401/403
    http: async (f, token) => (await f.s.get(`/api/v1/users/${f.target.id}/profile-image`, token)).status,
  },
  'REST.profileImageWrite': {
    // bytes that are no image: an allowed caller gets 415, a refused one 401/403 (checked first)
    http: async (f, token) =>
      (
        await fetch(`${f.s.url}/api/v1/me/profile-image`, {
          method: 'PUT',
          headers: { 'content-type': 'image/png', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: 'not an image',
        })
      ).status,
  },
};

/** The enumerating tests send one request per (rule × caller): they grow with the rule table. */
const MATRIX_TIMEOUT = 300_000;

const PROTECTED = ['OWNER', 'VISIBLE', 'AUTHENTICATED', 'ADMIN'];

/** `Type.field` entries of object types (not root operations, REST routes or OAuth endpoints). */
const isObjectField = (op: string) => !/^(Query|Mutation|Subscription|REST|OAuth)\./.test(op);

/**
 * Arguments of the protected object fields (fields without arguments: {}). A field of another
 * type reached through a User field names that field in `via` (e.g. Dashboard.review through
 * User.dashboard).
 */
const FIELD_CASES: Record<string, { args: Record<string, unknown>; via?: string }> = {
  'User.profileText': { args: {} },
  'User.profileImage': { args: {} },
  'User.gameId': { args: {} },
  'User.socialId': { args: {} },
  'User.role': { args: {} },
  'User.follows': { args: {} },
  'User.followers': { args: {} },
  'User.following': { args: {} },
  'User.statsPrivacy': { args: {} },
  'User.stats': { args: {} },
  'User.areaRank': { args: {} },
  'User.recommended': { args: {} },
  'User.totalBpiHistory': { args: {} },
  'User.compare': { args: {} },
  'User.rivalry': { args: {} },
  'User.publicFollowing': { args: {} },
  'User.chartRanks': { args: {} },
  'User.followingScoresOn': { args: { chartId: '1' } },
  'User.followingBpiChanges': { args: { month: '2026-01' } },
  'User.rivalSummary': { args: {} },
  'User.followingChartStats': { args: {} },
  'User.nearLosses': { args: {} },
  'User.suggestedRivals': { args: {} },
  'User.scores': { args: {} },
  // the owner's best on the node fixture's chart (beforeAll), read when the matrix runs
  'User.bestOn': {
    get args() {
      return { chartId: nodeFixture.chartId };
    },
  },
  'User.allDifficultyScores': { args: {} },
  'User.chartHistory': { args: { chartId: 1 } },
  'User.chartHistoryByVersion': { args: { chartId: 1 } },
  'User.songHistory': { args: { songId: 1 } },
  'User.bestEver': { args: { currentVersion: '33' } },
  'User.versionComparison': { args: { currentVersion: '33', targetVersion: '32' } },
  'User.unplayedCharts': { args: {} },
  'User.totalBpi': { args: {} },
  'User.batches': { args: {} },
  'User.playDays': { args: {} },
  'User.batch': { args: { id: MISSING } }, // NOT_FOUND for an allowed caller: the resolver ran
  'User.scoreDetails': { args: { date: '2026-01-01' } },
  'User.versionSummary': { args: {} },
  'User.dashboard': { args: {} },
  'Dashboard.review': { args: { month: '2026-01' }, via: 'dashboard' },
  'User.bpiPlan': { args: { input: { targetBpi: 0 } } },
  'User.optimizeMemos': { args: {} },
  'User.ticketRecommendation': { args: { ticketId: '1234567' } },
  'User.ticketRecommendations': { args: { tickets: [{ ticketId: '1234567' }] } },
};

/**
 * `node(id:)` of an object of the private owner, per protected NODE_RULES type (the id of an
 * object created in the fixture): a refused caller gets null, an allowed one the object.
 */
const NODE_CASES: Record<string, () => string> = {
  User: () => toGlobalId('User', users.owner.id),
  Play: () => toGlobalId('Play', nodeFixture.playId),
  Batch: () => toGlobalId('Batch', nodeFixture.batchId),
  Notification: () => toGlobalId('Notification', nodeFixture.notificationId),
  FollowList: () => toGlobalId('FollowList', nodeFixture.listId),
  BatchDetail: () => toGlobalId('BatchDetail', nodeFixture.batchId),
  // the play's JST day: 2025-01-01T00:00Z is 09:00 on 2025-01-01 in Japan
  PlayDay: () => toGlobalId('PlayDay', `${users.owner.id}:${LATEST_VERSION}:2025-01-01`),
  OptimizeMemo: () => toGlobalId('OptimizeMemo', nodeFixture.memoId),
  TimelineEntry: () => toGlobalId('TimelineEntry', nodeFixture.playId),
};
const nodeFixture = {} as {
  chartId: number;
  playId: number;
  batchId: string;
  notificationId: number;
  listId: number;
  memoId: string;
};

/** An import batch of each target (the private owner's node-fixture batch, one of the public target). */
const batchOf: Record<string, string> = {};

type FieldVerdict = 'VALUE' | 'NULL' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'OTHER_ERROR';

/** The verdict each rule gives each caller when the operation is about the private owner. */
const EXPECTED: Record<string, Partial<Record<Who, Verdict>>> = {
  AUTHENTICATED: { anonymous: 'UNAUTHENTICATED', other: 'ALLOWED', owner: 'ALLOWED', follower: 'ALLOWED' },
  OWNER: { anonymous: 'UNAUTHENTICATED', other: 'FORBIDDEN', owner: 'ALLOWED', follower: 'FORBIDDEN' },
  VISIBLE: { anonymous: 'FORBIDDEN', other: 'FORBIDDEN', owner: 'ALLOWED', follower: 'ALLOWED' },
  ADMIN: {
    anonymous: 'UNAUTHENTICATED',
    other: 'FORBIDDEN',
    owner: 'FORBIDDEN',
    follower: 'FORBIDDEN',
    admin: 'ALLOWED',
  },
};

let s: TestServer;
let schema: GraphQLSchema;
const users = {} as Record<Exclude<Who, 'anonymous'>, User> & { bystander: User; publicTarget: User; hub: User };
const tokens = {} as Record<Who, string | undefined>;
let clientId: string;

beforeAll(async () => {
  // the verdicts under test, not the limits: the matrix sends many priced reads from one address
  s = await startTestServer({
    seedDemo: false,
    env: {
      CPU_BUDGET_ANONYMOUS_PER_MINUTE: '1000000',
      GRAPHQL_MAX_COMPLEXITY: '50000',
      GRAPHQL_MAX_PLANS: '100',
      CPU_BUDGET_USER_PER_MINUTE: '1000000',
      RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '100000',
    },
  });
  schema = await getSchema();
  const db = s.db.prisma;
  users.owner = await aPrivatePlayer(db);
  users.other = await aPublicPlayer(db);
  users.follower = await aPublicPlayer(db);
  users.admin = await anAdmin(db);
  users.bystander = await aPublicPlayer(db);
  users.publicTarget = await aPublicPlayer(db);
  await follows(db, users.follower, users.owner, { approved: true });
  // Object fields: the private owner with data for every User field, nested in a public hub's followers.
  users.hub = await aPublicPlayer(db);
  await follows(db, users.owner, users.hub);
  await db.user.update({
    where: { id: users.owner.id },
    data: {
      profileText: 'matrix',
      profileImage: 'https://matrix.example/p.png',
      gameId: '12345678',
      socialId: 'matrix',
      showArea: true,
    },
  });
  await db.userBadge.create({ data: { userId: users.owner.id, role: 'COFFEE', description: 'matrix' } });
  await db.playerVersionStatus.create({ data: { userId: users.owner.id, version: LATEST_VERSION, totalBpi: 10 } });
  // fetched 'in the future': stays the latest snapshot after the admin's importOfficialArena case adds an empty one
  const snapshot = await db.arenaSnapshot.create({
    data: { version: LATEST_VERSION, entryCount: 1, fetchedAt: new Date('2100-01-01T00:00:00Z') },
  });
  await db.arenaEntry.create({
    data: { snapshotId: snapshot.id, gameId: '12345678', name: 'MATRIX', area: 'TOKYO', arenaClass: 'A1', rank: 1 },
  });
  // node(id:) cases: a batch with one play, a notification and a follow list of the owner
  const chart = await db.chart.create({
    data: {
      song: { create: { title: 'Matrix node song' } },
      playStyle: 'SP',
      difficulty: 'ANOTHER',
      level: 12,
      notes: 1000,
      bpm: '150',
    },
  });
  const batch = await db.importBatch.create({
    data: { userId: users.owner.id, version: LATEST_VERSION, source: 'ROWS', rowCount: 1 },
  });
  const play = await db.score.create({
    data: {
      userId: users.owner.id,
      chartId: chart.id,
      version: LATEST_VERSION,
      batchId: batch.id,
      exScore: 1500,
      playedAt: new Date('2025-01-01T00:00:00Z'),
    },
  });
  const notification = await db.notification.create({
    data: { recipientId: users.owner.id, actorId: users.follower.id, type: 'NEW_FOLLOWER' },
  });
  const list = await db.followList.create({ data: { ownerId: users.owner.id, name: 'matrix' } });
  const memo = await db.optimizeMemo.create({ data: { userId: users.owner.id, version: LATEST_VERSION, report: {} } });
  await db.bestScore.create({
    data: {
      userId: users.owner.id,
      chartId: chart.id,
      version: LATEST_VERSION,
      exScore: 1500,
      exScoreId: play.id,
      playedAt: play.playedAt,
    },
  });
  batchOf[users.owner.id] = batch.id;
  batchOf[users.publicTarget.id] = (
    await db.importBatch.create({
      data: { userId: users.publicTarget.id, version: LATEST_VERSION, source: 'ROWS', rowCount: 0 },
    })
  ).id;
  Object.assign(nodeFixture, {
    chartId: chart.id,
    playId: play.id,
    batchId: batch.id,
    notificationId: notification.id,
    listId: list.id,
    memoId: memo.id,
  });
  for (const who of ['other', 'owner', 'follower', 'admin'] as const) tokens[who] = await s.tokenFor(users[who].id);
  tokens.anonymous = undefined;
  const reg = await fetch(`${s.url}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['https://matrix.example/cb'], client_name: 'matrix' }),
  });
  clientId = (await reg.json()).client_id;
});
afterAll(() => s.close());

function rootField(op: string) {
  const [root, field] = op.split('.');
  const type =
    root === 'Query'
      ? schema.getQueryType()
      : root === 'Mutation'
        ? schema.getMutationType()
        : root === 'Subscription'
          ? schema.getSubscriptionType()
          : undefined;
  return { root, field, def: type?.getFields()[field] };
}

const isGraphqlOp = (op: string) => /^(Query|Mutation|Subscription)\./.test(op);

/** `mutation M($a: T!) { field(a: $a) { __typename } }` for the variables given. */
function documentFor(op: string, vars: Record<string, unknown>): string {
  const { root, field, def } = rootField(op);
  const args = def!.args.filter((a) => a.name in vars);
  const decl = args.length ? `(${args.map((a) => `$${a.name}: ${a.type}`).join(', ')})` : '';
  const pass = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const named = getNamedType(def!.type);
  const selection = isObjectType(named) || isInterfaceType(named) || isUnionType(named) ? ' { __typename }' : '';
  return `${root.toLowerCase()} Matrix${decl} { ${field}${pass}${selection} }`;
}

const verdictOfStatus = (status: number): Verdict =>
  status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : 'ALLOWED';

async function verdict(op: string, c: Case, who: Who, target: User): Promise<{ verdict: Verdict; detail: string }> {
  const f: Fixture = { target, bystander: users.bystander, clientId, s };
  const token = tokens[who];
  if ('http' in c) {
    const status = await c.http(f, token);
    return { verdict: verdictOfStatus(status), detail: `HTTP ${status}` };
  }
  if ('subscription' in c) {
    const viewer = who === 'anonymous' ? null : { id: users[who].id, isAdmin: users[who].isAdmin };
    try {
      await enforce(createContext(s.app, viewer, '127.0.0.1'), op, c.args?.(f) ?? {}, 'read');
      return { verdict: 'ALLOWED', detail: 'enforce passed' };
    } catch (err) {
      const code = (err as { code?: string }).code;
      return { verdict: code === 'UNAUTHENTICATED' || code === 'FORBIDDEN' ? code : 'ALLOWED', detail: String(err) };
    }
  }
  const vars = c.vars(f);
  const res = await s.gql(documentFor(op, vars), vars, token);
  const err = res.body.errors?.[0];
  const code = err?.extensions?.code;
  if (code === 'GRAPHQL_VALIDATION_FAILED' || code === 'BAD_REQUEST' || res.status === 400) {
    throw new Error(`The matrix case for ${op} is not a valid request: ${JSON.stringify(res.body)}`);
  }
  return {
    verdict: code === 'UNAUTHENTICATED' || code === 'FORBIDDEN' ? code : 'ALLOWED',
    detail: err ? `${code}: ${err.message}` : 'no error',
  };
}

const protectedOps = () => Object.entries(RULES).filter(([op, e]) => PROTECTED.includes(e.rule) && !isObjectField(op));
const protectedFields = () =>
  Object.entries(RULES).filter(([op, e]) => PROTECTED.includes(e.rule) && isObjectField(op));

/** `query M($hub: ID!, …) { user(id: $hub) { followers(first: 100) { edges { node { id f: <field>(…) <selection> } } } } }`. */
function nestedDocument(coordinate: string, args: Record<string, unknown>, via?: string): string {
  const [typeName, fieldName] = coordinate.split('.');
  if (typeName !== 'User' && !via)
    throw new Error(`The matrix reaches object fields of User only; ${coordinate} needs a path (via)`);
  const def = (schema.getType(typeName) as GraphQLObjectType).getFields()[fieldName];
  const argDefs = def.args.filter((a) => a.name in args);
  const decl = argDefs.map((a) => `, $${a.name}: ${a.type}`).join('');
  const pass = argDefs.length ? `(${argDefs.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const named = getNamedType(def.type);
  const selection = isObjectType(named) || isInterfaceType(named) || isUnionType(named) ? ' { __typename }' : '';
  const inner = `${fieldName}${pass}${selection}`;
  return `query M($hub: ID!${decl}) { user(id: $hub) { followers(first: 100) { edges { node { id f: ${via ? `${via} { ${inner} }` : inner} } } } } }`;
}

/** The field on the private owner, read by `who` through the hub's followers. */
async function fieldVerdictOf(coordinate: string, who: Who): Promise<{ verdict: FieldVerdict; detail: string }> {
  const { args, via } = FIELD_CASES[coordinate];
  const res = await s.gql(nestedDocument(coordinate, args, via), { hub: users.hub.id, ...args }, tokens[who]);
  if (
    res.body.errors?.some(
      (e: any) => e.extensions?.code === 'GRAPHQL_VALIDATION_FAILED' || e.extensions?.code === 'BAD_USER_INPUT',
    ) ||
    !res.body.data?.user
  ) {
    throw new Error(`The matrix case for ${coordinate} is not a valid request: ${JSON.stringify(res.body)}`);
  }
  const edges: any[] = res.body.data.user.followers.edges;
  // the owner is the hub's only follower; a caller who may not see them gets an anonymous stand-in (random id)
  if (edges.length !== 1) throw new Error(`the owner should be the hub's only follower: ${JSON.stringify(edges)}`);
  const i = 0;
  if (edges[i].node.id === toGlobalId('User', users.owner.id) && !['owner', 'follower', 'admin'].includes(who)) {
    throw new Error(`${who} sees the private owner's id in the hub's followers (follow lists mask members completely)`);
  }
  const err = res.body.errors?.find((e: any) => e.path?.[3] === i && e.path?.[5] === 'f'); // user.followers.edges[i].node.f
  const code = err?.extensions?.code;
  if (code === 'UNAUTHENTICATED' || code === 'FORBIDDEN') return { verdict: code, detail: err.message };
  if (err) return { verdict: 'OTHER_ERROR', detail: `${code}: ${err.message}` };
  const value = via ? (edges[i].node.f?.[coordinate.split('.')[1]] ?? null) : edges[i].node.f;
  return { verdict: value === null ? 'NULL' : 'VALUE', detail: JSON.stringify(value) };
}

describe('access matrix (rule table → verdicts)', () => {
  it('has a matrix case for every protected entry of RULES', () => {
    const missing = protectedOps()
      .map(([op]) => op)
      .filter((op) => !CASES[op]);
    if (missing.length) {
      throw new Error(
        `No access-matrix case for: ${missing.join(', ')}.\n` +
          'Add one to CASES in test/integration/auth-matrix.test.ts (variables for a GraphQL operation, ' +
          'or an http() call for a REST route) so that the rule is checked as anonymous / other user / owner / approved follower.',
      );
    }
  });

  it(
    'gives every caller the verdict of the rule (private target)',
    async () => {
      const mismatches: string[] = [];
      let checked = 0;
      for (const [op, entry] of protectedOps()) {
        const c = CASES[op];
        if (!c) continue; // reported by the test above
        if (isGraphqlOp(op) && !rootField(op).def) {
          console.warn(`auth-matrix: ${op} is in RULES but not in the schema yet: skipped`);
          continue;
        }
        for (const [who, expected] of Object.entries(EXPECTED[entry.rule]) as [Who, Verdict][]) {
          const got = await verdict(op, c, who, users.owner);
          checked++;
          if (got.verdict !== expected)
            mismatches.push(
              `${op} (${entry.rule}) as ${who}: expected ${expected}, got ${got.verdict} (${got.detail})`,
            );
        }
      }
      expect(mismatches).toEqual([]);
      expect(checked).toBeGreaterThan(100);
    },
    MATRIX_TIMEOUT,
  );

  it(
    'VISIBLE operations about a public user are open to everyone, anonymous included',
    async () => {
      const mismatches: string[] = [];
      for (const [op, entry] of protectedOps()) {
        if (entry.rule !== 'VISIBLE' || !CASES[op] || (isGraphqlOp(op) && !rootField(op).def)) continue;
        for (const who of ['anonymous', 'other'] as Who[]) {
          const got = await verdict(op, CASES[op], who, users.publicTarget);
          if (got.verdict !== 'ALLOWED')
            mismatches.push(`${op} as ${who} on a public user: ${got.verdict} (${got.detail})`);
        }
      }
      expect(mismatches).toEqual([]);
    },
    MATRIX_TIMEOUT,
  );

  it(
    'a read-only OAuth token is refused every mutation (scope write), and app tokens never reach firstParty operations',
    async () => {
      const readOnly = newSecret('bpat');
      const readWrite = newSecret('bpat');
      const expiresAt = new Date(Date.now() + 3600_000);
      const base = { kind: 'ACCESS' as const, familyId: 'matrix', clientId, userId: users.other.id, expiresAt };
      await s.db.prisma.oAuthToken.createMany({
        data: [
          { ...base, tokenHash: hashSecret(readOnly), scope: 'read' },
          { ...base, tokenHash: hashSecret(readWrite), scope: 'read write' },
        ],
      });
      const f: Fixture = { target: users.owner, bystander: users.bystander, clientId, s };
      const wrong: string[] = [];
      const uncovered: string[] = [];
      let checked = 0;
      for (const name of Object.keys(schema.getMutationType()?.getFields() ?? {})) {
        const op = `Mutation.${name}`;
        const c = CASES[op];
        if (!c || !('vars' in c)) {
          uncovered.push(op);
          continue;
        }
        const vars = c.vars(f);
        const res = await s.gql(documentFor(op, vars), vars, readOnly);
        checked++;
        const err = res.body.errors?.[0];
        if (err?.extensions?.code !== 'FORBIDDEN')
          wrong.push(`${op}: ${err ? `${err.extensions?.code} ${err.message}` : 'no error'}`);
      }
      for (const [op, entry] of Object.entries(RULES)) {
        if (!entry.firstParty || !isGraphqlOp(op) || !rootField(op).def || !CASES[op] || !('vars' in CASES[op]))
          continue;
        const vars = CASES[op].vars(f);
        const res = await s.gql(documentFor(op, vars), vars, readWrite);
        if (res.body.errors?.[0]?.extensions?.code !== 'FORBIDDEN')
          wrong.push(
            `${op} (firstParty) with a read-write app token: ${JSON.stringify(res.body.errors?.[0] ?? 'no error')}`,
          );
      }
      if (uncovered.length)
        console.warn(`auth-matrix: mutations without a matrix case (scope not checked): ${uncovered.join(', ')}`);
      expect(wrong).toEqual([]);
      expect(checked).toBeGreaterThan(20);
    },
    MATRIX_TIMEOUT,
  );

  it('every root field of the schema has a rule (fail closed)', () => {
    const missing: string[] = [];
    for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
      if (!type) continue;
      for (const name of Object.keys(type.getFields()))
        if (!RULES[`${type.name}.${name}`]) missing.push(`${type.name}.${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('has a rule for every field of a player type, and a case for every protected object field', () => {
    const missingRules: string[] = [];
    for (const typeName of PLAYER_TYPES) {
      for (const name of Object.keys((schema.getType(typeName) as GraphQLObjectType).getFields())) {
        if (!RULES[`${typeName}.${name}`]) missingRules.push(`${typeName}.${name}`);
      }
    }
    const missingCases = protectedFields()
      .map(([op]) => op)
      .filter((op) => !FIELD_CASES[op]);
    if (missingRules.length || missingCases.length) {
      throw new Error(
        (missingRules.length
          ? `No rule for ${missingRules.join(', ')}: every field of ${PLAYER_TYPES.join(', ')} reveals a player's data; add an entry to src/graphql/rules.ts (PUBLIC if it shows nothing private).\n`
          : '') +
          (missingCases.length
            ? `No FIELD_CASES entry for ${missingCases.join(', ')} in test/integration/auth-matrix.test.ts.`
            : ''),
      );
    }
    expect(protectedFields().length).toBeGreaterThan(20);
  });

  it('applies every object-field rule in the schema (the field resolver is the rule wrapper)', () => {
    const unwrapped: string[] = [];
    for (const [op] of protectedFields()) {
      const [typeName, fieldName] = op.split('.');
      const field = (schema.getType(typeName) as GraphQLObjectType | undefined)?.getFields()[fieldName];
      const marker = (field?.resolve as unknown as Record<symbol, string> | undefined)?.[RULED];
      if (marker !== op) unwrapped.push(`${op}: ${field ? 'resolver not wrapped by the rule table' : 'no such field'}`);
    }
    expect(unwrapped).toEqual([]);
  });

  it(
    'gives every caller the verdict of the field rule (a private player nested in a list)',
    async () => {
      const mismatches: string[] = [];
      let checked = 0;
      for (const [op, entry] of protectedFields()) {
        for (const [who, rootVerdict] of Object.entries(EXPECTED[entry.rule]) as [Who, Verdict][]) {
          const allowed = rootVerdict === 'ALLOWED';
          const got = await fieldVerdictOf(op, who);
          checked++;
          const refusal: FieldVerdict[] =
            entry.deny === 'error' ? [rootVerdict === 'UNAUTHENTICATED' ? 'UNAUTHENTICATED' : 'FORBIDDEN'] : ['NULL'];
          // reached through another field (via): that field's own rule may already answer null
          if (FIELD_CASES[op].via) refusal.push('NULL');
          const ok = allowed ? got.verdict === 'VALUE' || got.verdict === 'OTHER_ERROR' : refusal.includes(got.verdict);
          if (!ok)
            mismatches.push(
              `${op} (${entry.rule}, deny ${entry.deny}) as ${who}: expected ${allowed ? 'a value' : refusal.join('/')}, got ${got.verdict} (${got.detail.slice(0, 120)})`,
            );
        }
      }
      expect(mismatches).toEqual([]);
      expect(checked).toBeGreaterThan(80);
    },
    MATRIX_TIMEOUT,
  );

  it(
    'VISIBLE object fields of a public player are open to everyone, anonymous included',
    async () => {
      const refused: string[] = [];
      for (const [op, entry] of protectedFields()) {
        if (entry.rule !== 'VISIBLE') continue;
        for (const who of ['anonymous', 'other'] as Who[]) {
          const viewer = who === 'anonymous' ? null : { id: users.other.id, isAdmin: false };
          const ok = await fieldVerdict(createContext(s.app, viewer, '127.0.0.1'), op, users.publicTarget);
          if (!ok) refused.push(`${op} as ${who}`);
        }
      }
      expect(refused).toEqual([]);
    },
    MATRIX_TIMEOUT,
  );

  it(
    'node(id:): every protected NODE_RULES type has a case, and each caller gets the object or null as the rule says',
    async () => {
      const protectedNodes = Object.entries(NODE_RULES).filter(([, e]) => PROTECTED.includes(e.rule));
      expect(protectedNodes.map(([t]) => t).filter((t) => !NODE_CASES[t])).toEqual([]);
      const mismatches: string[] = [];
      let checked = 0;
      for (const [type, entry] of protectedNodes) {
        const id = NODE_CASES[type]();
        for (const [who, rootVerdict] of Object.entries(EXPECTED[entry.rule]) as [Who, Verdict][]) {
          if (who === 'admin') continue;
          const res = await s.gql('query($id: ID!) { node(id: $id) { __typename id } }', { id }, tokens[who]);
          checked++;
          const got = res.body.errors
            ? `error ${JSON.stringify(res.body.errors[0])}`
            : res.body.data.node === null
              ? 'NULL'
              : res.body.data.node.__typename === type && res.body.data.node.id === id
                ? 'VALUE'
                : JSON.stringify(res.body.data.node);
          const expected = rootVerdict === 'ALLOWED' ? 'VALUE' : 'NULL';
          if (got !== expected)
            mismatches.push(`node ${type} (${entry.rule}) as ${who}: expected ${expected}, got ${got}`);
        }
      }
      expect(mismatches).toEqual([]);
      expect(checked).toBeGreaterThanOrEqual(20);
    },
    MATRIX_TIMEOUT,
  );
});
