/**
 * THE gate every GraphQL operation passes before execution, whichever executor runs it (Apollo's
 * pipeline through `limitsPlugin`, the compiled executor, WebSocket subscriptions): NUL, depth,
 * aliases, uploads, introspection, strings, plans per request, cost — refused with BAD_USER_INPUT
 * naming the limit — then the rate limits and CPU budgets (./budgets.ts).
 */
import type { ApolloServerPlugin, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { GraphQLError, Kind, visit, type DocumentNode, type FragmentDefinitionNode } from 'graphql';
import { badInput } from '../../errors';
import type { Platform as App, Context } from '../context';
import { countOperation, rateLimitedRetryAfter, type OperationRequest } from './budgets';
import type { LimitsConfig } from './config';
import { analyseOperation, MAX_SCHEMA_FIELDS, operationDepth, UPLOAD_FIELDS, type OperationCost } from './cost';
import { checkVariables, containsNul, NUL_MESSAGE, stringPlan, type StringPlan, type StringProblem } from './strings';

/** A limit refused before execution: BAD_USER_INPUT naming the limit, HTTP 400. */
export function limitError(message: string, code: string): GraphQLError {
  const err = badInput(message, [{ code, path: [], message }]);
  return new GraphQLError(message, {
    originalError: err,
    extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
  });
}

const tooBig = (what: string, env: string, max: number, actual: number) =>
  `Query ${what} ${actual} exceeds the maximum of ${max} (${env})`;

interface DocumentInfo {
  fragments: Record<string, FragmentDefinitionNode>;
  hasNul: boolean;
  /** Per operation name: depth, and the costs per page-size variable values (bounded). */
  ops: Map<string, OperationInfo>;
}

interface OperationInfo {
  depth: number;
  strings: StringPlan;
  sizeVars?: string[];
  costs: Map<string, OperationCost>;
  /**
   * Set once the operation passed every check that does not read the variables under these
   * limits, when its cost reads none of them (no page-size variable): a request then checks only
   * what the variables carry (NUL, string lengths), in the same order as the full gate.
   */
  passed?: { limits: LimitsConfig; cost: OperationCost };
}

/** Per parsed document (Apollo reuses the DocumentNode of a cached query string; so does the executor). */
const analysed = new WeakMap<DocumentNode, DocumentInfo>();

function documentInfo(document: DocumentNode): DocumentInfo {
  let info = analysed.get(document);
  if (info) return info;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  let hasNul = false;
  visit(document, {
    StringValue(node) {
      if (node.value.includes('\u0000')) hasNul = true;
    },
  });
  info = { fragments, hasNul, ops: new Map() };
  analysed.set(document, info);
  return info;
}

/** The static part of the gate (no rate limit): NUL, depth, aliases, introspection, strings, cost. Returns the cost. */
export function measureOperation(limits: LimitsConfig, rq: Omit<OperationRequest, 'ctx'>): OperationCost {
  const { operation, document } = rq;
  const info = documentInfo(document);
  const vars = rq.variables ?? {};
  if (info.hasNul || containsNul(vars)) {
    const err = badInput(NUL_MESSAGE, [{ code: 'invalid_string', path: [], message: NUL_MESSAGE }]);
    throw new GraphQLError(NUL_MESSAGE, {
      originalError: err,
      extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
    });
  }
  const opKey = rq.operationName ?? '';
  let op = info.ops.get(opKey);
  if (op?.passed !== undefined && op.passed.limits === limits) {
    const problem = checkVariables(op.strings, vars, limits.maxStringLength);
    if (problem) throw stringError(problem);
    return op.passed.cost;
  }
  if (!op) {
    op = {
      depth: operationDepth(operation, info.fragments),
      strings: stringPlan(rq.schema, operation, info.fragments, limits.maxStringLength),
      costs: new Map(),
    };
    if (info.ops.size < 16) info.ops.set(opKey, op);
  }
  if (op.depth > limits.maxDepth)
    throw limitError(tooBig('depth', 'GRAPHQL_MAX_DEPTH', limits.maxDepth, op.depth), 'max_depth');
  // The cost depends on the variables only through page sizes: cached per document + those values.
  const key = op.sizeVars ? op.sizeVars.map((v) => JSON.stringify(vars[v] ?? null)).join('|') : undefined;
  let cost = key === undefined ? undefined : op.costs.get(key);
  if (!cost) {
    cost = analyseOperation(rq.schema, document, operation, vars, limits.listCost);
    op.sizeVars ??= [...cost.sizeVars].sort();
    const k = op.sizeVars.map((v) => JSON.stringify(vars[v] ?? null)).join('|');
    if (op.costs.size < 64 && k.length < 512) op.costs.set(k, cost);
  }
  if (cost.aliases > limits.maxAliases)
    throw limitError(tooBig('aliases', 'GRAPHQL_MAX_ALIASES', limits.maxAliases, cost.aliases), 'max_aliases');
  if (cost.uploads > 1) {
    throw limitError(
      `At most one upload (${[...UPLOAD_FIELDS].join(', ')}) per request (found ${cost.uploads})`,
      'max_uploads',
    );
  }
  if (cost.schemaFields > MAX_SCHEMA_FIELDS) {
    throw limitError(
      `At most ${MAX_SCHEMA_FIELDS} __schema field per request (found ${cost.schemaFields})`,
      'max_introspection',
    );
  }
  const problem = op.strings.literal ?? checkVariables(op.strings, vars, limits.maxStringLength);
  if (problem) throw stringError(problem);
  if (cost.plans > limits.maxPlans) {
    throw limitError(
      `At most ${limits.maxPlans} plans (bpiPlan, saveOptimizeMemo) per request (GRAPHQL_MAX_PLANS; found ${cost.plans}): ask for fewer`,
      'max_plans',
    );
  }
  if (cost.cost > limits.maxComplexity)
    throw limitError(tooBig('complexity', 'GRAPHQL_MAX_COMPLEXITY', limits.maxComplexity, cost.cost), 'max_complexity');
  if (op.sizeVars!.length === 0) op.passed = { limits, cost };
  return cost;
}

/** A string argument over its maximum length: BAD_USER_INPUT naming it, HTTP 400. */
function stringError(problem: StringProblem): GraphQLError {
  const message = `Argument ${problem.path} is ${problem.length} characters long; the maximum is ${problem.max}`;
  const err = badInput(message, [{ code: 'too_big', path: problem.path.split('.'), message }]);
  return new GraphQLError(message, {
    originalError: err,
    extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
  });
}

/**
 * THE gate every GraphQL operation passes before execution, whichever executor runs it
 * (Apollo's pipeline through `limitsPlugin`, or src/graphql/executor.ts): `measureOperation`,
 * then the write / expensive-read rate limits. Throws a GraphQLError carrying extensions.code and
 * extensions.http (status, Retry-After). Synchronous unless a rate limit has to be counted (then
 * a promise): most reads need no promise at all.
 */
export function checkOperation(app: App, limits: LimitsConfig, rq: OperationRequest): void | Promise<void> {
  return countOperation(app, limits, rq, measureOperation(limits, rq));
}

/**
 * The gate in Apollo's pipeline (src/http.ts), and the HTTP status of resolver-level rate limits:
 * a response carrying RATE_LIMITED is a 429 with Retry-After, as the gate's own refusals are.
 */
export function limitsPlugin(app: App, limits: LimitsConfig = app.config.limits): ApolloServerPlugin<Context> {
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
        async willSendResponse(rc) {
          const body = rc.response.body;
          if (body.kind !== 'single') return;
          const retryAfter = rateLimitedRetryAfter(rc.errors);
          if (retryAfter === undefined) return;
          rc.response.http.status = 429;
          rc.response.http.headers.set('retry-after', String(retryAfter));
        },
      };
    },
  };
}
