import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { badInput, type ErrorIssue } from '../errors';
import { RECENT_NOTES_PAGE_SIZE } from '../modules/notes/notes.service';
import { SongNoteSort } from '../modules/notes/notes.types';
import { getRoute } from './route';
import { RestRecentNotes } from './documents/recent-notes';

/** One item of the reference's recent-notes array (service-interface.md "Song note"). */
export interface RecentSongNoteJson {
  id: number;
  body: string;
  authorTotalBpi: number | null;
  upvoteCount: number;
  upvoted: boolean;
  editable: boolean;
  createdAt: string;
  updatedAt: string;
  /** The chart id: a reference "song" is one chart (title + difficulty). */
  songId: number;
  songTitle: string;
  difficulty: string;
  difficultyLevel: number;
}

/** The query as documented (src/rest/openapi.ts); parseQuery below gives the reference's error messages. */
const DocQuery = z.object({
  sort: z.enum(['latest', 'upvotes']).optional().describe('latest (default) or upvotes'),
  page: z.string().regex(/^\d{1,9}$/).optional().describe('0-based page of 20'),
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

function parseQuery(q: Record<string, unknown>): { sort: SongNoteSort; page: number } {
  const issues: ErrorIssue[] = [];
  const one = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);
  const sortRaw = one(q.sort);
  const pageRaw = one(q.page);
  let sort = SongNoteSort.LATEST;
  if (sortRaw !== undefined && sortRaw !== '') {
    if (sortRaw === 'latest') sort = SongNoteSort.LATEST;
    else if (sortRaw === 'upvotes') sort = SongNoteSort.UPVOTES;
    else issues.push({ code: 'invalid_value', path: ['sort'], message: 'sort must be latest or upvotes' });
  }
  let page = 0;
  if (pageRaw !== undefined && pageRaw !== '') {
    if (typeof pageRaw === 'string' && /^\d{1,9}$/.test(pageRaw)) page = Number(pageRaw);
    else issues.push({ code: 'invalid_type', path: ['page'], message: 'page must be an integer ≥ 0' });
  }
  if (issues.length) throw badInput('Invalid parameters', issues);
  return { sort, page };
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
    doc: { summary: 'Recent song notes across all charts, 20 per page', query: DocQuery, response: z.array(Note) },
    parse: (req) => parseQuery((req.query ?? {}) as Record<string, unknown>),
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
