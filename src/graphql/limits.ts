/**
 * Abuse limits of the GraphQL endpoint, as one gate (`checkOperation`) that both executors call —
 * Apollo's pipeline through `limitsPlugin`, the compiled executor (src/graphql/executor.ts) directly:
 * - query depth (GRAPHQL_MAX_DEPTH) and complexity (GRAPHQL_MAX_COMPLEXITY): refused before
 *   execution with BAD_USER_INPUT naming the limit and the measured value;
 * - rate limits (app.rateLimiter, src/ratelimit.ts) on every mutation and on expensive reads
 *   (complexity ≥ GRAPHQL_EXPENSIVE_COMPLEXITY), keyed per client IP and per viewer: RATE_LIMITED
 *   with extensions.retryAfter (HTTP 429 + Retry-After).
 * The REST compatibility routes get the same read limit through `registerRestRateLimits`.
 * Introspection fields (`__schema`, `__type`) are not counted: GRAPHQL_INTROSPECTION governs them.
 */
import type { ApolloServerPlugin, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  GraphQLError,
  Kind,
  getNamedType,
  isObjectType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { fieldExtensionsEstimator, getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Platform as App } from './context';
import { AppError, badInput, HTTP_STATUS } from '../errors';
import type { RateLimitPolicy } from '../ratelimit';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './connection';
import type { Context } from './context';

export interface LimitsConfig {
  maxDepth: number;
  maxComplexity: number;
  /** Reads at or above this complexity count against the expensive-read rate limit. */
  expensiveComplexity: number;
  /** Requests per minute; 0 disables the limit. */
  writesPerMinute: number;
  expensiveReadsPerMinute: number;
}

export function limitsFromConfig(c: App['config']): LimitsConfig {
  return {
    maxDepth: c.graphqlMaxDepth,
    maxComplexity: c.graphqlMaxComplexity,
    expensiveComplexity: c.graphqlExpensiveComplexity,
    writesPerMinute: c.rateLimitWritesPerMinute,
    expensiveReadsPerMinute: c.rateLimitExpensiveReadsPerMinute,
  };
}

/** True when a value (variables, nested) holds a string with a NUL character: PostgreSQL text cannot store one. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  for (const v of Object.values(value as Record<string, unknown>)) if (containsNul(v, depth + 1)) return true;
  return false;
}

function documentHasNul(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    StringValue(node) {
      if (node.value.includes('\u0000')) found = true;
    },
  });
  return found;
}

interface DocumentInfo {
  fragments: Record<string, FragmentDefinitionNode>;
  hasNul: boolean;
  /** Variables the cost depends on: values of `first` arguments and of directive arguments. */
  costVars: string[];
  depth: Map<string, number>;
  complexity: Map<string, number>;
}

/** Per parsed document (Apollo reuses the DocumentNode of a cached query string). */
const analysed = new WeakMap<DocumentNode, DocumentInfo>();

function analyse(document: DocumentNode): DocumentInfo {
  let info = analysed.get(document);
  if (info) return info;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  const costVars = new Set<string>();
  let inDirective = 0;
  visit(document, {
    Directive: { enter: () => void inDirective++, leave: () => void inDirective-- },
    Argument(node) {
      if (node.value.kind === Kind.VARIABLE && (inDirective > 0 || node.name.value === 'first')) costVars.add(node.value.name.value);
    },
  });
  info = { fragments, hasNul: documentHasNul(document), costVars: [...costVars].sort(), depth: new Map(), complexity: new Map() };
  analysed.set(document, info);
  return info;
}

const NUL_MESSAGE = 'Text must not contain NUL (\\u0000) characters';

/** Depth of the deepest field path of an operation (root fields are depth 1), fragments expanded. */
export function operationDepth(operation: OperationDefinitionNode, fragments: Record<string, FragmentDefinitionNode>): number {
  const walk = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>): number => {
    if (!set) return depth;
    let max = depth;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        max = Math.max(max, walk(sel.selectionSet, depth + 1, seen));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        max = Math.max(max, walk(sel.selectionSet, depth, seen));
      } else {
        const name = sel.name.value;
        const frag = fragments[name];
        // A fragment cycle is a validation error already; never loop on it here.
        if (!frag || seen.has(name)) continue;
        max = Math.max(max, walk(frag.selectionSet, depth, new Set(seen).add(name)));
      }
    }
    return max;
  };
  return walk(operation.selectionSet, 0, new Set());
}

/**
 * Cost of one field: 1 plus its children; a connection multiplies its children by the page
 * size asked for (`first`, default DEFAULT_PAGE_SIZE, capped at MAX_PAGE_SIZE: pageSize() refuses
 * larger ones anyway). Introspection fields cost nothing.
 */
const connectionEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  if (field.name.startsWith('__')) return 0;
  const named = getNamedType(field.type);
  if (isObjectType(named) && named.name.endsWith('Connection') && named.getFields().edges) {
    const first = typeof args.first === 'number' && args.first > 0 ? Math.min(args.first, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
    return 1 + childComplexity * first;
  }
  return 1 + childComplexity;
};

export function queryComplexity(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string): number {
  return getComplexity({
    schema,
    query: document,
    variables: variables ?? {},
    operationName,
    estimators: [fieldExtensionsEstimator(), connectionEstimator],
  });
}

function limitError(limit: 'depth' | 'complexity', max: number, actual: number): GraphQLError {
  const env = limit === 'depth' ? 'GRAPHQL_MAX_DEPTH' : 'GRAPHQL_MAX_COMPLEXITY';
  const message = `Query ${limit} ${actual} exceeds the maximum of ${max} (${env})`;
  const err = badInput(message, [{ code: `max_${limit}`, path: [], message }]);
  return new GraphQLError(message, { originalError: err, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}

function toGraphQLError(err: AppError): GraphQLError {
  const headers = new Map<string, string>();
  if (err.details?.retryAfter !== undefined) headers.set('retry-after', String(err.details.retryAfter));
  return new GraphQLError(err.message, {
    originalError: err,
    // Apollo merges extensions.http (status + a header Map) into the HTTP response.
    extensions: { code: err.code, http: { status: HTTP_STATUS[err.code], headers } } as Record<string, unknown>,
  });
}

const WRITE_POLICY = (max: number): RateLimitPolicy => ({ name: 'graphql-write', max, windowSeconds: 60 });
const READ_POLICY = (max: number): RateLimitPolicy => ({ name: 'expensive-read', max, windowSeconds: 60 });
const REST_READ_POLICY = (max: number): RateLimitPolicy => ({ name: 'rest-expensive-read', max, windowSeconds: 60 });

/** Counts one hit per client IP and one per viewer (when signed in); throws RATE_LIMITED past either. */
async function consumeBoth(app: App, policy: RateLimitPolicy, ip: string, viewerId: string | undefined): Promise<void> {
  await app.rateLimiter.consume(policy, `ip:${ip}`);
  if (viewerId) await app.rateLimiter.consume(policy, `user:${viewerId}`);
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
 * THE gate every GraphQL operation passes before execution, whichever executor runs it
 * (Apollo's pipeline through `limitsPlugin`, or src/graphql/executor.ts): NUL characters, depth,
 * complexity, then the write / expensive-read rate limits. Throws a GraphQLError carrying
 * extensions.code and extensions.http (status, Retry-After). Synchronous unless a rate limit has
 * to be counted (then a promise): most reads need no promise at all.
 */
export function checkOperation(app: App, limits: LimitsConfig, rq: OperationRequest): void | Promise<void> {
  const { operation, document } = rq;
  const info = analyse(document);
  if (containsNul(rq.variables) || info.hasNul) {
    const err = badInput(NUL_MESSAGE, [{ code: 'invalid_string', path: [], message: NUL_MESSAGE }]);
    throw new GraphQLError(NUL_MESSAGE, { originalError: err, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
  }
  const opKey = rq.operationName ?? '';
  let depth = info.depth.get(opKey);
  if (depth === undefined) info.depth.set(opKey, (depth = operationDepth(operation, info.fragments)));
  if (depth > limits.maxDepth) throw limitError('depth', limits.maxDepth, depth);
  // The cost depends on the variables only through page sizes and @include/@skip: cache per document + those values.
  const vars = rq.variables ?? {};
  const key = info.costVars.length ? `${opKey}|${info.costVars.map((v) => JSON.stringify(vars[v] ?? null)).join('|')}` : opKey;
  let complexity = info.complexity.get(key);
  if (complexity === undefined) {
    try {
      complexity = queryComplexity(rq.schema, document, vars, rq.operationName ?? undefined);
    } catch (err) {
      // Bad variable values surface in execution as BAD_USER_INPUT; never fail on the estimate.
      if (err instanceof GraphQLError) complexity = 0;
      else throw err;
    }
    if (info.complexity.size < 64 && key.length < 512) info.complexity.set(key, complexity);
  }
  if (complexity > limits.maxComplexity) throw limitError('complexity', limits.maxComplexity, complexity);

  const ctx = rq.ctx;
  let policy: RateLimitPolicy | undefined;
  if (operation.operation === 'mutation' && limits.writesPerMinute > 0) policy = WRITE_POLICY(limits.writesPerMinute);
  else if (operation.operation === 'query' && complexity >= limits.expensiveComplexity && limits.expensiveReadsPerMinute > 0) {
    policy = READ_POLICY(limits.expensiveReadsPerMinute);
  }
  if (!policy) return;
  return consumeBoth(app, policy, ctx.ip, ctx.viewer?.id).catch((err: unknown) => {
    throw err instanceof AppError ? toGraphQLError(err) : err;
  });
}

/** The gate in Apollo's pipeline (src/http.ts). */
export function limitsPlugin(app: App, limits: LimitsConfig = limitsFromConfig(app.config)): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc: GraphQLRequestContextDidResolveOperation<Context>) {
          if (!rc.operation) return;
          await checkOperation(app, limits, {
            schema: rc.schema,
            document: rc.document,
            operation: rc.operation,
            operationName: rc.operationName,
            variables: rc.request.variables,
            ctx: rc.contextValue,
          });
        },
      };
    },
  };
}

/** REST paths whose handlers are expensive reads (per-user aggregates, lists). */
const EXPENSIVE_REST = [/^\/api\/v1\/users\/[^/]+\/(profile|stats\/recommended)$/, /^\/api\/v1\/songs\/notes\/recent$/];

/**
 * Guards of the REST compatibility routes: a NUL character anywhere in the URL is 400 {message};
 * the expensive-read limit answers 429 + Retry-After + {message}.
 */
export function registerRestRateLimits(fastify: FastifyInstance, app: App, limits: LimitsConfig = limitsFromConfig(app.config)): void {
  // Callback style: no promise on the requests that need no limit (every request passes here).
  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!req.url.startsWith('/api/')) return done();
    if (/%00/i.test(req.url) || req.url.includes('\u0000')) {
      reply.code(400).send({ message: NUL_MESSAGE });
      return; // replied: the request ends here
    }
    if (limits.expensiveReadsPerMinute <= 0) return done();
    const path = req.url.split('?')[0];
    if (!EXPENSIVE_REST.some((re) => re.test(path))) return done();
    app.rateLimiter.consume(REST_READ_POLICY(limits.expensiveReadsPerMinute), `ip:${req.ip}`).then(
      () => done(),
      (err: unknown) => {
        if (!(err instanceof AppError)) return done(err as Error);
        reply
          .code(HTTP_STATUS[err.code])
          .header('retry-after', String(err.details?.retryAfter ?? 60))
          .send({ message: err.message });
      },
    );
  });
}
