import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import type { Chart, ChartDefinition, Song } from '../../generated/prisma/client';

export function createSongLoaders(db: Db) {
  return {
    songById: new DataLoader<number, Song | null>(async (ids) => {
      const rows = await db.song.findMany({ where: { id: { in: [...ids] } } });
      const map = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => map.get(id) ?? null);
    }),
    chartsBySongId: new DataLoader<number, Chart[]>(async (ids) => {
      const rows = await db.chart.findMany({
        where: { songId: { in: [...ids] } },
        orderBy: [{ playStyle: 'asc' }, { difficulty: 'asc' }],
      });
      return ids.map((id) => rows.filter((r) => r.songId === id));
    }),
    definitionHistoryByChartId: new DataLoader<number, ChartDefinition[]>(async (ids) => {
      const rows = await db.chartDefinition.findMany({
        where: { chartId: { in: [...ids] } },
        orderBy: [{ definitionsVersion: 'asc' }, { id: 'asc' }],
      });
      const map = new Map<number, ChartDefinition[]>();
      for (const r of rows) map.set(r.chartId, [...(map.get(r.chartId) ?? []), r]);
      return ids.map((id) => map.get(id) ?? []);
    }),
  };
}
