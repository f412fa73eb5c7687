import { defineArea } from '../area';
import { createPatternLoaders, type PatternLoaders } from './patterns.loaders';
import { PatternsResolver } from './patterns.resolver';
import { PatternsService } from './patterns.service';

/** Fingering patterns (lane arrangements) of charts and their votes. Depends on the catalogue. */
export const patternsArea = defineArea({
  name: 'patterns',
  resolvers: [PatternsResolver],
  loaders: createPatternLoaders,
  services: (s) => new PatternsService(s),
});

declare module '../../graphql/context' {
  interface Services {
    patterns: PatternsService;
  }
  interface Loaders {
    patterns: PatternLoaders;
  }
}
