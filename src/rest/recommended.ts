import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { effectiveCoef } from '../domain/bpi';
import { notFound } from '../errors';
import { GAME_VERSIONS } from '../domain/constants';
import { parseQuery, queryEnum, queryInt, queryList } from './query';
import { parseRecommendedQuery } from '../modules/stats/stats.service';
import { getRoute } from './route';
import { RestRecommended, type RecommendedData, type RecommendedItemData } from './documents/recommended';

/** The query: validation and its OpenAPI parameters (the ranges are checked by parseRecommendedQuery, as GraphQL's). */
const RecommendedQuery = z.object({
  version: queryEnum(GAME_VERSIONS, 'Unknown game version').describe('Game version (default: the latest)'),
  level: queryList(
    z.coerce.number({ error: 'level must be an integer' }).int({ error: 'level must be an integer' }),
  ).describe('11 and/or 12: repeated or comma-separated'),
  difficulty: queryList(
    z.enum(['HYPER', 'ANOTHER', 'LEGGENDARIA'], { error: 'difficulty must be HYPER, ANOTHER or LEGGENDARIA' }),
  ).describe('Repeated or comma-separated'),
  limit: queryInt('limit must be an integer').describe('1–100, default 10'),
  offset: queryInt('offset must be an integer').describe('≥ 0, default 0'),
});

/**
 * GET /api/v1/users/{userId}/stats/recommended?version&level&difficulty&limit&offset — weapons and
 * potential in the reference's shape ({weapons:{data,total}, potential:{data,total}}): the GraphQL
 * user(id) { recommended } (document RestRecommended). Visibility: rule Query.user (VISIBLE) → 403
 * {"message":"This profile is set as a private."}. limit 1–100 (default 10), offset ≥ 0, a known
 * version, level 11/12, difficulty HYPER/ANOTHER/LEGGENDARIA; anything else → 400 {message, errors}.
 */
export function registerRecommended(fastify: FastifyInstance, app: App): void {
  getRoute(fastify, app, {
    url: '/api/v1/users/:userId/stats/recommended',
    document: RestRecommended,
    doc: {
      summary: 'Weapons and potential: the charts that raise total BPI most (the GraphQL User.recommended)',
      description:
        "Bearer token optional: a public player's list is open to anyone (as their profile and scores are); a private player's needs " +
        "their own token or an approved follower's (403 otherwise), the same rule as GraphQL user(id) { recommended }.",
      params: z.object({ userId: z.string() }),
      query: RecommendedQuery,
      response: z.object({ weapons: RecommendedList, potential: RecommendedList }),
      errors: { 403: 'This profile is set as a private.', 404: 'User not found' },
    },
    parse: (req) => {
      const { userId } = req.params as { userId: string };
      const q = parseQuery(RecommendedQuery, req.query);
      const args = {
        version: q.version ?? null,
        level: q.level ?? [],
        difficulty: q.difficulty ?? [],
        limit: q.limit ?? null,
        offset: q.offset ?? null,
      };
      parseRecommendedQuery(args); // 400 before 403/404, as the reference
      return { userId, args };
    },
    variables: ({ userId, args }) => ({ userId, ...args }),
    map: (data) => wireRecommended(data),
  });
}

const RecommendedItem = z.object({
  songId: z.number().int(),
  title: z.string(),
  notes: z.number().int(),
  bpm: z.string(),
  difficulty: z.string(),
  difficultyLevel: z.number().int(),
  releasedVersion: z.number().int().nullable(),
  logId: z.union([z.number(), z.string()]).nullable(),
  exScore: z.number().int().nullable(),
  bpi: z.number().nullable(),
  clearState: z.union([z.number(), z.string()]).nullable(),
  missCount: z.number().int().nullable(),
  scoreAt: z.string(),
  wrScore: z.number().int().nullable(),
  kaidenAvg: z.number().int().nullable(),
  coef: z.number().nullable(),
});
const RecommendedList = z.object({ data: z.array(RecommendedItem), total: z.number().int() });

/** The reference's item shape of weapons / potential (names from the document's aliases; coef: the effective exponent). */
function wireRecommended({ user }: RecommendedData) {
  if (!user?.recommended) throw notFound('User not found'); // the rule (Query.user, VISIBLE) refuses first
  const wire = (e: RecommendedItemData) => ({ ...e, coef: effectiveCoef(e.coef) });
  const { weapons, potential } = user.recommended;
  return {
    weapons: { data: weapons.data.map(wire), total: weapons.total },
    potential: { data: potential.data.map(wire), total: potential.total },
  };
}
