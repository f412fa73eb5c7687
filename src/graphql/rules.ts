import type { Context, ObjectRoot } from './context';

export { anonymousUser, canView, userVisibility, visibleUser } from './user-visibility';

/**
 * The one table of authorization rules. Every root operation (GraphQL Query/Mutation/
 * Subscription field, REST route) names its rule here; an operation missing from the table is
 * refused (fail closed). So does every field of an object type that reveals a player's data
 * (`User.*`, see PLAYER_TYPES). Resolvers never hand-roll access checks: the same wrapper
 * (applyRules, src/graphql/rules-schema.ts) enforces root and object-field entries, with the
 * verdict functions of src/graphql/rules-enforce.ts.
 *
 *  PUBLIC         anyone
 *  AUTHENTICATED  any signed-in caller
 *  OWNER          the target user is the caller
 *  VISIBLE        the target user is public, or is the caller, or the caller is an approved
 *                 follower of the (private) target
 *  ADMIN          administrators
 *
 * Root operations refuse with an error (UNAUTHENTICATED / FORBIDDEN). An object field states what
 * a refused caller gets (`deny`): 'null' — the field is masked to null, no error (a private
 * player inside a list stays in the list with its data hidden) — or 'error' — null with a
 * FORBIDDEN (UNAUTHENTICATED without a viewer) error.
 */
export type RuleName = 'PUBLIC' | 'AUTHENTICATED' | 'OWNER' | 'VISIBLE' | 'ADMIN';

export interface RuleEntry {
  rule: RuleName;
  /**
   * Where the target user id comes from (OWNER / VISIBLE). Root operations: the arguments
   * (default `args.userId`); object fields: the parent object (`root`), e.g. the user itself.
   */
  target?: (
    args: Record<string, unknown>,
    ctx: Context,
    root?: ObjectRoot,
  ) => string | undefined | Promise<string | undefined>;
  /** OAuth scope needed by third-party apps (default: read for queries, write for mutations). Root operations only. */
  scope?: 'read' | 'write';
  /**
   * Only the user themself (own JWT or external ID token), never a third-party app holding an
   * OAuth token, whatever its scopes: credential management and consent. Root operations only.
   */
  firstParty?: boolean;
  /** Object fields (required there): what a caller the rule refuses gets, null or an error. */
  deny?: 'null' | 'error';
  /**
   * Object fields of a player type: the target is the parent object itself (a user row), so a
   * VISIBLE verdict may read its `isPublic` (a public row needs no lookup: userVisibility) instead
   * of asking by id. Set by `userField`.
   */
  targetIsRoot?: boolean;
}

/**
 * Object types whose every field reveals a player's data: each of their fields must have an entry
 * (`User.profileText`), checked when the schema is built and by the authorization matrix. A field
 * that shows nothing private says so with PUBLIC.
 */
export const PLAYER_TYPES = ['User'] as const;

/** A field of User (the parent object is the user): PUBLIC, or a rule about that user with its deny. */
const userField = (rule: RuleName, deny: 'null' | 'error' = 'null'): RuleEntry =>
  rule === 'PUBLIC'
    ? { rule }
    : { rule, deny, target: (_args, _ctx, root: { id: string }) => root.id, targetIsRoot: true };

export const RULES: Record<string, RuleEntry> = {
  // catalogue, arena, calculator
  'Query.songs': { rule: 'PUBLIC' },
  'Query.song': { rule: 'PUBLIC' },
  'Query.chart': { rule: 'PUBLIC' },
  'Query.serverInfo': { rule: 'PUBLIC' },
  'Query.bpiCalc': { rule: 'PUBLIC' },
  'Query.officialArena': { rule: 'PUBLIC' },
  'Query.recomputeStatus': { rule: 'ADMIN' },
  'Mutation.importDefinitions': { rule: 'ADMIN' },
  'Mutation.importOfficialArena': { rule: 'ADMIN' },
  'Mutation.recompute': { rule: 'ADMIN' },
  'Mutation.startRecompute': { rule: 'ADMIN' },
  'Mutation.fitBpiV2': { rule: 'ADMIN' },
  'Query.bpiV2FitStatus': { rule: 'ADMIN' },
  'Query.provisionalCharts': { rule: 'ADMIN' },
  'Mutation.adoptProvisionalCharts': { rule: 'ADMIN' },
  'Mutation.purgeProvisionalCharts': { rule: 'ADMIN' },
  'Query.bpiV2Fit': { rule: 'PUBLIC' },
  // notes, fingering patterns, rankings (src/modules/notes|patterns|rankings)
  'Query.songNotes': { rule: 'PUBLIC' },
  'Query.recentSongNotes': { rule: 'PUBLIC' },
  'Mutation.postSongNote': { rule: 'AUTHENTICATED' },
  'Mutation.editSongNote': { rule: 'AUTHENTICATED' }, // + author only (service: FORBIDDEN)
  'Mutation.deleteSongNote': { rule: 'AUTHENTICATED' }, // + author only (service: FORBIDDEN)
  'Mutation.upvoteSongNote': { rule: 'AUTHENTICATED' },
  'Mutation.cancelSongNoteUpvote': { rule: 'AUTHENTICATED' },
  'Query.fingeringPatterns': { rule: 'PUBLIC' },
  'Query.searchFingeringPattern': { rule: 'PUBLIC' },
  'Mutation.voteFingeringPattern': { rule: 'AUTHENTICATED' },
  'Mutation.cancelFingeringPatternVote': { rule: 'AUTHENTICATED' },
  'Query.songRanking': { rule: 'PUBLIC' },
  'Query.similarSongs': { rule: 'PUBLIC' },
  'Query.popularCharts': { rule: 'PUBLIC' },
  'Query.userSongs': { rule: 'VISIBLE' },
  'Query.userSongRanking': { rule: 'VISIBLE' },
  'Query.userSimilarSongs': { rule: 'VISIBLE' },
  'Mutation.importChartAttributes': { rule: 'ADMIN' },
  // rivals: user search (public profiles; private ones only for callers who may see them: service)
  'Query.searchUsers': { rule: 'PUBLIC' },
  // stats: the global total-BPI ranking (rows of players the caller may not see are anonymous)
  'Query.globalRanking': { rule: 'PUBLIC' },
  // Relay object identification: PUBLIC here, each node's type then answers to NODE_RULES below
  'Query.node': { rule: 'PUBLIC' },
  'Query.nodes': { rule: 'PUBLIC' },
  // stats: radar-category and tower rankings (masked rows as globalRanking), the site summary, tower register
  'Query.radarRanking': { rule: 'PUBLIC' },
  'Query.towerRanking': { rule: 'PUBLIC' },
  'Query.siteSummary': { rule: 'PUBLIC' },
  // stats: the guest AAA table (catalogue only, no player)
  'Query.aaaTable': { rule: 'PUBLIC' },
  // stats: the supporters list (players the caller may not see are masked by the service)
  'Query.supporters': { rule: 'PUBLIC' },
  'Mutation.registerTower': { rule: 'OWNER' },
  // users / profile
  'Query.user': { rule: 'VISIBLE', target: (a) => a.id as string | undefined },
  // unknown name → no target → passes, and the resolver answers null
  'Query.userByName': {
    rule: 'VISIBLE',
    target: async (a, ctx) => (await ctx.app.areas.access.userByName(ctx, String(a.name)))?.id,
  },
  'Query.nameAvailability': { rule: 'PUBLIC' },
  // PUBLIC in the table: the caller is an external identity without a local user (ctx.identity),
  // which no rule names; the service requires that identity (UNAUTHENTICATED otherwise).
  'Mutation.createProfile': { rule: 'PUBLIC' },
  'Mutation.updateProfile': { rule: 'AUTHENTICATED' },
  'Mutation.deleteAccount': { rule: 'AUTHENTICATED', firstParty: true },
  'Mutation.importRadarCategories': { rule: 'ADMIN' },
  // auth: identity and the caller's own credentials (src/modules/auth)
  // null / {signedIn: false} for an anonymous caller instead of an error (the caller's own row only)
  'Query.me': { rule: 'PUBLIC' },
  'Query.viewer': { rule: 'PUBLIC' },
  'Mutation.exchangeApiKey': { rule: 'PUBLIC' },
  'Query.apiKeyStatus': { rule: 'AUTHENTICATED', firstParty: true },
  'Mutation.issueApiKey': { rule: 'AUTHENTICATED', firstParty: true },
  'Query.oauthClient': { rule: 'AUTHENTICATED', firstParty: true },
  'Mutation.issueOAuthClient': { rule: 'AUTHENTICATED', firstParty: true },
  'Mutation.deleteOAuthClient': { rule: 'AUTHENTICATED', firstParty: true },
  // OAuth authorization server endpoints that need a user (src/rest/oauth.ts): both run the fixed
  // document RestOAuthConsentUser (src/rest/documents/oauth.ts), so the rule applied is
  // Query.oauthConsentUser's; these entries state the endpoints' verdicts, checked over HTTP by the matrix.
  'Query.oauthConsentUser': { rule: 'AUTHENTICATED', firstParty: true },
  'OAuth.authorize': { rule: 'AUTHENTICATED', firstParty: true, scope: 'read' },
  'OAuth.consent': { rule: 'AUTHENTICATED', firstParty: true, scope: 'read' },
  // social (src/modules/social): follows, requests, invitations, lists, notifications, timeline.
  // The follower side acts for the caller (AUTHENTICATED; the state machine refuses what is illegal);
  // everything about one's own followers, lists, inbox and feed is OWNER (args.userId = the caller).
  'Mutation.follow': { rule: 'AUTHENTICATED' },
  'Mutation.unfollow': { rule: 'AUTHENTICATED' },
  'Mutation.sendFollowRequest': { rule: 'AUTHENTICATED' },
  'Mutation.withdrawFollowRequest': { rule: 'AUTHENTICATED' },
  'Query.outgoingFollowRequests': { rule: 'OWNER' },
  'Query.incomingFollowRequests': { rule: 'OWNER' },
  'Mutation.approveFollowRequest': { rule: 'OWNER' },
  'Mutation.rejectFollowRequest': { rule: 'OWNER' },
  'Mutation.approveFollower': { rule: 'OWNER' },
  'Mutation.removeFollower': { rule: 'OWNER' },
  'Query.followInvite': { rule: 'OWNER' },
  'Mutation.issueFollowInvite': { rule: 'OWNER' },
  'Query.resolveFollowInvite': { rule: 'PUBLIC' }, // holding the token reveals its owner (by design)
  'Query.followLists': { rule: 'OWNER' },
  'Query.followingWithLists': { rule: 'OWNER' },
  'Mutation.createFollowList': { rule: 'OWNER' },
  'Mutation.updateFollowList': { rule: 'OWNER' },
  'Mutation.deleteFollowList': { rule: 'OWNER' },
  'Mutation.addFollowListMember': { rule: 'OWNER' },
  'Mutation.removeFollowListMember': { rule: 'OWNER' },
  'Query.notifications': { rule: 'OWNER' },
  'Query.unreadNotificationCount': { rule: 'OWNER' },
  'Query.unreadNotificationSummary': { rule: 'OWNER' },
  'Mutation.markNotificationsRead': { rule: 'OWNER' },
  'Query.timeline': { rule: 'OWNER' },
  'Subscription.notificationAdded': { rule: 'AUTHENTICATED' },
  'Subscription.timelineEntryAdded': { rule: 'AUTHENTICATED' },
  // scores & logs (src/modules/scores, src/modules/logs). Their reads are fields of User (below).
  'Mutation.importScores': { rule: 'OWNER' },
  'Mutation.importScoresCsv': { rule: 'OWNER' },
  'Mutation.migrateLegacyScores': { rule: 'OWNER' },
  'Mutation.deleteBatch': { rule: 'OWNER' },
  // the gates of the downloads (src/rest/export.ts runs them as fixed documents): the scores file is
  // the owner's (or an administrator's) even for a public player; the account document, the caller's own
  'Query.scoresExportUser': { rule: 'OWNER', scope: 'read' },
  'Query.accountExportUser': { rule: 'AUTHENTICATED', firstParty: true },
  // the gate of the profile image upload and removal (src/rest/profile-image.ts): the caller's own image, own token only
  'Query.profileImageOwner': { rule: 'AUTHENTICATED', scope: 'write', firstParty: true },
  // a batch's share card: as the batch's player (unknown batch → no target → the resolver's NOT_FOUND)
  'Query.batchCard': {
    rule: 'VISIBLE',
    target: async (a, ctx) => (await ctx.loaders.logs.batchRows.load(String(a.batchId)))?.userId,
  },
  // optimizer (src/modules/optimizer): memos are written by their owner; the plan, memos and
  // ticket advice are read as the player's scores are (User.bpiPlan … below); the import is admin.
  'Mutation.saveOptimizeMemo': { rule: 'OWNER' },
  'Mutation.deleteOptimizeMemo': { rule: 'OWNER' },
  'Mutation.importArrangementScores': { rule: 'ADMIN' },
  // REST compatibility routes: each runs a fixed GraphQL document (src/rest/documents/), so the rules
  // applied are those of the fields it reads (here Query.user, then User.recommended / User.dashboard);
  // these entries state the route's expected verdicts, which the authorization matrix checks over HTTP.
  'REST.recommended': { rule: 'VISIBLE', scope: 'read' }, // GET /api/v1/users/{userId}/stats/recommended → user(id) { recommended }
  'REST.charts': { rule: 'VISIBLE', scope: 'read' }, // GET /api/v1/users/{userId}/charts/{kind}.svg → user(id) { dashboard { radarSvg | … } }
  // GET /api/v1/users/{userId}/scores/export → scoresExportUser(userId): owner or administrator, even for a
  // public player (docs/portability.md)
  'REST.scoresExport': { rule: 'OWNER', scope: 'read' },
  // GET /api/v1/me/export → accountExportUser: the caller's whole account, with their own token only
  'REST.accountExport': { rule: 'AUTHENTICATED', scope: 'read', firstParty: true },
  // GET /api/v1/users/{userId}/cards/profile.png → user(id) { stats dashboard { radarSvg } }, as REST.charts;
  // /api/v1/batches/{batchId}/card.png → batchCard(batchId) (the batch's player)
  'REST.cards': { rule: 'VISIBLE', scope: 'read' },
  // PUT / DELETE /api/v1/me/profile-image → profileImageOwner: the caller's own image, with their own token only
  'REST.profileImageWrite': { rule: 'AUTHENTICATED', scope: 'write', firstParty: true },
  // GET /api/v1/users/{userId}/profile-image → user(id) { isPublic }: as the profile (User.profileImage is VISIBLE)
  'REST.profileImage': { rule: 'VISIBLE', scope: 'read' },

  // ── fields of User (PLAYER_TYPES): a nested user the viewer may not see (private, not self,
  // not an approved follower) keeps these PUBLIC fields and gets null for the VISIBLE ones.
  'User.id': userField('PUBLIC'), // the global id (Node)
  'User.databaseId': userField('PUBLIC'),
  'User.name': userField('PUBLIC'), // masked in follow lists by the users service (MASKED_USER_NAME)
  'User.isPublic': userField('PUBLIC'),
  'User.createdAt': userField('PUBLIC'),
  'User.isMasked': userField('PUBLIC'),
  'User.relationship': userField('PUBLIC'), // the viewer's own follow rows
  // users: profile
  'User.profileText': userField('VISIBLE'),
  'User.profileImage': userField('VISIBLE'),
  'User.gameId': userField('VISIBLE'),
  'User.socialId': userField('VISIBLE'),
  'User.role': userField('VISIBLE'),
  'User.follows': userField('VISIBLE'),
  'User.followers': userField('VISIBLE'),
  'User.following': userField('VISIBLE'),
  'User.statsPrivacy': userField('OWNER'),
  // stats
  'User.stats': userField('VISIBLE'),
  'User.areaRank': userField('VISIBLE'),
  'User.recommended': userField('VISIBLE'),
  'User.totalBpiHistory': userField('VISIBLE'),
  // the dashboard: every part behind this one entry (statsPrivacy applied by the service), the
  // review refused loudly to anyone but the owner (the root of a Dashboard carries userId)
  'User.dashboard': userField('VISIBLE'),
  'Dashboard.review': { rule: 'OWNER', deny: 'error', target: (_args, _ctx, root: { userId: string }) => root.userId },
  // rivals
  'User.compare': userField('VISIBLE'),
  'User.rivalry': userField('VISIBLE'),
  'User.publicFollowing': userField('VISIBLE'),
  'User.chartRanks': userField('VISIBLE'),
  'User.followingScoresOn': userField('VISIBLE'), // rows of private players only for callers who may see them (service)
  'User.followingBpiChanges': userField('VISIBLE'), // public followed players only
  'User.rivalSummary': userField('OWNER', 'error'),
  'User.followingChartStats': userField('OWNER', 'error'), // private players count but stay anonymous
  'User.nearLosses': userField('OWNER', 'error'),
  'User.suggestedRivals': userField('OWNER', 'error'),
  // scores
  'User.scores': userField('VISIBLE'),
  'User.bestOn': userField('VISIBLE'),
  'User.allDifficultyScores': userField('VISIBLE'),
  'User.chartHistory': userField('VISIBLE'),
  'User.chartHistoryByVersion': userField('VISIBLE'),
  'User.songHistory': userField('VISIBLE'),
  'User.bestEver': userField('VISIBLE'),
  'User.versionComparison': userField('VISIBLE'),
  'User.unplayedCharts': userField('VISIBLE'),
  'User.totalBpi': userField('VISIBLE'),
  // logs (batch: rivals overtaken are shown to the owner only, by the logs service)
  'User.batches': userField('VISIBLE'),
  'User.playDays': userField('VISIBLE'),
  'User.batch': userField('VISIBLE'),
  'User.scoreDetails': userField('VISIBLE'),
  'User.versionSummary': userField('VISIBLE'),
  // optimizer: a plan, memo or ticket advice shows the player's scores
  'User.bpiPlan': userField('VISIBLE'),
  'User.optimizeMemos': userField('VISIBLE'),
  'User.ticketRecommendation': userField('VISIBLE'),
  'User.ticketRecommendations': userField('VISIBLE'),
};

const byOwner = (field: string) => (_args: Record<string, unknown>, _ctx: Context, node: Record<string, unknown>) =>
  node[field] as string | undefined;

/**
 * Who may get an entity from `node(id:)` / `nodes(ids:)` (src/graphql/node.ts), by type: the
 * rule of the field or operation that shows it otherwise, target = the player it belongs to
 * (from the loaded object). A refused caller gets null, exactly as for an unknown id (a private
 * player's node is null for a caller who may not see them, as their VISIBLE fields are). Every
 * type implementing Node must have an entry (checked when the schema is built); the
 * authorization matrix checks the protected ones (NODE_CASES).
 */
export const NODE_RULES: Record<string, RuleEntry> = {
  User: { rule: 'VISIBLE', deny: 'null', target: byOwner('id') }, // as Query.user / User.*
  Chart: { rule: 'PUBLIC' },
  Song: { rule: 'PUBLIC' },
  SongNote: { rule: 'PUBLIC' }, // anonymous: the author is never exposed
  Play: { rule: 'VISIBLE', deny: 'null', target: byOwner('userId') }, // as User.chartHistory
  Batch: { rule: 'VISIBLE', deny: 'null', target: byOwner('userId') }, // as User.batches
  Notification: { rule: 'OWNER', deny: 'null', target: byOwner('recipientId') }, // as Query.notifications
  FollowList: { rule: 'OWNER', deny: 'null', target: byOwner('ownerId') }, // as Query.followLists
  BatchDetail: { rule: 'VISIBLE', deny: 'null', target: byOwner('userId') }, // as User.batch
  PlayDay: { rule: 'VISIBLE', deny: 'null', target: byOwner('userId') }, // as User.playDays
  OptimizeMemo: { rule: 'VISIBLE', deny: 'null', target: byOwner('userId') }, // as User.optimizeMemos
  // a play seen from the caller's timeline (viewerScore / isOvertaken are the caller's): the player's plays are VISIBLE as User.chartHistory
  TimelineEntry: { rule: 'VISIBLE', deny: 'null', target: byOwner('userId') },
};

/** UNAUTHENTICATED, saying what to do when the caller is a verified external identity with no account yet. */
/** Marks a field resolver as wrapped by the rule table (the authorization matrix checks it). */
export const RULED = Symbol('ruled');
