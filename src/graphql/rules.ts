import { defaultFieldResolver, GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { forbidden, notFound, unauthenticated } from '../errors';
import type { Context } from './context';
import type { User } from '../generated/prisma/client';

/**
 * The one table of authorization rules. Every root operation (GraphQL Query/Mutation/
 * Subscription field, REST route) names its rule here; an operation missing from the table is
 * refused (fail closed). Resolvers never hand-roll access checks.
 *
 *  PUBLIC         anyone
 *  AUTHENTICATED  any signed-in caller
 *  OWNER          the target user is the caller
 *  VISIBLE        the target user is public, or is the caller, or the caller is an approved
 *                 follower of the (private) target
 *  ADMIN          administrators
 */
export type RuleName = 'PUBLIC' | 'AUTHENTICATED' | 'OWNER' | 'VISIBLE' | 'ADMIN';

export interface RuleEntry {
  rule: RuleName;
  /** Where the target user id comes from (OWNER / VISIBLE). */
  target?: (args: Record<string, any>, ctx: Context) => string | undefined | Promise<string | undefined>;
  /** OAuth scope needed by third-party apps (default: read for queries, write for mutations). */
  scope?: 'read' | 'write';
  /**
   * Only the user themself (own JWT or external ID token), never a third-party app holding an
   * OAuth token, whatever its scopes: credential management and consent.
   */
  firstParty?: boolean;
}

const byUserId = (args: Record<string, any>) => args.userId as string | undefined;

export const RULES: Record<string, RuleEntry> = {
  // songs / catalogue
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
  // songs: notes, fingering patterns, rankings (src/modules/songs/notes|patterns|rankings.*)
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
  // stats: the global total-BPI ranking (rows of players the caller may not see are anonymous)
  'Query.globalRanking': { rule: 'PUBLIC' },
  // users / profile
  'Query.user': { rule: 'VISIBLE', target: (a) => a.id },
  // unknown name → no target → passes, and the resolver answers null
  'Query.userByName': {
    rule: 'VISIBLE',
    target: async (a, ctx) => (await ctx.loaders.userByNameKey.load(String(a.name).toLowerCase()))?.id,
  },
  'Query.nameAvailability': { rule: 'PUBLIC' },
  // PUBLIC in the table: the caller is an external identity without a local user (ctx.identity),
  // which no rule names; the service requires that identity (UNAUTHENTICATED otherwise).
  'Mutation.createProfile': { rule: 'PUBLIC' },
  'Mutation.updateProfile': { rule: 'AUTHENTICATED' },
  'Mutation.deleteAccount': { rule: 'AUTHENTICATED', firstParty: true },
  'Mutation.importRadarCategories': { rule: 'ADMIN' },
  // auth: identity and the caller's own credentials (src/modules/auth)
  'Query.me': { rule: 'AUTHENTICATED' },
  'Mutation.exchangeApiKey': { rule: 'PUBLIC' },
  'Query.apiKeyStatus': { rule: 'AUTHENTICATED', firstParty: true },
  'Mutation.issueApiKey': { rule: 'AUTHENTICATED', firstParty: true },
  'Query.oauthClient': { rule: 'AUTHENTICATED', firstParty: true },
  'Mutation.issueOAuthClient': { rule: 'AUTHENTICATED', firstParty: true },
  'Mutation.deleteOAuthClient': { rule: 'AUTHENTICATED', firstParty: true },
  // OAuth authorization server endpoints that need a user (src/rest/oauth.ts)
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
  'Mutation.markNotificationsRead': { rule: 'OWNER' },
  'Query.timeline': { rule: 'OWNER' },
  'Subscription.notificationAdded': { rule: 'AUTHENTICATED' },
  'Subscription.timelineEntryAdded': { rule: 'AUTHENTICATED' },
  // scores & logs (src/modules/scores, src/modules/logs). Their reads are User fields (scores,
  // batches, recommended…): field resolvers apply the VISIBLE predicate through canView(ctx,
  // user.id) — the same function this table's VISIBLE rule uses — so no second table exists.
  'Mutation.importScores': { rule: 'OWNER' },
  'Mutation.importScoresCsv': { rule: 'OWNER' },
  'Mutation.migrateLegacyScores': { rule: 'OWNER' },
  'Mutation.deleteBatch': { rule: 'OWNER' },
  // REST compatibility routes (named like the GraphQL operation they call)
  'REST.recommended': { rule: 'VISIBLE', scope: 'read' }, // GET /api/v1/users/{userId}/stats/recommended → User.recommended
};

/** Adds rules (areas register theirs at import time, keeping the table in one place at run time). */
export function defineRules(entries: Record<string, RuleEntry>): void {
  for (const [k, v] of Object.entries(entries)) {
    if (RULES[k]) throw new Error(`duplicate rule for ${k}`);
    RULES[k] = v;
  }
}

/** Can the caller see this user's data? (public, self, or approved follower) */
export async function canView(ctx: Context, targetUserId: string): Promise<boolean> {
  const user = await ctx.loaders.userById.load(targetUserId);
  if (!user) throw notFound('User not found');
  if (user.isPublic) return true;
  if (!ctx.viewer) return false;
  if (ctx.viewer.id === targetUserId || ctx.viewer.isAdmin) return true;
  const follow = await ctx.loaders.approvedFollow.load(`${ctx.viewer.id}:${targetUserId}`);
  return follow;
}

/** The user when the caller may see them (canView), else null: players in lists and rankings are masked with it. */
export async function visibleUser(ctx: Context, userId: string): Promise<User | null> {
  return (await canView(ctx, userId)) ? ctx.loaders.userById.load(userId) : null;
}

/** UNAUTHENTICATED, saying what to do when the caller is a verified external identity with no account yet. */
function noViewer(ctx: Context) {
  return ctx.identity
    ? unauthenticated('This identity has no account yet: create your profile first (createProfile)')
    : unauthenticated();
}

/**
 * Enforces one rule for one operation. Throws UNAUTHENTICATED / FORBIDDEN / NOT_FOUND.
 * Synchronous for the rules that need no lookup (PUBLIC, AUTHENTICATED, ADMIN); a promise for
 * OWNER / VISIBLE (target and follow lookups). Callers `await` it either way.
 */
export function enforce(ctx: Context, operation: string, args: Record<string, any>, kind: 'read' | 'write'): void | Promise<void> {
  const entry = RULES[operation];
  if (!entry) throw forbidden(`No authorization rule for ${operation}`);
  const scope = entry.scope ?? kind;
  if (ctx.viewer?.scopes && entry.firstParty) {
    throw forbidden('Third-party application tokens cannot do this: use your own access token');
  }
  if (ctx.viewer?.scopes && !ctx.viewer.scopes.includes(scope)) {
    throw forbidden(`This token lacks the '${scope}' scope`);
  }
  switch (entry.rule) {
    case 'PUBLIC':
      return;
    case 'AUTHENTICATED':
      if (!ctx.viewer) throw noViewer(ctx);
      return;
    case 'ADMIN':
      if (!ctx.viewer) throw noViewer(ctx);
      if (!ctx.viewer.isAdmin) throw forbidden('Administrators only');
      return;
    case 'OWNER':
      if (!ctx.viewer) throw noViewer(ctx);
      return enforceOwner(ctx, ctx.viewer.id, entry, args);
    case 'VISIBLE':
      return enforceVisible(ctx, entry, args);
  }
}

async function enforceOwner(ctx: Context, viewerId: string, entry: RuleEntry, args: Record<string, any>): Promise<void> {
  const target = await (entry.target ?? byUserId)(args, ctx);
  if (target !== viewerId) throw forbidden('Only the owner may do this');
}

async function enforceVisible(ctx: Context, entry: RuleEntry, args: Record<string, any>): Promise<void> {
  const target = await (entry.target ?? byUserId)(args, ctx);
  if (!target) return;
  if (!(await canView(ctx, target))) throw forbidden('This profile is set as a private.');
}

const ROOTS: Record<string, 'read' | 'write'> = { Query: 'read', Mutation: 'write', Subscription: 'read' };

/**
 * Applies the table to every root field of the built schema (Query, Mutation, Subscription —
 * for a subscription both when it starts and for each event). Wrapping the root resolvers, not a
 * type-graphql global middleware, keeps the thousands of nested field resolutions of a large
 * response free of middleware (measured: nested read 155 → ~100 ms in process).
 */
export function applyRules(schema: GraphQLSchema): GraphQLSchema {
  for (const [typeName, kind] of Object.entries(ROOTS)) {
    const type = schema.getType(typeName);
    if (!(type instanceof GraphQLObjectType)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.name.startsWith('__')) continue;
      const operation = `${typeName}.${field.name}`;
      const resolve = field.resolve ?? defaultFieldResolver;
      // No promise of our own when the rule needs no lookup: the resolver's value as it is.
      field.resolve = (source, args, context: Context, info) => {
        const gate = enforce(context, operation, args, kind);
        return gate ? gate.then(() => resolve(source, args, context, info)) : resolve(source, args, context, info);
      };
      if (field.subscribe) {
        const subscribe = field.subscribe;
        field.subscribe = async (source, args, context: Context, info) => {
          await enforce(context, operation, args, kind);
          return subscribe(source, args, context, info);
        };
      }
    }
  }
  return schema;
}
