import type { Db } from '../../db/client';
import type { SongNote } from '../../generated/prisma/client';
import type { Page } from '../../graphql/connection';
import { LATEST_VERSION } from '../../domain/constants';
import { keyedLoader, loader } from '../../graphql/loaders';
import { pagesForCharts } from './notes.service';
import type { SongNoteSort } from './notes.types';

/** One chart's notes page: the chart plus the page arguments it shares with its siblings. */
export interface NotesPageKey {
  chartId: number;
  sort: SongNoteSort;
  size: number;
  after: string | null;
}

/** Has that user upvoted that note? */
export interface UpvoteKey {
  userId: string;
  noteId: number;
}

const upvoteKey = (k: UpvoteKey) => `${k.userId}\u0000${k.noteId}`;
const shapeKey = (k: Omit<NotesPageKey, 'chartId'>) => JSON.stringify([k.sort, k.size, k.after]);

/** Loaders of the notes area: `ctx.loaders.notes.<name>`. */
export function createNoteLoaders(db: Db) {
  return {
    upvoted: keyedLoader<UpvoteKey, boolean>(upvoteKey, async (keys) => {
      const rows = await db.songNoteUpvote.findMany({
        where: { OR: keys.map(({ userId, noteId }) => ({ userId, noteId })) },
        select: { userId: true, noteId: true },
      });
      const set = new Set(rows.map(upvoteKey));
      return keys.map((k) => set.has(upvoteKey(k)));
    }),
    /** A note author's current total BPI (latest game version), by author id (null: none). */
    authorTotalBpi: loader<string, number | null>(async (ids) => {
      const rows = await db.playerVersionStatus.findMany({
        where: { userId: { in: [...ids] }, version: LATEST_VERSION },
        select: { userId: true, totalBpi: true },
      });
      const by = new Map(rows.map((r) => [r.userId, r.totalBpi]));
      return ids.map((id) => by.get(id) ?? null);
    }),
    /** One page of a chart's notes; charts asking for the same page shape share one batch. */
    page: keyedLoader<NotesPageKey, Page<SongNote>>(
      (k) => `${k.chartId}\u0000${shapeKey(k)}`,
      async (keys) => {
        const groups = new Map<string, NotesPageKey[]>();
        for (const k of keys) groups.set(shapeKey(k), [...(groups.get(shapeKey(k)) ?? []), k]);
        const pages = new Map<NotesPageKey, Page<SongNote>>();
        await Promise.all(
          [...groups.values()].map(async (g) => {
            const byChart = await pagesForCharts(
              db,
              g.map((k) => k.chartId),
              g[0].sort,
              g[0].size,
              g[0].after,
            );
            for (const k of g) pages.set(k, byChart.get(k.chartId)!);
          }),
        );
        return keys.map((k) => pages.get(k) ?? new Error(`no page for chart ${k.chartId}`));
      },
    ),
  };
}

export type NoteLoaders = ReturnType<typeof createNoteLoaders>;
