import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { badInput, notFound } from '../errors';
import type { Context } from '../graphql/context';
import { fieldVerdict } from '../graphql/rules';
import { formatGameId } from '../domain/profile';
import type { User } from '../generated/prisma/client';
import { getRoute } from './route';

const StatsEntry = z
  .object({ version: z.string(), totalBpi: z.number().nullable(), arenaClass: z.string().nullable(), arenaRank: z.number().int().nullable(), area: z.string().nullable() })
  .loose();
/** The 200 body (the OpenAPI document's schema of this route): fields the rules hide are null. */
const ProfileResponse = z.object({
  profile: z.object({
    userId: z.string(),
    userName: z.string(),
    profileText: z.string().nullable(),
    profileImage: z.string().nullable(),
    gameId: z.string().nullable(),
    socialId: z.string().nullable(),
    isPublic: z.union([z.literal(0), z.literal(1)]),
    follows: z.object({ followers: z.number().int(), following: z.number().int() }),
    relationship: z.object({ isFollowing: z.boolean(), isFollowedBy: z.boolean(), isMutual: z.boolean(), isSelf: z.boolean() }).nullable(),
    role: z.object({ role: z.string(), description: z.string(), grantedAt: z.string() }).nullable(),
    stats: z.array(StatsEntry),
    areaRank: z.object({ area: z.string(), areaRank: z.number().int(), totalInArea: z.number().int() }).nullable(),
  }),
  compare: z.object({ winLoss: z.array(z.object({}).loose()).nullable(), radar: z.unknown() }).optional().describe('only with compare=true'),
  statsPrivacy: z.object({ showArenaClass: z.boolean(), showArenaRank: z.boolean(), showArea: z.boolean(), showGrade: z.boolean() }).optional().describe('only for the owner'),
});

/** The value when the rule table lets the caller read `User.<field>` of this user, else null (as the GraphQL field). */
async function ruled<T>(ctx: Context, user: User, field: string, value: () => T | Promise<T>): Promise<T | null> {
  return (await fieldVerdict(ctx, `User.${field}`, user)) ? value() : null;
}

/**
 * GET /api/v1/users/{userId}/profile?compare=true|false — the reference's profile read, built
 * from the services behind the GraphQL User fields under the same rules (Query.user is VISIBLE;
 * each field's User.* rule) and mapped to the seed's shape: isPublic as 0/1, role lower-case,
 * `compare` only with compare=true, `statsPrivacy` only for the owner (as the reference).
 * 404 {"message":"User not found"}; 403 {"message":"This profile is set as a private."}.
 */
export function registerProfile(fastify: FastifyInstance, app: App): void {
  getRoute(fastify, app, {
    url: '/api/v1/users/:userId/profile',
    rule: 'Query.user',
    doc: {
      summary: "A player's profile (the GraphQL User fields under the same rules)",
      params: z.object({ userId: z.string() }),
      query: z.object({ compare: z.enum(['true', 'false']).optional() }),
      response: ProfileResponse,
      errors: { 403: 'This profile is set as a private.', 404: 'User not found' },
    },
    parse: (req) => {
      const { userId } = req.params as { userId: string };
      const cmp = ((req.query ?? {}) as Record<string, unknown>).compare;
      if (cmp !== undefined && cmp !== 'true' && cmp !== 'false') {
        throw badInput('compare must be true or false', [{ code: 'invalid_value', path: ['compare'], message: 'compare must be true or false' }]);
      }
      return { userId, compare: cmp === 'true' };
    },
    ruleArgs: ({ userId }) => ({ id: userId }),
    handle: async (ctx, { userId, compare: withCompare }) => {
      const user = await ctx.services.users.user(userId);
      if (!user) throw notFound('User not found'); // the rule answers NOT_FOUND first
      const { users, stats, rivals } = ctx.services;
      const [profileText, profileImage, gameId, socialId, follows, relationship, role, statsEntries, areaRank, statsPrivacy, compare] = await Promise.all([
        ruled(ctx, user, 'profileText', () => user.profileText),
        ruled(ctx, user, 'profileImage', () => user.profileImage),
        ruled(ctx, user, 'gameId', () => formatGameId(user.gameId)),
        ruled(ctx, user, 'socialId', () => user.socialId),
        ruled(ctx, user, 'follows', () => users.followCounts(user)),
        users.relationship(user),
        ruled(ctx, user, 'role', () => users.badge(user)),
        ruled(ctx, user, 'stats', () => stats.profileStats(user)),
        ruled(ctx, user, 'areaRank', () => stats.areaRank(user)),
        ruled(ctx, user, 'statsPrivacy', () => users.statsPrivacy(user)),
        withCompare ? ruled(ctx, user, 'compare', () => rivals.compare(user.id, null)) : Promise.resolve(null),
      ]);
      return {
        profile: {
          userId: user.id,
          userName: user.name,
          profileText,
          profileImage,
          gameId,
          socialId,
          isPublic: user.isPublic ? 1 : 0,
          follows: follows ?? { followers: 0, following: 0 },
          relationship,
          role,
          stats: statsEntries ?? [],
          areaRank,
        },
        ...(withCompare ? { compare: compare ? { winLoss: compare.winLoss, radar: compare.radar } : { winLoss: null, radar: null } } : {}),
        ...(statsPrivacy ? { statsPrivacy } : {}),
      };
    },
  });
}
