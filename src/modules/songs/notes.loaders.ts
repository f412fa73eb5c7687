import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import type { Chart, SongNote } from '../../generated/prisma/client';
import type { Page } from '../../graphql/connection';
import { NotesService } from './notes.service';
import type { SongNoteSort } from './notes.types';

/** Key of one chart's notes page: the chart plus the page arguments it shares with its siblings. */
export const notesPageKey = (chartId: number, sort: SongNoteSort, size: number, after: string | null) => JSON.stringify([chartId, sort, size, after]);

/** Loaders of the song-notes area (keys carry the viewer where the answer is per viewer). */
export function createNoteLoaders(db: Db) {
  return {
    /** key `${userId}:${noteId}` → has that user upvoted that note? */
    songNoteUpvoted: new DataLoader<string, boolean>(async (keys) => {
      const pairs = keys.map((k) => {
        const i = k.lastIndexOf(':');
        return { userId: k.slice(0, i), noteId: Number(k.slice(i + 1)) };
      });
      const rows = await db.songNoteUpvote.findMany({
        where: { OR: pairs },
        select: { userId: true, noteId: true },
      });
      const set = new Set(rows.map((r) => `${r.userId}:${r.noteId}`));
      return keys.map((k) => set.has(k));
    }),
    /** notesPageKey → one page of a chart's notes; charts asking for the same page shape share one batch. */
    songNotesPage: new DataLoader<string, Page<SongNote>>(async (keys) => {
      const groups = new Map<string, { sort: SongNoteSort; size: number; after: string | null; chartIds: number[] }>();
      for (const k of keys) {
        const [chartId, sort, size, after] = JSON.parse(k) as [number, SongNoteSort, number, string | null];
        const g = groups.get(JSON.stringify([sort, size, after])) ?? { sort, size, after, chartIds: [] };
        g.chartIds.push(chartId);
        groups.set(JSON.stringify([sort, size, after]), g);
      }
      const service = new NotesService(db);
      const pages = new Map<string, Page<SongNote>>();
      await Promise.all(
        [...groups.values()].map(async (g) => {
          const byChart = await service.pagesForCharts(g.chartIds, g.sort, g.size, g.after);
          for (const [chartId, page] of byChart) pages.set(notesPageKey(chartId, g.sort, g.size, g.after), page);
        }),
      );
      return keys.map((k) => pages.get(k) ?? new Error(`no page for ${k}`));
    }),
    /** Chart rows by id (the chart a note, pattern or ranking entry is about). */
    songsChartById: new DataLoader<number, Chart | null>(async (ids) => {
      const rows = await db.chart.findMany({ where: { id: { in: [...ids] } } });
      const map = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => map.get(id) ?? null);
    }),
  };
}
