import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { notFound } from '../errors';
import { parseQuery, queryBool } from './query';
import { getRoute } from './route';
import { RestProfile } from './documents/profile';

const StatsEntry = z
  .object({
    version: z.string(),
    totalBpi: z.number().nullable(),
    arenaClass: z.string().nullable(),
    arenaRank: z.number().int().nullable(),
    area: z.string().nullable(),
  })
  .loose();
/** The query: validation and its OpenAPI parameters. */
const ProfileQuery = z.object({
  compare: queryBool('compare must be true or false').describe(
    'Add `compare`: win/loss against the caller (null without a token) and the radar',
  ),
});

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
    relationship: z
      .object({ isFollowing: z.boolean(), isFollowedBy: z.boolean(), isMutual: z.boolean(), isSelf: z.boolean() })
      .nullable(),
    role: z.object({ role: z.string(), description: z.string(), grantedAt: z.string() }).nullable(),
    stats: z.array(StatsEntry),
    areaRank: z.object({ area: z.string(), areaRank: z.number().int(), totalInArea: z.number().int() }).nullable(),
  }),
  compare: z
    .object({ winLoss: z.array(z.object({}).loose()).nullable(), radar: z.unknown() })
    .optional()
    .describe('only with compare=true'),
  statsPrivacy: z
    .object({ showArenaClass: z.boolean(), showArenaRank: z.boolean(), showArea: z.boolean(), showGrade: z.boolean() })
    .optional()
    .describe('only for the owner'),
});

/**
 * GET /api/v1/users/{userId}/profile?compare=true|false — the reference's profile read: the GraphQL
 * user(id) with its fields (document RestProfile; Query.user is VISIBLE, each field its User.* rule),
 * mapped to the seed's shape: isPublic as 0/1, role lower-case,
 * `compare` only with compare=true, `statsPrivacy` only for the owner (as the reference).
 * 404 {"message":"User not found"}; 403 {"message":"This profile is set as a private."}.
 */
export function registerProfile(fastify: FastifyInstance, app: App): void {
  getRoute(fastify, app, {
    url: '/api/v1/users/:userId/profile',
    document: RestProfile,
    doc: {
      summary: "A player's profile (the GraphQL User fields under the same rules)",
      description:
        "Bearer token optional: a public player's profile is open to anyone; a private player's needs their own token or an approved " +
        "follower's (403 otherwise). compare=true without a token answers compare with winLoss null (there is no caller to compare " +
        'with) and the radar; statsPrivacy only for the owner.',
      params: z.object({ userId: z.string() }),
      query: ProfileQuery,
      response: ProfileResponse,
      errors: { 403: 'This profile is set as a private.', 404: 'User not found' },
    },
    parse: (req) => {
      const { userId } = req.params as { userId: string };
      const { compare } = parseQuery(ProfileQuery, req.query);
      return { userId, compare: compare === true };
    },
    variables: ({ userId, compare }) => ({ userId, compare }),
    map: ({ user }, { compare: withCompare }) => {
      if (!user) throw notFound('User not found'); // the rule (Query.user, VISIBLE) answers NOT_FOUND first
      const { compare, statsPrivacy, ...p } = user;
      return {
        profile: {
          userId: p.userId,
          userName: p.userName,
          profileText: p.profileText,
          profileImage: p.profileImage,
          gameId: p.gameId,
          socialId: p.socialId,
          isPublic: p.isPublic ? 1 : 0,
          follows: p.follows ?? { followers: 0, following: 0 },
          relationship: p.relationship,
          role: p.role,
          stats: p.stats ?? [],
          areaRank: p.areaRank,
        },
        ...(withCompare
          ? { compare: compare ? { winLoss: compare.winLoss, radar: compare.radar } : { winLoss: null, radar: null } }
          : {}),
        ...(statsPrivacy ? { statsPrivacy } : {}),
      };
    },
  });
}
