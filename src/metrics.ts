import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { inSpan } from './tracing';
import type { WorkerPool } from './workers/pool';

/**
 * Prometheus metrics of this process (prom-client), served at GET /metrics (src/http.ts).
 * Process-wide, as Prometheus scrapes each process: every series is this process's, and a cluster
 * is summed by the query (`sum by (operation) (rate(bpigraph_requests_total[5m]))`).
 *
 *   bpigraph_requests_total{kind,route,operation,status}   requests answered (kind: graphql | rest | other)
 *   bpigraph_request_duration_seconds{kind,route,operation} latency histogram (Fastify's reply time)
 *   bpigraph_graphql_errors_total{code}                    GraphQL errors by extensions.code
 *   bpigraph_dataloader_batch_size{loader}                 keys per DataLoader batch (src/graphql/loaders.ts)
 *   bpigraph_db_pool_connections{state}                    PostgreSQL pool: total | idle | waiting | max
 *   bpigraph_import_duration_seconds{kind}                 definitions / score imports
 *   bpigraph_recompute_duration_seconds{step}              each recompute step, and `all` for a whole run
 * plus prom-client's process and Node.js defaults (CPU, memory, event-loop lag, GC).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'bpigraph_' });

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const requestsTotal = new Counter({
  name: 'bpigraph_requests_total',
  help: 'HTTP requests answered, by kind (graphql, rest, other), route template, GraphQL operation name and status',
  labelNames: ['kind', 'route', 'operation', 'status'] as const,
  registers: [registry],
});

export const requestDuration = new Histogram({
  name: 'bpigraph_request_duration_seconds',
  help: 'HTTP request latency (until the reply is sent), by kind, route template and GraphQL operation name',
  labelNames: ['kind', 'route', 'operation'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const graphqlErrors = new Counter({
  name: 'bpigraph_graphql_errors_total',
  help: 'GraphQL errors sent to clients, by extensions.code',
  labelNames: ['code'] as const,
  registers: [registry],
});

export const dataloaderBatchSize = new Histogram({
  name: 'bpigraph_dataloader_batch_size',
  help: 'Keys per DataLoader batch (one SQL round trip each), by loader (area.name)',
  labelNames: ['loader'] as const,
  buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
  registers: [registry],
});

export const importDuration = new Histogram({
  name: 'bpigraph_import_duration_seconds',
  help: 'Import durations (definitions, scores), including the database transaction',
  labelNames: ['kind'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [registry],
});

export const recomputeDuration = new Histogram({
  name: 'bpigraph_recompute_duration_seconds',
  help: 'Recompute job durations: each step per version, and `all` for a whole run',
  labelNames: ['step'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [registry],
});

/** Pool statistics of the open PostgreSQL pools (pg.Pool totalCount / idleCount / waitingCount / options.max). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}
const pools = new Set<() => PoolStats>();

/** Registers a pool's statistics for the gauge; the returned function unregisters it (on close). */
export function trackPool(stats: () => PoolStats): () => void {
  pools.add(stats);
  return () => pools.delete(stats);
}

new Gauge({
  name: 'bpigraph_db_pool_connections',
  help: 'PostgreSQL connection pool use (state: total open, idle, waiting for a connection, max); absent on PGlite (one embedded connection)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    if (!pools.size) return;
    const sum = { total: 0, idle: 0, waiting: 0, max: 0 };
    for (const stats of pools) {
      const s = stats();
      sum.total += s.total;
      sum.idle += s.idle;
      sum.waiting += s.waiting;
      sum.max += s.max;
    }
    for (const [state, value] of Object.entries(sum)) this.set({ state }, value);
  },
});

/**
 * Runs `fn` and records its duration in `histogram` (also when it throws) — and, when tracing is
 * on (src/tracing.ts), in a span named after the histogram and labels (`import scores`,
 * `recompute bests and totals`), a child of the request or job that runs it.
 */
export async function timed<T>(histogram: Histogram<string>, labels: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer(labels);
  const what = (histogram as unknown as { name: string }).name.replace(/^bpigraph_|_duration_seconds$/g, '');
  try {
    return await inSpan([what, ...Object.values(labels)].join(' '), labels, fn);
  } finally {
    end();
  }
}

/** GraphQL operation names become label values: sane names only, and at most this many distinct ones (then `other`). */
const MAX_OPERATION_NAMES = 200;
const operationNames = new Set<string>();
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;
const FIRST_OPERATION = /^\s*(?:#[^\n]*\n\s*)*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

/** The label of a GraphQL request's operation: operationName, else the document's first operation name, else `anonymous`. */
export function operationLabel(operationName: unknown, query: unknown): string {
  let name = typeof operationName === 'string' && operationName ? operationName : undefined;
  if (!name && typeof query === 'string') name = FIRST_OPERATION.exec(query.slice(0, 2000))?.[1];
  if (!name) return 'anonymous';
  if (!NAME.test(name)) return 'invalid';
  if (operationNames.has(name)) return name;
  if (operationNames.size >= MAX_OPERATION_NAMES) return 'other';
  operationNames.add(name);
  return name;
}

export const cpuUnitsCounted = new Counter({
  name: 'bpigraph_cpu_budget_units_total',
  help: 'CPU work units (≈ ms) of heavy GraphQL fields counted against callers\' budgets, by caller kind (anonymous, user)',
  labelNames: ['caller'] as const,
  registers: [registry],
});

export const cpuBudgetRefusals = new Counter({
  name: 'bpigraph_cpu_budget_refusals_total',
  help: 'Requests refused (429) because the caller\'s CPU budget was spent, by caller kind (anonymous, user)',
  labelNames: ['caller'] as const,
  registers: [registry],
});

/** The worker pool whose queue /metrics shows (the latest created: one per process outside tests). */
let observedPool: WorkerPool | undefined;

/** Shows `pool`'s queue and counts in /metrics (read at scrape time: nothing per task). */
export function observePool(pool: WorkerPool): void {
  observedPool = pool;
}

new Gauge({
  name: 'bpigraph_worker_pool_tasks',
  help: 'CPU worker pool (src/workers/pool.ts): tasks by state (queued, running), the queue bound (max_queue) and the threads (size)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const s = observedPool?.stats();
    if (!s) return;
    this.set({ state: 'queued' }, s.queued);
    this.set({ state: 'running' }, s.busy);
    this.set({ state: 'max_queue' }, s.maxQueue);
    this.set({ state: 'size' }, s.size);
  },
});

new Gauge({
  name: 'bpigraph_worker_pool_outcomes',
  help: 'CPU worker pool tasks since start, by outcome (completed, rejected: queue full, timed_out: past budget + grace)',
  labelNames: ['outcome'] as const,
  registers: [registry],
  collect() {
    const s = observedPool?.stats();
    if (!s) return;
    this.set({ outcome: 'completed' }, s.completed);
    this.set({ outcome: 'rejected' }, s.rejected);
    this.set({ outcome: 'timed_out' }, s.timedOut);
  },
});
