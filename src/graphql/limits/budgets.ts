/**
 * The rate limits of the gate (app.rateLimiter, src/ratelimit.ts: in memory, or cluster-wide with
 * REDIS_URL): writes, expensive reads, CPU budgets — RATE_LIMITED with extensions.retryAfter
 * (HTTP 429 + Retry-After).
 */
import { GraphQLError, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { AppError, HTTP_STATUS } from '../../errors';
import type { RateLimitPolicy } from '../../ratelimit';
import type { Platform as App, Context } from '../context';
import type { LimitsConfig } from './config';
import type { OperationCost } from './cost';
import { consumeCpu } from './cpu';

export function toGraphQLError(err: AppError): GraphQLError {
  const headers = new Map<string, string>();
  if (err.details?.retryAfter !== undefined) headers.set('retry-after', String(err.details.retryAfter));
  return new GraphQLError(err.message, {
    originalError: err,
    // Apollo merges extensions.http (status + a header Map) into the HTTP response.
    extensions: { code: err.code, http: { status: HTTP_STATUS[err.code], headers } },
  });
}

const WRITE_POLICY = (max: number): RateLimitPolicy => ({ name: 'graphql-write', max, windowSeconds: 60 });
const READ_POLICY = (max: number): RateLimitPolicy => ({ name: 'expensive-read', max, windowSeconds: 60 });
export const REST_READ_POLICY = (max: number): RateLimitPolicy => ({
  name: 'rest-expensive-read',
  max,
  windowSeconds: 60,
});

/** Counts `n` hits per client IP and per viewer (when signed in); throws RATE_LIMITED past either. */
async function consumeBoth(
  app: App,
  policy: RateLimitPolicy,
  ip: string,
  viewerId: string | undefined,
  n: number,
): Promise<void> {
  await app.rateLimiter.consume(policy, `ip:${ip}`, n);
  if (viewerId) await app.rateLimiter.consume(policy, `user:${viewerId}`, n);
}

/**
 * One call of an MCP tool (src/rest/mcp.ts) against the same limits as GraphQL: a read tool is
 * one expensive read (its answers are per-player aggregates and lists), a write tool one write —
 * per client IP and per viewer, in the same buckets as GraphQL's. RATE_LIMITED past either.
 */
export function consumeToolCall(
  app: App,
  kind: 'read' | 'write',
  ip: string,
  viewerId: string | undefined,
): Promise<void> {
  const limits = app.config.limits;
  const max = kind === 'write' ? limits.writesPerMinute : limits.expensiveReadsPerMinute;
  if (max <= 0) return Promise.resolve();
  return consumeBoth(app, kind === 'write' ? WRITE_POLICY(max) : READ_POLICY(max), ip, viewerId, 1);
}

/** What the gate needs to know of one GraphQL request (Apollo's plugin and the compiled executor). */
export interface OperationRequest {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName: string | null | undefined;
  variables: Record<string, unknown> | null | undefined;
  ctx: Context;
}

/**
 * The rate-limit part of the gate, for an operation `measureOperation` passed: a mutation counts
 * one write per root field; a query one expensive read per heavy field (at least one when its cost
 * reaches GRAPHQL_EXPENSIVE_COMPLEXITY); the heavy fields' work units count against the caller's
 * CPU budget (./cpu.ts).
 */
export function countOperation(
  app: App,
  limits: LimitsConfig,
  rq: OperationRequest,
  measured: OperationCost,
): void | Promise<void> {
  const ctx = rq.ctx;
  let policy: RateLimitPolicy | undefined;
  let hits = 1;
  if (rq.operation.operation === 'mutation' && limits.writesPerMinute > 0) {
    policy = WRITE_POLICY(limits.writesPerMinute);
    hits = Math.max(1, measured.rootFields); // aliased mutations: one write each
  } else if (
    rq.operation.operation === 'query' &&
    (measured.heavy > 0 || measured.cost >= limits.expensiveComplexity) &&
    limits.expensiveReadsPerMinute > 0
  ) {
    policy = READ_POLICY(limits.expensiveReadsPerMinute);
    hits = Math.max(1, measured.heavy);
  }
  if (!policy && measured.work === 0) return;
  const viewerId = ctx.viewer?.id;
  const counted = async () => {
    if (policy) await consumeBoth(app, policy, ctx.ip, viewerId, hits);
    if (measured.work > 0) await consumeCpu(app, limits, ctx.ip, viewerId, measured.work);
  };
  return counted().catch((err: unknown) => {
    throw err instanceof AppError ? toGraphQLError(err) : err;
  });
}

/** The Retry-After of the first RATE_LIMITED error among a response's errors (undefined: none). */
export function rateLimitedRetryAfter(errors: readonly unknown[] | undefined): number | undefined {
  for (const e of errors ?? []) {
    const original = e instanceof GraphQLError ? (e.originalError ?? e) : e;
    if (original instanceof AppError && original.code === 'RATE_LIMITED') return original.details?.retryAfter ?? 60;
  }
  return undefined;
}
