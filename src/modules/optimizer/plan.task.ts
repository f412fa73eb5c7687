/**
 * The plan's computation as a worker-pool task (src/workers/pool.ts): plain data in (the song set
 * with the player's bests, the settings, the radar), the domain's plan out. Within its time budget
 * the plan is the one `optimizePlan` answers on the event loop; past it, the best plan found so far
 * with `provenOptimal: false` (docs/limits-and-pool.md).
 */
import {
  optimizePlan,
  type OptimizationResult,
  type OptimizeSettings,
  type OptimizerChart,
  type RadarBpis,
} from '../../domain/optimizer';
import { defineTask } from '../../workers/task';

export interface PlanTaskInput {
  charts: OptimizerChart[];
  /** Sets survive the structured clone to the worker. */
  settings: OptimizeSettings;
  radar: RadarBpis | null;
}

export const planTask = defineTask(__filename, 'optimizePlan', (i: PlanTaskInput, ctx): OptimizationResult =>
  optimizePlan(i.charts, i.settings, i.radar, { shouldStop: ctx.expired }),
);
