import { RecommendedEntryType } from './stats.types';
import { bpiModelResolver } from '../shared/bpi-model';
import { defineArea } from '../area';
import { createStatsLoaders, type StatsLoaders } from './stats.loaders';
import { AreaRankResolver, RadarResolver, StatsResolver, StatsUserResolver } from './stats.resolver';
import {
  CrossStatsResolver,
  DashboardResolver,
  DashboardUserResolver,
  ReviewGrowthLineResolver,
  ReviewRivalResolver,
  StatsRankingEntryResolver,
} from './dashboard.resolver';
import { refreshRadarCache } from './radar-cache';
import { StatsService } from './stats.service';
import { SupportersResolver } from './supporters';

/**
 * Stats: a player's stats per version, area rank, radar, recommended charts, total-BPI trend,
 * and the global ranking. Depends on scores (bests) and the catalogue.
 */
export const statsArea = defineArea({
  name: 'stats',
  resolvers: [
    bpiModelResolver(RecommendedEntryType),
    StatsResolver,
    StatsUserResolver,
    RadarResolver,
    AreaRankResolver,
    DashboardUserResolver,
    DashboardResolver,
    CrossStatsResolver,
    StatsRankingEntryResolver,
    ReviewGrowthLineResolver,
    ReviewRivalResolver,
    SupportersResolver,
  ],
  loaders: createStatsLoaders,
  services: (s) => new StatsService(s),
  // RadarCache (the radar-category ranking) follows the bests: after each import / batch deletion,
  // and for every player of a version after a definitions update (the recompute job).
  recompute: [
    {
      name: 'radar cache',
      order: 50,
      run: async (deps, version, progress) => {
        const users = (
          await deps.db.bestScore.findMany({ where: { version }, distinct: ['userId'], select: { userId: true } })
        ).map((u) => u.userId);
        for (let i = 0; i < users.length; i += 200) {
          await refreshRadarCache(deps, users.slice(i, i + 200), version);
          progress(Math.min(i + 200, users.length), users.length);
        }
      },
    },
  ],
  listeners(deps) {
    // The bus logs a failure; returning the promise lets a CLI command wait for it (EventBus.settled).
    const refresh = (e: { userId: string; version: string }) => refreshRadarCache(deps, [e.userId], e.version);
    deps.events.on('scores.imported', refresh);
    deps.events.on('scores.batchDeleted', refresh);
  },
});

declare module '../../graphql/context' {
  interface Services {
    stats: StatsService;
  }
  interface Loaders {
    stats: StatsLoaders;
  }
}
