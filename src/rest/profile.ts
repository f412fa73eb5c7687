import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { badInput, notFound } from '../errors';
import { enforce } from '../graphql/rules';
import { UsersResolver } from '../modules/users/users.resolver';
import { getRoute } from './index';

const resolver = new UsersResolver();

/**
 * GET /api/v1/users/{userId}/profile?compare=true|false — the reference's profile read, built by
 * calling the GraphQL resolver methods (same rule: Query.user is VISIBLE) and mapped to the seed's
 * shape: isPublic as 0/1, role lower-case, `compare` only with compare=true, `statsPrivacy` only
 * for the owner (as the reference). 404 {"message":"User not found"}; 403 {"message":"This
 * profile is set as a private."}.
 */
export function registerProfile(fastify: FastifyInstance, app: App): void {
  getRoute(fastify, app, '/api/v1/users/:userId/profile', async (ctx, req) => {
    const { userId } = req.params as { userId: string };
    const q = (req.query ?? {}) as Record<string, unknown>;
    const cmp = q.compare;
    if (cmp !== undefined && cmp !== 'true' && cmp !== 'false') {
      throw badInput('compare must be true or false', [{ code: 'invalid_value', path: ['compare'], message: 'compare must be true or false' }]);
    }
    await enforce(ctx, 'Query.user', { id: userId }, 'read');
    const user = await resolver.user(userId, ctx);
    if (!user) throw notFound('User not found'); // the rule answers NOT_FOUND first
    const [profileText, profileImage, gameId, socialId, follows, relationship, role, stats, areaRank, statsPrivacy, compare] = await Promise.all([
      resolver.profileText(user, ctx),
      resolver.profileImage(user, ctx),
      resolver.gameId(user, ctx),
      resolver.socialId(user, ctx),
      resolver.follows(user, ctx),
      resolver.relationship(user, ctx),
      resolver.role(user, ctx),
      resolver.stats(user, ctx),
      resolver.areaRank(user, ctx),
      resolver.statsPrivacy(user, ctx),
      cmp === 'true' ? resolver.compare(user, null, ctx) : Promise.resolve(null),
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
        stats: stats ?? [],
        areaRank,
      },
      ...(cmp === 'true' ? { compare: compare ? { winLoss: compare.winLoss, radar: compare.radar } : { winLoss: null, radar: null } } : {}),
      ...(statsPrivacy ? { statsPrivacy } : {}),
    };
  });
}
