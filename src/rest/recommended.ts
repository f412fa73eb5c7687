import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { effectiveCoef } from '../domain/bpi';
import { badInput, type ErrorIssue } from '../errors';
import { enforce } from '../graphql/rules';
import { forbidden } from '../errors';
import { ScoresUserResolver } from '../modules/scores/scores.resolver';
import { parseRecommendedQuery } from '../modules/scores/scores.service';
import { getRoute } from './index';

const resolver = new ScoresUserResolver();

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
 * potential in the reference's shape ({weapons:{data,total}, potential:{data,total}}), computed by
 * the GraphQL field User.recommended. Visibility: rule REST.recommended (VISIBLE) → 403
 * {"message":"This profile is set as a private."}. limit 1–100 (default 10), offset ≥ 0, a known
 * version, level 11/12, difficulty HYPER/ANOTHER/LEGGENDARIA; anything else → 400 {message, errors}.
 */
export function registerRecommended(fastify: FastifyInstance, app: App): void {
  getRoute(fastify, app, '/api/v1/users/:userId/stats/recommended', async (ctx, req) => {
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
    const args = { version: (q.version as string | undefined) ?? null, level, difficulty: list(q.difficulty) as never, limit: limit ?? null, offset: offset ?? null };
    parseRecommendedQuery(args); // 400 before 403/404, as the reference
    await enforce(ctx, 'REST.recommended', { userId }, 'read');
    const r = await resolver.recommended({ id: userId }, args, ctx);
    if (!r) throw forbidden('This profile is set as a private.'); // the rule above already refused it
    const wire = (e: (typeof r.weapons.data)[number]) => ({
      songId: e.chartId,
      title: e.title,
      notes: e.notes,
      bpm: e.bpm,
      difficulty: e.difficulty,
      difficultyLevel: e.level,
      releasedVersion: e.releasedVersion,
      logId: e.logId,
      exScore: e.exScore,
      bpi: e.bpi,
      clearState: e.clearState,
      missCount: e.missCount,
      scoreAt: e.scoreAt.toISOString(),
      wrScore: e.wrScore,
      kaidenAvg: e.kaidenAvg,
      coef: effectiveCoef(e.coef),
    });
    return {
      weapons: { data: r.weapons.data.map(wire), total: r.weapons.total },
      potential: { data: r.potential.data.map(wire), total: r.potential.total },
    };
  });
}
