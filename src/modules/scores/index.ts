import { defineArea } from '../area';
import { scoreNodes } from './scores.nodes';
import { createScoreLoaders, type ScoreLoaders } from './scores.loaders';
import { ScoresExportResolver, ScoresMutationResolver, ScoresUserResolver } from './scores.resolver';
import { PlayType, ScoreEntryType } from './scores.types';
import { bpiModelResolver } from '../shared/bpi-model';
import { ChartFieldsEdgesResolver, PlayEdgesResolver } from './scores.edges';
import { ScoresService } from './scores.service';
import { recomputeAll } from './totals.service';

/**
 * Scores: imports (rows, export files, the older app's data), plays and bests, the total BPI per
 * player and version (the one implementation, totals.service.ts). Depends on the catalogue.
 */
export const scoresArea = defineArea({
  name: 'scores',
  resolvers: [
    ScoresMutationResolver,
    ScoresExportResolver,
    ScoresUserResolver,
    bpiModelResolver(ScoreEntryType),
    bpiModelResolver(PlayType),
    ChartFieldsEdgesResolver,
    PlayEdgesResolver,
  ],
  loaders: createScoreLoaders,
  nodes: scoreNodes,
  services: (s) => new ScoresService(s),
  recompute: [
    // After a definitions update: every player's total over their bests first (then the arena
    // averages). The bests' BPIs are derived on read from the reloaded catalogue; the step keeps
    // its name, which recomputeStatus shows.
    {
      name: 'bests and totals',
      order: 10,
      run: async ({ db, catalogue }, version, progress) => void (await recomputeAll(db, catalogue, version, progress)),
    },
  ],
});

declare module '../../graphql/context' {
  interface Services {
    scores: ScoresService;
  }
  interface Loaders {
    scores: ScoreLoaders;
  }
}
