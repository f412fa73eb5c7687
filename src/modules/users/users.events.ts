import type { App } from '../../app';
import { recomputeArenaAverages } from '../songs/arena.service';

/**
 * Reactions of the profile area to its own committed writes: after an account deletion, the
 * cached arena-class averages of the charts the user had bests on are recomputed (their best
 * scores are gone), so rankings and averages stay consistent for everyone else.
 */
export function registerUserListeners(app: Pick<App, 'db' | 'catalogue' | 'events' | 'arenaAverages'>): void {
  app.events.on('users.deleted', async ({ bestCharts }) => {
    for (const { version, chartIds } of bestCharts) {
      if (chartIds.length === 0) continue;
      await recomputeArenaAverages(app.db, app.catalogue, version, chartIds);
      app.arenaAverages.invalidate(version);
    }
  });
}
