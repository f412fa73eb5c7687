import { defineArea } from '../area';
import { createStatsLoaders, type StatsLoaders } from './stats.loaders';
import { StatsResolver, StatsUserResolver } from './stats.resolver';
import { StatsService } from './stats.service';

/**
 * Stats: a player's stats per version, area rank, radar, recommended charts, total-BPI trend,
 * and the global ranking. Depends on scores (bests) and the catalogue.
 */
export const statsArea = defineArea({
  name: 'stats',
  resolvers: [StatsResolver, StatsUserResolver],
  loaders: createStatsLoaders,
  services: (s) => new StatsService(s),
});

declare module '../../graphql/context' {
  interface Services {
    stats: StatsService;
  }
  interface Loaders {
    stats: StatsLoaders;
  }
}
