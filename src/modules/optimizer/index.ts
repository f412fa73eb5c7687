import { defineArea } from '../area';
import { createOptimizerLoaders, type OptimizerLoaders } from './optimizer.loaders';
import {
  ArrangementPatternResolver,
  BpiPlanStepResolver,
  OptimizeMemoResolver,
  OptimizerResolver,
  OptimizerUserResolver,
  TicketChartResolver,
} from './optimizer.resolver';
import { OptimizerService } from './optimizer.service';
import { optimizerNodes } from './optimizer.nodes';

/**
 * The BPI optimizer (docs/domain/optimizer.md: User.bpiPlan; the computation is src/domain/optimizer),
 * its memos (docs/domain/optimizer.md#memos) and lane-ticket advice over imported arrangement scores
 * (docs/domain/optimizer.md#lane-tickets). Depends on scores (bests), stats (radar, stored total),
 * patterns (votes) and the catalogue.
 */
export const optimizerArea = defineArea({
  name: 'optimizer',
  resolvers: [
    ArrangementPatternResolver,
    OptimizerResolver,
    OptimizerUserResolver,
    BpiPlanStepResolver,
    TicketChartResolver,
    OptimizeMemoResolver,
  ],
  loaders: createOptimizerLoaders,
  services: (s) => new OptimizerService(s),
  nodes: optimizerNodes,
});

declare module '../../graphql/context' {
  interface Services {
    optimizer: OptimizerService;
  }
  interface Loaders {
    optimizer: OptimizerLoaders;
  }
}
