import { defineArea } from '../area';
import { ChartAttributesResolver, RankingsResolver } from './rankings.resolver';
import { RankingsService } from './rankings.service';

/** Per-chart rankings, similar charts (attribute vectors), chart popularity, the profile song list. Depends on scores and the catalogue. */
export const rankingsArea = defineArea({
  name: 'rankings',
  resolvers: [RankingsResolver, ChartAttributesResolver],
  services: (s) => new RankingsService(s),
});

declare module '../../graphql/context' {
  interface Services {
    rankings: RankingsService;
  }
}
