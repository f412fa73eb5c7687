import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { badInput, type ErrorIssue } from '../errors';
import { RECENT_NOTES_PAGE_SIZE } from '../modules/notes/notes.service';
import { SongNoteSort } from '../modules/notes/notes.types';
import { getRoute } from './route';

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
 * page, page 0-based. The service of the GraphQL field recentSongNotes (rule Query.recentSongNotes),
 * its connection mapped to the reference's array; upvoted / editable are per caller (optional
 * bearer token).
 */
export function registerRecentNotes(fastify: FastifyInstance, app: App): void {
  getRoute(fastify, app, {
    url: '/api/v1/songs/notes/recent',
    rule: 'Query.recentSongNotes',
    parse: (req) => parseQuery((req.query ?? {}) as Record<string, unknown>),
    handle: async (ctx, { sort, page }) => {
      const { notes: service, catalogue } = ctx.services;
      const result = await service.listRecent(sort, { page, first: RECENT_NOTES_PAGE_SIZE });
      const notes = result.edges.map((e) => e.node);
      const charts = await Promise.all(notes.map((n) => catalogue.chart(n.chartId)));
      const songs = await Promise.all(charts.map((c, i) => (c ? catalogue.song(c.songId) : Promise.reject(new Error(`chart of note ${notes[i].id} missing`)))));
      return Promise.all(
        notes.map(async (n, i): Promise<RecentSongNoteJson> => ({
          id: n.id,
          body: n.body,
          authorTotalBpi: await service.authorTotalBpi(n), // live, as the reference
          upvoteCount: n.upvoteCount,
          upvoted: await service.upvoted(n),
          editable: service.editable(n),
          createdAt: n.createdAt.toISOString(),
          updatedAt: n.updatedAt.toISOString(),
          songId: n.chartId,
          songTitle: songs[i]!.title,
          difficulty: charts[i]!.difficulty,
          difficultyLevel: charts[i]!.level,
        })),
      );
    },
  });
}
