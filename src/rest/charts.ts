import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app';
import { orThrow, parseGroupBy, parseStatsQuery, parseStep, REST_NAMES } from '../domain/stats';
import { badInput, notFound } from '../errors';
import { contextForRequest } from '../graphql/context';
import { documentsOf } from '../graphql/documents';
import { RestChartSvg } from './documents/chart-svg';
import { sendRestError } from './errors';
import { z } from 'zod';
import { ErrorBody, errorDocs, NOT_MODIFIED_DOC, refuseOtherMethods, routeSchema } from './openapi';
import { sendCacheable } from './route';
import { frameSvg } from '../domain/charts';
import { parsePictureQuery, poolRunner, sendPng } from './cards';

const CHART_DOC = routeSchema({
  summary: "A player's dashboard picture (SVG, or PNG for sharing)",
  description:
    'radar.svg, trend.svg or distribution.svg from the same data as User.dashboard; the standard stats query, theme light|dark, ' +
    'groupBy (trend) and step (distribution). Strong ETag (If-None-Match → 304) and Cache-Control; visibility as GraphQL. ' +
    'The .png files are the same pictures rasterised on the server in a 1200×630 frame (width= 200–2400 scales it).',
  tags: ['charts'],
  params: z.object({
    userId: z.string(),
    file: z.enum(['radar.svg', 'trend.svg', 'distribution.svg', 'radar.png', 'trend.png', 'distribution.png']),
  }),
  query: z.object({
    version: z.string().optional(),
    level: z.union([z.string(), z.array(z.string())]).optional(),
    difficulty: z.union([z.string(), z.array(z.string())]).optional(),
    theme: z.enum(['light', 'dark']).optional(),
    groupBy: z.string().optional(),
    step: z.string().optional(),
    width: z.string().optional(),
  }),
  responses: {
    200: { description: 'The picture', media: 'image/svg+xml' },
    304: NOT_MODIFIED_DOC,
    ...errorDocs({
      400: 'Bad query parameter',
      403: 'Private player',
      404: 'Unknown user or chart',
      405: 'Method not allowed (Allow: GET)',
      429: 'Rate limited (Retry-After)',
    }),
  },
  errors: ErrorBody,
  bearer: 'optional',
});

export const CHART_KINDS = ['radar', 'trend', 'distribution'] as const;
type Kind = (typeof CHART_KINDS)[number];

const list = (v: unknown): string[] =>
  (v === undefined ? [] : Array.isArray(v) ? v.map(String) : String(v).split(',')).filter((s) => s !== '');
const one = (v: unknown, name: string): string | null => {
  if (v === undefined) return null;
  if (typeof v !== 'string')
    throw badInput(`${name} must be given once`, [
      { code: 'invalid_type', path: [name], message: `${name} must be given once` },
    ]);
  return v;
};

/**
 * GET /api/v1/users/{userId}/charts/{kind}.svg — the dashboard's pictures (kind: radar, trend,
 * distribution) from the same data as User.dashboard { radarSvg | trendSvg | bpiDistributionSvg }.
 * Query: the standard stats query (`version`, `level` repeatable, `difficulty` repeatable), `theme`
 * = light (default) | dark, `groupBy` (trend: day | week | month), `step` (distribution: 1, 2, 5,
 * 10). Bad input → 400 JSON naming the parameter; then the GraphQL user(id) { dashboard { radarSvg |
 * trendSvg | bpiDistributionSvg } } (document RestChartSvg; rule Query.user, VISIBLE): unknown user
 * → 404 JSON, private player → 403 JSON. 200: image/svg+xml with a strong ETag (a matching
 * If-None-Match → 304) and Cache-Control (public for a public player, private otherwise; Vary:
 * Authorization). The SVG holds no script and is served with a CSP that forbids any.
 */
export function registerCharts(fastify: FastifyInstance, app: App): void {
  const url = '/api/v1/users/:userId/charts/:file';
  refuseOtherMethods(fastify, url);
  fastify.route({
    method: 'GET', // HEAD: Fastify's own, from GET
    url,
    ...CHART_DOC,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      try {
        const { userId, file } = req.params as { userId: string; file: string };
        const q = () => (req.query ?? {}) as Record<string, unknown>;
        const m = /^([a-z]+)\.(svg|png)$/.exec(file);
        if (!m || !(CHART_KINDS as readonly string[]).includes(m[1]))
          throw notFound(`Unknown chart: expected ${CHART_KINDS.map((k) => `${k}.svg`).join(', ')} (or .png)`);
        const png = m[2] === 'png' ? parsePictureQuery({ width: q().width }) : null;
        const kind = m[1] as Kind;
        const themeArg = one(q().theme, 'theme') ?? 'light';
        if (themeArg !== 'light' && themeArg !== 'dark')
          throw badInput('theme must be light or dark', [
            { code: 'invalid_enum_value', path: ['theme'], message: 'theme must be light or dark' },
          ]);
        const query = orThrow(
          parseStatsQuery(
            { version: one(q().version, 'version'), levels: list(q().level), difficulties: list(q().difficulty) },
            REST_NAMES,
          ),
        );
        const groupBy = orThrow(parseGroupBy(one(q().groupBy, 'groupBy')));
        const stepRaw = one(q().step, 'step');
        const step = kind === 'distribution' ? orThrow(parseStep(stepRaw)) : 10;
        const ctx = await contextForRequest(app, req);
        const { user } = await documentsOf(app).run(RestChartSvg, ctx, {
          userId,
          version: query.version,
          levels: query.levels,
          difficulties: query.difficulties,
          theme: themeArg === 'dark' ? 'DARK' : 'LIGHT',
          groupBy: groupBy === 'week' ? 'WEEK' : groupBy === 'month' ? 'MONTH' : 'DAY',
          step,
          radar: kind === 'radar',
          trend: kind === 'trend',
          distribution: kind === 'distribution',
        });
        const d = user?.dashboard;
        const svg = kind === 'radar' ? d?.radarSvg : kind === 'trend' ? d?.trendSvg : d?.bpiDistributionSvg;
        if (!user || svg === undefined) throw notFound('User not found'); // the rule (Query.user, VISIBLE) refuses first
        if (png) {
          const picture = {
            svg: frameSvg(svg, 1200, 630, themeArg),
            width: png.width,
            height: Math.round((png.width * 630) / 1200),
            isPublic: user.isPublic,
          };
          return await sendPng(req, reply, picture, poolRunner(app));
        }
        const cache = {
          etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 32)}"`,
          cacheControl: `${user.isPublic ? 'public' : 'private'}, max-age=300`,
          headers: { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
        };
        return await sendCacheable(req, reply, cache, () =>
          reply.code(200).header('content-type', 'image/svg+xml; charset=utf-8').send(svg),
        );
      } catch (err) {
        return sendRestError(reply, err, app.log, true);
      }
    },
  });
}
