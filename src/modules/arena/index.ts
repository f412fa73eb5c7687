import { A_CLASSES } from '../../domain/constants';
import { defineArea } from '../area';
import { ArenaResolver, ChartArenaResolver } from './arena.resolver';
import { ArenaAverageCache } from './arena.cache';
import { ARENA_AVERAGES_CACHE, ArenaService, recomputeArenaAverages, refreshArenaAverages } from './arena.service';

/**
 * The official arena: ranking snapshots (class, rank, area of registered players) and the
 * arena-class averages per chart (kept in memory for the calculator; recomputed after
 * definitions updates, imports of A-class players and account deletions). Depends on the catalogue.
 */
export const arenaArea = defineArea({
  name: 'arena',
  resolvers: [ArenaResolver, ChartArenaResolver],
  setup: ({ db, catalogue }) => ({ arenaAverages: new ArenaAverageCache(db, catalogue) }),
  services: (s) => new ArenaService(s),
  recompute: [
    {
      name: 'arena averages',
      order: 50,
      run: async (deps, version, progress) => {
        progress(0, 1);
        await recomputeArenaAverages(deps.db, deps.catalogue, version);
        await deps.caches.changed(ARENA_AVERAGES_CACHE, { version });
        progress(1, 1);
      },
    },
  ],
  // The averages per version, in memory for the calculator: dropped in every process when a recompute or an import rewrote them.
  caches: ({ arenaAverages }) => [
    {
      name: ARENA_AVERAGES_CACHE,
      invalidate: (d) => arenaAverages.invalidate(typeof d?.version === 'string' ? d.version : undefined),
    },
  ],
  listeners(deps) {
    // An import by an A-class player changes the averages of the charts it improved.
    deps.events.on('scores.imported', async ({ userId, version, chartIds }) => {
      const status = await deps.db.playerVersionStatus.findUnique({
        where: { userId_version: { userId, version } },
        select: { arenaClass: true },
      });
      if (!status?.arenaClass || !A_CLASSES.includes(status.arenaClass) || chartIds.length === 0) return;
      await refreshArenaAverages(deps, version, chartIds);
    });
    // A deleted account's bests are gone: the charts it had bests on are recomputed, per version.
    deps.events.on('users.deleted', async ({ bestCharts }) => {
      for (const { version, chartIds } of bestCharts) {
        if (chartIds.length === 0) continue;
        await refreshArenaAverages(deps, version, chartIds);
      }
    });
  },
});

declare module '../../graphql/context' {
  interface Services {
    arena: ArenaService;
  }
}
