import { ChartRankType, FollowingChartScoreType, NearLossType, RivalSideType } from './rivals.types';
import { bpiModelResolver } from '../shared/bpi-model';
import { defineArea } from '../area';
import { createRivalLoaders, type RivalLoaders } from './rivals.loaders';
import {
  FollowingChartScoreResolver,
  FollowingChartStatResolver,
  NearLossResolver,
  RivalryResolver,
  RivalsQueryResolver,
  SuggestedRivalResolver,
  RivalsFollowingResolver,
  RivalsUserResolver,
} from './rivals.resolver';
import { RivalsService } from './rivals.service';

/**
 * Rivals: comparisons of a player with the players they follow or look at (win/loss, rivals
 * passed in a period, followers passed by an import). Depends on scores and stats.
 */
export const rivalsArea = defineArea({
  name: 'rivals',
  resolvers: [
    bpiModelResolver(ChartRankType),
    bpiModelResolver(RivalSideType),
    bpiModelResolver(FollowingChartScoreType),
    bpiModelResolver(NearLossType),
    RivalsUserResolver,
    RivalryResolver,
    RivalsFollowingResolver,
    FollowingChartStatResolver,
    FollowingChartScoreResolver,
    NearLossResolver,
    SuggestedRivalResolver,
    RivalsQueryResolver,
  ],
  loaders: (db) => createRivalLoaders(db),
  services: (s) => new RivalsService(s),
});

declare module '../../graphql/context' {
  interface Services {
    rivals: RivalsService;
  }
  interface Loaders {
    rivals: RivalLoaders;
  }
}
