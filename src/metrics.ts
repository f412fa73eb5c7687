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
 *   bpigraph_tx_retries_total{kind}                        transactions run again after 40001 / 40P01
 *   bpigraph_recompute_duration_seconds{step}              each recompute step, and `all` for a whole run
 * plus prom-client's process and Node.js defaults (CPU, memory, event-loop lag, GC).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'bpigraph_' });

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A counter whose series are looked up once and then updated directly (`series(labels).value++`):
 * the request path keeps the handles per route (src/http.ts), where prom-client's Counter would
 * hash and validate the label set on every increment. Exposed by the registry like a Counter.
 */
export class SeriesCounter<L extends string> {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  private readonly all = new Map<string, { labels: Record<L, string>; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    register: Registry = registry,
  ) {
    register.registerMetric(this as never);
  }

  /** The series of `labels` (created at 0 on first use). */
  series(labels: Record<L, string>): { value: number } {
    const key = JSON.stringify(labels);
    let s = this.all.get(key);
    if (!s) this.all.set(key, (s = { labels: { ...labels }, value: 0 }));
    return s;
  }

  async get() {
    const values = [...this.all.values()].map((s) => ({ labels: s.labels, value: s.value }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const s of this.all.values()) s.value = 0;
  }
}

/** One series of a SeriesHistogram: `observe(v)` finds the bucket, no label lookup. */
export class HistogramSeries {
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    this.counts[i]++;
    this.sum += v;
    this.count++;
  }
}

/** A histogram with series handles (as SeriesCounter), exposed exactly as prom-client's Histogram. */
export class SeriesHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
    register: Registry = registry,
  ) {
    register.registerMetric(this as never);
  }

  series(labels: Record<L, string>): HistogramSeries {
    const key = JSON.stringify(labels);
    let s = this.all.get(key);
    if (!s) this.all.set(key, (s = new HistogramSeries({ ...labels }, this.buckets)));
    return s;
  }

  /** As prom-client's Histogram: the series labels merged into each value's labels. */
  async get() {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ labels, sharedLabels, ...v }) => ({ ...v, labels: { ...sharedLabels, ...labels } })),
    };
  }

  /** The registry's text form: series labels as shared labels (`le` first), as prom-client writes them. */
  async getForPromString() {
    const values: {
      labels: Record<string, string | number>;
      sharedLabels: Record<string, string>;
      value: number;
      metricName: string;
    }[] = [];
    for (const s of this.all.values()) {
      let acc = 0;
      this.buckets.forEach((le, i) => {
        acc += s.counts[i];
        values.push({ labels: { le }, sharedLabels: s.labels, value: acc, metricName: `${this.name}_bucket` });
      });
      values.push({
        labels: { le: '+Inf' },
        sharedLabels: s.labels,
        value: s.count,
        metricName: `${this.name}_bucket`,
      });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const s of this.all.values()) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}

export const requestsTotal = new SeriesCounter<'kind' | 'route' | 'operation' | 'status'>(
  'bpigraph_requests_total',
  'HTTP requests answered, by kind (graphql, rest, other), route template, GraphQL operation name and status',
);

export const requestDuration = new SeriesHistogram<'kind' | 'route' | 'operation'>(
  'bpigraph_request_duration_seconds',
  'HTTP request latency (until the reply is sent), by kind, route template and GraphQL operation name',
  LATENCY_BUCKETS,
);

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

export const txRetries = new Counter({
  name: 'bpigraph_tx_retries_total',
  help: 'Write transactions run again after a serialization failure or deadlock (40001 / 40P01), by kind',
  labelNames: ['kind'] as const,
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
export async function timed<T>(
  histogram: Histogram<string>,
  labels: Record<string, string>,
  fn: () => Promise<T>,
): Promise<T> {
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
const MEMO_QUERY_LENGTH = 4096;
const labelsByQuery = new Map<string, string>();
const FIRST_OPERATION = /^\s*(?:#[^\n]*\n\s*)*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

/** The label of a GraphQL request's operation: operationName, else the document's first operation name, else `anonymous`. */
export function operationLabel(operationName: unknown, query: unknown): string {
  const name = typeof operationName === 'string' && operationName ? operationName : undefined;
  if (!name && typeof query === 'string') {
    // A client sends the same few documents again and again: the label of a short one is remembered.
    const known = query.length <= MEMO_QUERY_LENGTH ? labelsByQuery.get(query) : undefined;
    if (known !== undefined) return known;
    const label = operationLabel(FIRST_OPERATION.exec(query.slice(0, 2000))?.[1], undefined);
    if (query.length <= MEMO_QUERY_LENGTH) {
      if (labelsByQuery.size >= MAX_OPERATION_NAMES) labelsByQuery.clear();
      labelsByQuery.set(query, label);
    }
    return label;
  }
  if (!name) return 'anonymous';
  if (!NAME.test(name)) return 'invalid';
  if (operationNames.has(name)) return name;
  if (operationNames.size >= MAX_OPERATION_NAMES) return 'other';
  operationNames.add(name);
  return name;
}

export const cpuUnitsCounted = new Counter({
  name: 'bpigraph_cpu_budget_units_total',
  help: "CPU work units (≈ ms) of heavy GraphQL fields counted against callers' budgets, by caller kind (anonymous, user)",
  labelNames: ['caller'] as const,
  registers: [registry],
});

export const cpuBudgetRefusals = new Counter({
  name: 'bpigraph_cpu_budget_refusals_total',
  help: "Requests refused (429) because the caller's CPU budget was spent, by caller kind (anonymous, user)",
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
