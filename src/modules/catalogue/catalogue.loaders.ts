import type { Db } from '../../db/client';
import type { Chart, ChartDefinition, Song } from '../../generated/prisma/client';
import { groupBy, inKeyOrder, loader } from '../../graphql/loaders';

/** Loaders of the catalogue area: `ctx.loaders.catalogue.<name>`. */
export function createCatalogueLoaders(db: Db) {
  return {
    /** song id → song */
    songs: loader<number, Song | null>(async (ids) => {
      const rows = await db.song.findMany({ where: { id: { in: [...ids] } } });
      return inKeyOrder(ids, new Map(rows.map((r) => [r.id, r])), null);
    }),
    /** chart id → chart row (the chart a note, pattern or ranking entry is about) */
    charts: loader<number, Chart | null>(async (ids) => {
      const rows = await db.chart.findMany({ where: { id: { in: [...ids] } } });
      return inKeyOrder(ids, new Map(rows.map((r) => [r.id, r])), null);
    }),
    /** song id → its public charts (no provisional one), SP before DP, by difficulty */
    chartsOfSong: loader<number, Chart[]>(async (ids) => {
      const rows = await db.chart.findMany({
        where: { songId: { in: [...ids] }, provisional: false },
        orderBy: [{ playStyle: 'asc' }, { difficulty: 'asc' }],
      });
      return inKeyOrder(
        ids,
        groupBy(rows, (r) => r.songId),
        [],
      );
    }),
    /** chart id → every published definition, oldest first */
    definitionHistory: loader<number, ChartDefinition[]>(async (ids) => {
      const rows = await db.chartDefinition.findMany({
        where: { chartId: { in: [...ids] } },
        orderBy: [{ definitionsVersion: 'asc' }, { id: 'asc' }],
      });
      return inKeyOrder(
        ids,
        groupBy(rows, (r) => r.chartId),
        [],
      );
    }),
  };
}

export type CatalogueLoaders = ReturnType<typeof createCatalogueLoaders>;
