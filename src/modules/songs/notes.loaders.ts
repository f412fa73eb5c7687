import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import type { Chart } from '../../generated/prisma/client';

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
    /** Chart rows by id (the chart a note, pattern or ranking entry is about). */
    songsChartById: new DataLoader<number, Chart | null>(async (ids) => {
      const rows = await db.chart.findMany({ where: { id: { in: [...ids] } } });
      const map = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => map.get(id) ?? null);
    }),
  };
}
