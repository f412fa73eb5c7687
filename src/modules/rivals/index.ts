import { defineArea } from '../area';
import { RivalsUserResolver } from './rivals.resolver';
import { RivalsService } from './rivals.service';

/**
 * Rivals: comparisons of a player with the players they follow or look at (win/loss, rivals
 * passed in a period, followers passed by an import). Depends on scores and stats.
 */
export const rivalsArea = defineArea({
  name: 'rivals',
  resolvers: [RivalsUserResolver],
  services: (s) => new RivalsService(s),
});

declare module '../../graphql/context' {
  interface Services {
    rivals: RivalsService;
  }
}
