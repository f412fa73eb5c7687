import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { parseQuery, queryEnum } from './query';
import { RECENT_NOTES_PAGE_SIZE } from '../modules/notes/notes.service';
import { SongNoteSort } from '../modules/notes/notes.types';
import { getRoute } from './route';
import { RestRecentNotes, type RecentNoteFields } from './documents/recent-notes';

/**
 * One item of the reference's recent-notes array (service-interface.md "Song note"): `id`, the
 * note's fields (body, authorTotalBpi, upvoteCount, upvoted, editable, createdAt, updatedAt), then
 * its chart's.
 */
export interface RecentSongNoteJson extends RecentNoteFields {
  id: number;
  /** The chart id: a reference "song" is one chart (title + difficulty). */
  songId: number;
  songTitle: string;
  difficulty: string;
  difficultyLevel: number;
}

/** The query: validation and its OpenAPI parameters. */
const NotesQuery = z.object({
  sort: queryEnum(['latest', 'upvotes'], 'sort must be latest or upvotes').describe('latest (default) or upvotes'),
  page: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce
        .number({ error: 'page must be an integer ≥ 0' })
        .int({ error: 'page must be an integer ≥ 0' })
        .min(0, { error: 'page must be an integer ≥ 0' })
        .max(999_999_999, { error: 'page must be an integer ≥ 0' }),
    )
    .optional()
    .describe('0-based page of 20'),
});
const Note = z.object({
  id: z.number().int(),
  body: z.string(),
  authorTotalBpi: z.number().nullable(),
  upvoteCount: z.number().int(),
  upvoted: z.boolean(),
  editable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  songId: z.number().int(),
  songTitle: z.string(),
  difficulty: z.string(),
  difficultyLevel: z.number().int(),
});

function parseNotesQuery(q: unknown): { sort: SongNoteSort; page: number } {
  const { sort, page } = parseQuery(NotesQuery, q, 'Invalid parameters');
  return { sort: sort === 'upvotes' ? SongNoteSort.UPVOTES : SongNoteSort.LATEST, page: page ?? 0 };
}

/**
 * GET /api/v1/songs/notes/recent?sort=latest|upvotes&page=N — notes across all charts, 20 per
 * page, page 0-based: the GraphQL recentSongNotes (document RestRecentNotes), its connection
 * mapped to the reference's array; upvoted / editable are per caller (optional bearer token).
 */
export function registerRecentNotes(fastify: FastifyInstance, app: App): void {
  getRoute(fastify, app, {
    url: '/api/v1/songs/notes/recent',
    document: RestRecentNotes,
    doc: { summary: 'Recent song notes across all charts, 20 per page', query: NotesQuery, response: z.array(Note) },
    parse: (req) => parseNotesQuery(req.query),
    variables: ({ sort, page }) => ({ sort, page, first: RECENT_NOTES_PAGE_SIZE }),
    map: (data) =>
      data.recentSongNotes.edges.map(({ node: n }): RecentSongNoteJson => ({
        id: n.databaseId,
        body: n.body,
        authorTotalBpi: n.authorTotalBpi,
        upvoteCount: n.upvoteCount,
        upvoted: n.upvoted,
        editable: n.editable,
        createdAt: n.createdAt,
        updatedAt: n.updatedAt,
        songId: n.chartId,
        songTitle: n.chart.song.title,
        difficulty: n.chart.difficulty,
        difficultyLevel: n.chart.level,
      })),
  });
}
