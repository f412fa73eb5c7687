import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../app';
import { cardVersionLabel, renderProfileCard, CARD_WIDTH, type ChartTheme } from '../domain/charts';
import { orThrow, parseStatsQuery, REST_NAMES } from '../domain/stats';
import { badInput, notFound } from '../errors';
import { documentsOf } from '../graphql/documents';
import { RestBatchCard, RestProfileCard } from './documents/cards';
import { ErrorBody, errorDocs, NOT_MODIFIED_DOC, type RouteDoc } from './openapi';
import { pngEtag, pngFor, type PngRunner } from './png';
import { pngTask } from './png.task';
import { fileRoute, sendCacheable } from './route';

/**
 * Share cards as PNG (docs/portability.md): GET /api/v1/users/{userId}/cards/profile.png (name,
 * total BPI, arena class, radar of a version) and GET /api/v1/batches/{batchId}/card.png (what
 * one import changed). 1200×630 by default (`width` 200–2400 scales it); `theme` light | dark.
 * Visibility as the SVG charts: a private player's card is 403 for a stranger. Each route runs a
 * fixed GraphQL document (src/rest/documents/cards.ts: RestProfileCard — user(id) { stats dashboard
 * { radarSvg } }, rule Query.user; RestBatchCard — batchCard(batchId), rule Query.batchCard) and
 * rasterises the card. Strong ETag over the card's SVG (If-None-Match → 304 without rendering);
 * renditions cached per ETag.
 */

const CardQuery = z.object({
  theme: z.enum(['light', 'dark']).optional(),
  width: z
    .string()
    .regex(/^\d+$/)
    .optional()
    .describe('Output width in pixels, 200–2400 (default 1200; height keeps 1200:630)'),
  version: z.string().optional().describe('Game version (profile card; default the latest)'),
});

function cardDoc(summary: string, params: z.ZodObject): RouteDoc {
  return {
    summary,
    tags: ['charts'],
    params,
    query: CardQuery,
    responses: {
      200: { description: 'The card', media: 'image/png' },
      304: NOT_MODIFIED_DOC,
      ...errorDocs({ 400: 'Bad query parameter', 403: 'Private player', 404: 'Unknown user or batch' }),
    },
    errors: ErrorBody,
    bearer: 'optional',
  };
}

/** theme and width of a picture request (shared with the chart PNGs). */
export function parsePictureQuery(raw: unknown): { theme: ChartTheme; width: number } {
  const q = (raw ?? {}) as Record<string, unknown>;
  const theme = q.theme ?? 'light';
  if (theme !== 'light' && theme !== 'dark')
    throw badInput('theme must be light or dark', [
      { code: 'invalid_enum_value', path: ['theme'], message: 'theme must be light or dark' },
    ]);
  const w =
    q.width === undefined ? CARD_WIDTH : typeof q.width === 'string' && /^\d+$/.test(q.width) ? Number(q.width) : NaN;
  if (!(w >= 200 && w <= 2400))
    throw badInput('width must be an integer 200–2400', [
      { code: 'too_big', path: ['width'], message: 'width must be an integer 200–2400' },
    ]);
  return { theme, width: w };
}

/** Renders in the app's worker pool (a render has no partial answer: the budget is generous). */
export const poolRunner =
  (app: Pick<App, 'pool'>): PngRunner =>
  (job) =>
    app.pool.run(pngTask, job, { budgetMs: 60_000 });

/** Sends an SVG as PNG: ETag from the SVG and size, 304 on a match, else the (cached) rendition. */
export async function sendPng(
  req: FastifyRequest,
  reply: FastifyReply,
  picture: { svg: string; width: number; height: number; isPublic: boolean },
  run: PngRunner,
) {
  const { svg, width, height, isPublic } = picture;
  const etag = pngEtag(svg, width, height);
  const cacheControl = `${isPublic ? 'public' : 'private'}, max-age=300`;
  return sendCacheable(req, reply, { etag, cacheControl }, async () =>
    reply
      .code(200)
      .header('content-type', 'image/png')
      .send(await pngFor(svg, width, etag, run)),
  );
}

const heightOf = (width: number) => Math.round((width * 630) / 1200);

export function registerCards(fastify: FastifyInstance, app: App): void {
  fileRoute(
    fastify,
    app,
    '/api/v1/users/:userId/cards/profile.png',
    cardDoc("A player's profile card (PNG)", z.object({ userId: z.string() })),
    async (ctx, req, reply) => {
      const { userId } = req.params as { userId: string };
      const { theme, width } = parsePictureQuery(req.query);
      const query = orThrow(
        parseStatsQuery(
          { version: (req.query as Record<string, string | undefined>)?.version ?? null, levels: [], difficulties: [] },
          REST_NAMES,
        ),
      );
      const { user } = await documentsOf(app).run(RestProfileCard, ctx, {
        userId,
        version: query.version,
        theme: theme === 'dark' ? 'DARK' : 'LIGHT',
      });
      if (!user) throw notFound('User not found'); // the rule (Query.user, VISIBLE) refuses first
      const entry = user.stats?.find((e) => e.version === query.version);
      const svg = renderProfileCard(
        {
          name: user.name,
          versionLabel: cardVersionLabel(query.version),
          totalBpi: entry?.totalBpi ?? null,
          arenaClass: entry?.arenaClass ?? null,
          radarSvg: user.dashboard?.radarSvg ?? null,
        },
        theme,
      );
      return sendPng(req, reply, { svg, width, height: heightOf(width), isPublic: user.isPublic }, poolRunner(app));
    },
  );

  fileRoute(
    fastify,
    app,
    '/api/v1/batches/:batchId/card.png',
    cardDoc("An import batch's card (PNG)", z.object({ batchId: z.string() })),
    async (ctx, req, reply) => {
      const { batchId } = req.params as { batchId: string };
      const { theme, width } = parsePictureQuery(req.query);
      const { batchCard } = await documentsOf(app).run(RestBatchCard, ctx, {
        batchId,
        theme: theme === 'dark' ? 'DARK' : 'LIGHT',
      });
      const { svg, isPublic } = batchCard;
      return sendPng(req, reply, { svg, width, height: heightOf(width), isPublic }, poolRunner(app));
    },
  );
}
