import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { effectiveCoef } from '../domain/bpi';
import { badInput, notFound, type ErrorIssue } from '../errors';
import { parseRecommendedQuery } from '../modules/stats/stats.service';
import { getRoute } from './route';
import { RestRecommended, type RecommendedData, type RecommendedItemData } from './documents/recommended';

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : String(v).split(',')).filter((s) => s !== '');

function intParam(q: Record<string, unknown>, name: string, issues: ErrorIssue[]): number | undefined {
  const v = q[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) {
    issues.push({ code: 'invalid_type', path: [name], message: `${name} must be an integer` });
    return undefined;
  }
  return Number(v);
}

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
      params: z.object({ userId: z.string() }),
      query: z.object({
        version: z.string().optional(),
        level: z.string().optional().describe('11, 12 or 11,12'),
        difficulty: z.string().optional().describe('HYPER, ANOTHER, LEGGENDARIA (comma list)'),
        limit: z.string().regex(/^\d+$/).optional().describe('1–100, default 10'),
        offset: z.string().regex(/^\d+$/).optional(),
      }),
      response: z.object({ weapons: RecommendedList, potential: RecommendedList }),
      errors: { 403: 'This profile is set as a private.', 404: 'User not found' },
    },
    parse: (req) => {
      const { userId } = req.params as { userId: string };
      const q = (req.query ?? {}) as Record<string, unknown>;
      const issues: ErrorIssue[] = [];
      const limit = intParam(q, 'limit', issues);
      const offset = intParam(q, 'offset', issues);
      const level = list(q.level).map((l) => {
        if (!/^\d+$/.test(l)) issues.push({ code: 'invalid_type', path: ['level'], message: 'level must be an integer' });
        return Number(l);
      });
      if (q.version !== undefined && typeof q.version !== 'string') issues.push({ code: 'invalid_type', path: ['version'], message: 'version must be a string' });
      if (issues.length) throw badInput(issues[0].message, issues);
      const args = { version: (q.version as string | undefined) ?? null, level, difficulty: list(q.difficulty), limit: limit ?? null, offset: offset ?? null };
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
