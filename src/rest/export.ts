import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../app';
import { PlayStyle } from '../domain/constants';
import { badInput, notFound } from '../errors';
import { parseVersion } from '../graphql/args';
import type { Context } from '../graphql/context';
import { documentsOf } from '../graphql/documents';
import { accountDocument } from '../modules/users/account-backup';
import {
  batchManualChunks,
  bestPages,
  officialCsvChunks,
  playPages,
  type ExportQuery,
} from '../modules/scores/export.service';
import { RestAccountExport, RestScoresExport } from './documents/export';
import { ErrorBody, errorDocs, type RouteDoc } from './openapi';
import { fileRoute } from './route';

/**
 * Downloads (docs/portability.md): GET /api/v1/users/{userId}/scores/export — a player's bests
 * (history=true: every play) of a version as Tachi BATCH-MANUAL JSON or the official CSV layout.
 * Owner or administrator only, even for a public player: a public profile shows scores, but the
 * whole history in one file (with every play time) is the player's to hand out. Streamed. The gate
 * of each download is a fixed GraphQL document (src/rest/documents/export.ts: RestScoresExport,
 * RestAccountExport) through the one pipeline; the file then streams from the export services.
 */

const ExportQuerySchema = z.object({
  format: z
    .enum(['batch-manual', 'csv'])
    .optional()
    .describe('batch-manual (default) or csv (the official CSV layout)'),
  version: z.string().optional().describe('Game version (default: the latest)'),
  history: z.enum(['true', 'false']).optional().describe('true: every play (BATCH-MANUAL only); default: the bests'),
  playStyle: z.enum(['SP', 'DP']).optional().describe('SP (default) or DP'),
  bpi: z
    .enum(['true', 'false'])
    .optional()
    .describe('BATCH-MANUAL: BPI in optional.bpi (default true; false for Tachi)'),
});

const EXPORT_DOC: RouteDoc = {
  summary: "A player's scores as a file (Tachi BATCH-MANUAL JSON or the official CSV)",
  description:
    'Bests of one version (history=true: every play) as BATCH-MANUAL JSON (matchType songTitle, Tachi lamp names, ' +
    'timeAchieved in ms, judgements when known, optional.bp = misses, optional.bpi unless bpi=false) or, format=csv, ' +
    'the official score CSV layout (one line per song). Owner or administrator only. Streamed; Content-Disposition ' +
    'names the file. The importer (importScoresCsv, cli scores import) takes both back.',
  tags: ['portability'],
  params: z.object({ userId: z.string() }),
  query: ExportQuerySchema,
  responses: {
    200: { description: 'The file (application/json for batch-manual, text/csv for csv)', media: 'application/json' },
    ...errorDocs({
      400: 'Bad query parameter',
      401: 'No or invalid bearer token',
      403: 'Not the owner (nor an administrator)',
      404: 'Unknown user',
    }),
  },
  errors: ErrorBody,
  bearer: 'required',
};

const bool = (v: string | undefined, dflt: boolean) => (v === undefined ? dflt : v === 'true');

function parseExportQuery(raw: unknown): {
  format: 'batch-manual' | 'csv';
  version: string;
  history: boolean;
  playStyle: PlayStyle;
  bpi: boolean;
} {
  const r = ExportQuerySchema.safeParse(raw ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    const name = String(issue.path[0] ?? 'query');
    throw badInput(`${name}: ${issue.message}`, [{ code: 'invalid_value', path: [name], message: issue.message }]);
  }
  const q = r.data;
  const format = q.format ?? 'batch-manual';
  const history = bool(q.history, false);
  if (format === 'csv' && history) {
    const message = 'history=true needs format=batch-manual: the official CSV holds one line per song (bests only)';
    throw badInput(message, [{ code: 'invalid_value', path: ['history'], message }]);
  }
  return {
    format,
    version: parseVersion(q.version),
    history,
    playStyle: q.playStyle === 'DP' ? PlayStyle.DP : PlayStyle.SP,
    bpi: bool(q.bpi, true),
  };
}

/** Registers a streamed GET download (fileRoute): the file's headers, then its chunks as they come. */
export function downloadRoute(
  fastify: FastifyInstance,
  app: App,
  url: string,
  doc: RouteDoc,
  open: (
    ctx: Context,
    req: FastifyRequest,
  ) => Promise<{ type: string; filename: string; chunks: AsyncIterable<string> }>,
): void {
  fileRoute(fastify, app, url, doc, async (ctx, req, reply) => {
    const file = await open(ctx, req);
    return reply
      .code(200)
      .header('content-type', file.type)
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .header('cache-control', 'private, no-store')
      .send(Readable.from(file.chunks, { objectMode: false }));
  });
}

export function registerScoresExport(fastify: FastifyInstance, app: App): void {
  downloadRoute(fastify, app, '/api/v1/users/:userId/scores/export', EXPORT_DOC, async (ctx, req) => {
    const { userId } = req.params as { userId: string };
    const p = parseExportQuery(req.query);
    await documentsOf(app).run(RestScoresExport, ctx, { userId }); // the gate: owner or administrator
    const q: ExportQuery = { userId, version: p.version, playStyle: p.playStyle };
    const deps = { db: ctx.db, catalogue: app.catalogue };
    const base = `bpigraph-${p.version}-${p.playStyle}-${p.history ? 'history' : 'bests'}`;
    if (p.format === 'csv')
      return { type: 'text/csv; charset=utf-8', filename: `${base}.csv`, chunks: officialCsvChunks(deps, q) };
    const pages = p.history ? playPages(deps, q) : bestPages(deps, q);
    return {
      type: 'application/json; charset=utf-8',
      filename: `${base}.json`,
      chunks: batchManualChunks(pages, q, p.bpi),
    };
  });
}

const ACCOUNT_DOC: RouteDoc = {
  summary: 'Everything the account holds, as one JSON document',
  description:
    'Profile and settings, statuses, import batches, bests, every play (last, `scores`), follows both ways, requests, ' +
    'lists and memberships, notifications, notes, votes, optimizer memos, tower data; key values left out. The same ' +
    "document the account deletion writes as its backup. Streamed; the caller's own token only (not an OAuth app's).",
  tags: ['portability'],
  responses: {
    200: { description: 'The account document (application/json)', media: 'application/json' },
    ...errorDocs({ 401: 'No or invalid bearer token', 403: 'A third-party application token' }),
  },
  errors: ErrorBody,
  bearer: 'required',
};

/** GET /api/v1/me/export: the caller's account document (docs/portability.md). */
export function registerAccountExport(fastify: FastifyInstance, app: App): void {
  downloadRoute(fastify, app, '/api/v1/me/export', ACCOUNT_DOC, async (ctx) => {
    // the caller, first party only; existence first: the document's first read would fail after the 200 is sent
    const { accountExportUser: user } = await documentsOf(app).run(RestAccountExport, ctx, {});
    if (!user) throw notFound('User not found');
    const userId = user.databaseId;
    const day = new Date().toISOString().slice(0, 10);
    return {
      type: 'application/json; charset=utf-8',
      filename: `bpigraph-account-${day}.json`,
      chunks: accountDocument(ctx.db, userId),
    };
  });
}
