import { defineArea } from '../area';
import { ChartAttributesResolver, RankingsResolver } from './rankings.resolver';
import { PlayerChartScoreType, SongRankingEntryType } from './rankings.types';
import { bpiModelResolver } from '../shared/bpi-model';
import { CATALOGUE_CACHE } from '../catalogue/catalogue';
import { dropPopularityCounts, POPULARITY_CACHE, RankingsService } from './rankings.service';

/** Per-chart rankings, similar charts (attribute vectors), chart popularity, the profile song list. Depends on scores and the catalogue. */
export const rankingsArea = defineArea({
  name: 'rankings',
  resolvers: [
    RankingsResolver,
    ChartAttributesResolver,
    bpiModelResolver(SongRankingEntryType),
    bpiModelResolver(PlayerChartScoreType),
  ],
  services: (s) => new RankingsService(s),
  // Player counts per chart (TTL 60 s): dropped everywhere when the catalogue (chart levels) changes or an account is deleted.
  caches: ({ catalogue }) => [
    { name: POPULARITY_CACHE, invalidate: () => dropPopularityCounts(catalogue), follows: [CATALOGUE_CACHE] },
  ],
  listeners(deps) {
    deps.events.on('users.deleted', () => deps.caches.changed(POPULARITY_CACHE));
  },
});

declare module '../../graphql/context' {
  interface Services {
    rankings: RankingsService;
  }
}
