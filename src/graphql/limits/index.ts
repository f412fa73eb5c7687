/**
 * Abuse limits of the GraphQL endpoint and the REST routes, by topic (docs/limits-and-pool.md):
 * - ./cost.ts — the cost model (fields, pages, lists, introspection) and the operation's depth;
 * - ./heavy.ts — the prices of CPU-heavy fields by their inputs (plans, tickets, reviews, SVG, histories);
 * - ./strings.ts — string arguments' lengths and NUL characters;
 * - ./gate.ts — the gate every operation passes before it runs (static caps, BAD_USER_INPUT naming the limit);
 * - ./budgets.ts, ./cpu.ts — rate limits and CPU budgets per caller (RATE_LIMITED, 429 + Retry-After);
 * - ./rest.ts — the REST routes' guards.
 * The settings are one group of the configuration: `config.limits` (src/config.ts).
 */
export type { LimitsConfig } from './config';
export {
  analyseOperation,
  INTROSPECTION_SCHEMA_COST,
  LIST_BOUNDS,
  MAX_SCHEMA_FIELDS,
  operationDepth,
  queryComplexity,
  UPLOAD_FIELDS,
  type OperationCost,
} from './cost';
export { HEAVY_FIELDS, PLAN_CHARTS, planUnits } from './heavy';
export { containsNul, STRING_LIMITS } from './strings';
export { checkOperation, limitError, limitsPlugin, measureOperation } from './gate';
export { consumeToolCall, countOperation, rateLimitedRetryAfter, type OperationRequest } from './budgets';
export { consumeCpu } from './cpu';
export { registerRestRateLimits, restGuard, type RequestStep } from './rest';
