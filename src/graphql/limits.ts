/**
 * Abuse limits of the GraphQL endpoint, as one gate (`checkOperation`) that every execution path
 * calls before anything runs — Apollo's pipeline through `limitsPlugin` (POST, GET, persisted
 * queries, any Accept type), the compiled executor (src/graphql/executor.ts) before it compiles,
 * and the WebSocket subscriptions (src/graphql/subscriptions.ts):
 * - one cost model (`analyseOperation`): 1 per field; a connection multiplies its children by its
 *   page size (`first`, default DEFAULT_PAGE_SIZE); any other list of objects by its `limit`
 *   argument or by a declared bound (LIST_BOUNDS, else GRAPHQL_LIST_COST); introspection counts
 *   (`__schema` a fixed INTROSPECTION_SCHEMA_COST, at most one per request); a page size held in
 *   a variable that is missing or not a number counts as the largest page. The estimate never
 *   fails and is never cached on failure;
 * - request-wide caps: depth (GRAPHQL_MAX_DEPTH), cost (GRAPHQL_MAX_COMPLEXITY), aliases
 *   (GRAPHQL_MAX_ALIASES), tokens (GRAPHQL_MAX_TOKENS, at parse) and query length
 *   (GRAPHQL_MAX_QUERY_LENGTH, src/http.ts), string arguments (GRAPHQL_MAX_STRING_LENGTH, longer
 *   ones named in STRING_LIMITS): refused with BAD_USER_INPUT naming the limit;
 * - rate limits (app.rateLimiter, src/ratelimit.ts): every mutation root field counts one write,
 *   reads costing ≥ GRAPHQL_EXPENSIVE_COMPLEXITY one expensive read, per client IP and per viewer:
 *   RATE_LIMITED with extensions.retryAfter (HTTP 429 + Retry-After).
 * The REST compatibility routes get the same read limit through `registerRestRateLimits`.
 */
import type { ApolloServerPlugin, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  GraphQLError,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  type ArgumentNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  visit,
} from 'graphql';
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
  /** Aliased fields per request, fragments expanded. */
  maxAliases: number;
  /** Default maximum length of a string argument or input field (STRING_LIMITS names the others). */
  maxStringLength: number;
  /** Cost multiplier of a list of objects without a page size or a declared bound. */
  listCost: number;
}

export function limitsFromConfig(c: App['config']): LimitsConfig {
  return {
    maxDepth: c.graphqlMaxDepth,
    maxComplexity: c.graphqlMaxComplexity,
    expensiveComplexity: c.graphqlExpensiveComplexity,
    writesPerMinute: c.rateLimitWritesPerMinute,
    expensiveReadsPerMinute: c.rateLimitExpensiveReadsPerMinute,
    maxAliases: c.graphqlMaxAliases,
    maxStringLength: c.graphqlMaxStringLength,
    listCost: c.graphqlListCost,
  };
}

/** Fixed cost of `__schema` (the whole schema is resolved); `__type` costs 1 plus its children. */
export const INTROSPECTION_SCHEMA_COST = 1000;
/** `__schema` fields per request (a client needs one). */
export const MAX_SCHEMA_FIELDS = 1;
/** A `limit` argument counts at most this much (the resolvers refuse more). */
const MAX_LIMIT_ARG = 100;

/**
 * Declared bounds of list fields that have no page size and are known to be small (`Type.field`):
 * their children count this many times instead of GRAPHQL_LIST_COST.
 */
export const LIST_BOUNDS: Record<string, number> = {
  'Song.charts': 10, // SP/DP × BEGINNER…LEGGENDARIA
  'Chart.arenaAverages': 10, // arena classes A1…A5, B1…B5
  'Chart.attributes': 20,
  'User.bestEver': 100, // every chart played: the largest of the user's lists
  'User.versionComparison': 100,
  'User.chartHistory': 50,
  'User.songHistory': 100,
  'User.totalBpiHistory': 100,
  // a plan has maxSteps (≤ 400, default 30) steps; counted as 100 so that reading five fields of
  // them makes the CPU-heavy plan an expensive read (rate-limited) while a full read stays allowed
  'BpiPlan.steps': 100,
  // at most 50 tickets, each a first page of 10 charts by default (counted as 20 below): 20 keeps a full read of 50 allowed
  'User.ticketRecommendations': 20,
};

/**
 * String arguments and input fields allowed beyond GRAPHQL_MAX_STRING_LENGTH (`Type.field.arg`
 * or `InputType.field`); Infinity = bounded by the body limit only (owner/admin uploads, which
 * their services cap themselves). Services still check the exact rules (e.g. a note's 2,000
 * characters after trimming); this is the bound before any of them runs.
 */
export const STRING_LIMITS: Record<string, number> = {
  'Mutation.importScoresCsv.csv': Infinity,
  'Mutation.migrateLegacyScores.data': Infinity,
  'Mutation.importDefinitions.json': Infinity,
  'Mutation.importRadarCategories.json': Infinity,
  'Mutation.importOfficialArena.json': Infinity,
  'Mutation.importArrangementScores.json': Infinity,
  'Mutation.postSongNote.body': 8000,
  'Mutation.editSongNote.body': 8000,
  'Mutation.issueOAuthClient.redirectUris': 2048,
  'CreateProfileInput.profileText': 2000,
  'UpdateProfileInput.profileText': 2000,
  'CreateProfileInput.profileImage': 2048,
  'UpdateProfileInput.profileImage': 2048,
};

/**
 * Mutations that take a whole upload (a CSV, a JSON document, thousands of rows): at most one of
 * them per request, however aliased — 30 aliases of one 3 MB variable would parse it 30 times.
 */
export const UPLOAD_FIELDS = new Set([
  'importScoresCsv',
  'importScores',
  'migrateLegacyScores',
  'importDefinitions',
  'importRadarCategories',
  'importOfficialArena',
  'importArrangementScores',
  'importChartAttributes',
]);

/** True when a value (variables, nested) holds a string with a NUL character: PostgreSQL text cannot store one. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  for (const v of Object.values(value as Record<string, unknown>)) if (containsNul(v, depth + 1)) return true;
  return false;
}

const NUL_MESSAGE = 'Text must not contain NUL (\\u0000) characters';

/** Depth of the deepest field path of an operation (root fields are depth 1), fragments expanded; introspection fields are left to graphql-js' MaxIntrospectionDepthRule. */
export function operationDepth(operation: OperationDefinitionNode, fragments: Record<string, FragmentDefinitionNode>): number {
  // Relative depth of a selection set; a fragment's is computed once (linear in the document,
  // however often fragments are spread: S_k spreading S_(k-1) twice stays 2·k walks, not 2^k).
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  const walk = (set: SelectionSetNode | undefined): number => {
    if (!set) return 0;
    let max = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        max = Math.max(max, 1 + walk(sel.selectionSet));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        max = Math.max(max, walk(sel.selectionSet));
      } else {
        const name = sel.name.value;
        const frag = fragments[name];
        // A fragment cycle is a validation error already; never loop on it here.
        if (!frag || visiting.has(name)) continue;
        let d = memo.get(name);
        if (d === undefined) {
          visiting.add(name);
          d = walk(frag.selectionSet);
          visiting.delete(name);
          memo.set(name, d);
        }
        max = Math.max(max, d);
      }
    }
    return max;
  };
  return walk(operation.selectionSet);
}

/** What the cost walk measures of an operation (for one set of page-size variables). */
export interface OperationCost {
  /** The cost (see the module comment). */
  cost: number;
  /** Fields with an alias, fragments expanded. */
  aliases: number;
  /** `__schema` fields, fragments expanded. */
  schemaFields: number;
  /** Root fields, fragments expanded (each mutation root field is one write). */
  rootFields: number;
  /** Mutation root fields that take an upload (UPLOAD_FIELDS), aliases and fragments expanded. */
  uploads: number;
  /** Names of variables holding page sizes (`first`, `limit`). */
  sizeVars: Set<string>;
}

interface Summary {
  cost: number;
  aliases: number;
  schemaFields: number;
  fields: number;
  uploads: number;
}

const ZERO: Summary = { cost: 0, aliases: 0, schemaFields: 0, fields: 0, uploads: 0 };

function isConnectionType(t: GraphQLCompositeType): boolean {
  return isObjectType(t) && t.name.endsWith('Connection') && 'edges' in t.getFields();
}

/**
 * THE cost model. Linear in the document's size whatever its fragments do (a fragment's summary
 * is computed once per type condition), never throws on variable values: a page size that is not
 * a usable number counts as the largest page.
 */
export function analyseOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null | undefined,
  listCost = 10,
): OperationCost {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  const vars = variables ?? {};
  const sizeVars = new Set<string>();
  const memo = new Map<string, Summary>();
  const visiting = new Set<string>();
  const mutationType = schema.getMutationType();

  const sizeArg = (args: readonly ArgumentNode[] | undefined, name: string, def: number | undefined, max: number): number | undefined => {
    const arg = args?.find((a) => a.name.value === name);
    if (!arg) return def;
    let v: unknown;
    if (arg.value.kind === Kind.VARIABLE) {
      sizeVars.add(arg.value.name.value);
      v = vars[arg.value.name.value];
      if (v === undefined || v === null) return def ?? max;
    } else if (arg.value.kind === Kind.INT) v = Number(arg.value.value);
    else if (arg.value.kind === Kind.NULL) return def;
    if (typeof v !== 'number' || !Number.isFinite(v)) return max;
    return Math.min(Math.max(Math.trunc(v), 1), max);
  };

  // `inherited`: the `limit` / `first` of a field returning one object (e.g. recommended(limit) →
  // weapons → data) bounds the first lists below it.
  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType, intro: boolean, inherited?: number): Summary => {
    let cost = 0;
    let aliases = 0;
    let schemaFields = 0;
    let fields = 0;
    let uploads = 0;
    for (const sel of set.selections) {
      let s: Summary;
      if (sel.kind === Kind.FIELD) {
        fields++;
        const name = sel.name.value;
        if (sel.alias) aliases++;
        if (parent === mutationType && UPLOAD_FIELDS.has(name)) uploads++;
        if (name === '__typename') continue;
        // graphql-js keeps the meta fields outside the root type's field map.
        const field: GraphQLField<unknown, unknown> | undefined =
          name === '__schema'
            ? (SchemaMetaFieldDef as GraphQLField<unknown, unknown>)
            : name === '__type'
              ? (TypeMetaFieldDef as GraphQLField<unknown, unknown>)
              : isObjectType(parent) || isInterfaceType(parent)
              ? parent.getFields()[name]
              : undefined;
        if (!field) continue; // validation reports unknown fields
        const inIntro = intro || name.startsWith('__');
        const named = getNamedType(field.type);
        const isList = isListType(getNullableType(field.type));
        const connection = isCompositeType(named) && isConnectionType(named);
        const ownLimit = connection ? undefined : sizeArg(sel.arguments, 'limit', undefined, MAX_LIMIT_ARG);
        const passDown = isList || connection ? undefined : (ownLimit ?? inherited);
        const child = sel.selectionSet && isCompositeType(named) ? walk(sel.selectionSet, named, inIntro, passDown) : ZERO;
        let own: number;
        if (name === '__schema') {
          own = INTROSPECTION_SCHEMA_COST + child.cost;
          schemaFields++;
        } else if (inIntro) {
          own = 1 + child.cost; // bounded by the schema and MaxIntrospectionDepthRule
        } else if (connection) {
          own = 1 + child.cost * sizeArg(sel.arguments, 'first', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)!;
        } else if (isList && isCompositeType(named) && !(name === 'edges' && isConnectionType(parent))) {
          const bound = ownLimit ?? inherited ?? LIST_BOUNDS[`${parent.name}.${name}`] ?? listCost;
          own = 1 + child.cost * bound;
        } else {
          own = 1 + child.cost;
        }
        cost += own;
        aliases += child.aliases;
        schemaFields += child.schemaFields;
        continue;
      }
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        s = cond && isCompositeType(cond) ? walk(sel.selectionSet, cond, intro, inherited) : ZERO;
      } else {
        const frag = fragments[sel.name.value];
        const cond = frag && schema.getType(frag.typeCondition.name.value);
        if (!frag || !cond || !isCompositeType(cond)) continue;
        const key = `${sel.name.value}|${intro ? 1 : 0}|${inherited ?? ''}`;
        const known = memo.get(key);
        if (known) s = known;
        else {
          if (visiting.has(key)) continue; // a cycle: a validation error
          visiting.add(key);
          s = walk(frag.selectionSet, cond, intro, inherited);
          visiting.delete(key);
          memo.set(key, s);
        }
      }
      cost += s.cost;
      aliases += s.aliases;
      schemaFields += s.schemaFields;
      fields += s.fields;
      uploads += s.uploads;
    }
    return { cost, aliases, schemaFields, fields, uploads };
  };

  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  const s = root ? walk(operation.selectionSet, root, false) : ZERO;
  return { cost: s.cost, aliases: s.aliases, schemaFields: s.schemaFields, rootFields: s.fields, uploads: s.uploads, sizeVars };
}

/** Cost of an operation for the given variables (tests, the benchmark). */
export function queryComplexity(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string, listCost?: number): number {
  const op = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (operationName === undefined || d.name?.value === operationName),
  );
  return op ? analyseOperation(schema, document, op, variables, listCost).cost : 0;
}

/** A limit refused before execution: BAD_USER_INPUT naming the limit, HTTP 400. */
export function limitError(message: string, code: string): GraphQLError {
  const err = badInput(message, [{ code, path: [], message }]);
  return new GraphQLError(message, { originalError: err, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}

const tooBig = (what: string, env: string, max: number, actual: number) => `Query ${what} ${actual} exceeds the maximum of ${max} (${env})`;

/** Longest string in a value (nested in lists and objects), for the inputs' length check. */
interface StringProblem {
  path: string;
  max: number;
  length: number;
}

/** Where each variable is used as (part of) an argument: its type there and its limit key. */
interface VariableUse {
  name: string;
  type: GraphQLInputType;
  key: string;
}

/** The string-length check of one operation: literals checked once, variable uses to check per request. */
interface StringPlan {
  literal: StringProblem | null;
  uses: VariableUse[];
}

/** A runtime input value against its type: strings by their limit, input objects by their fields' limits. */
function checkValue(value: unknown, type: GraphQLInputType, key: string, depth: number, def: number): StringProblem | null {
  if (depth > 16 || value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const max = STRING_LIMITS[key] ?? def;
    return value.length > max ? { path: key, max, length: value.length } : null;
  }
  const t = getNullableType(type);
  if (Array.isArray(value)) {
    const inner = isListType(t) ? t.ofType : t;
    if (value.length > 100_000) return { path: key, max: 100_000, length: value.length };
    for (const v of value) {
      const p = checkValue(v, inner, key, depth + 1, def);
      if (p) return p;
    }
    return null;
  }
  if (typeof value === 'object' && isInputObjectType(t)) {
    const fields = t.getFields();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const f = fields[k];
      if (!f) continue;
      const p = checkValue(v, f.type, `${t.name}.${k}`, depth + 1, def);
      if (p) return p;
    }
  }
  return null;
}

/**
 * Every string argument (literal or variable, nested in input objects and lists) against its
 * maximum length: STRING_LIMITS, else the default. Planned once per document and operation: the
 * literals are checked here, the variable uses listed for `checkVariables` at every request.
 */
function stringPlan(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Record<string, FragmentDefinitionNode>, def: number): StringPlan {
  const limitOf = (key: string) => STRING_LIMITS[key] ?? def;
  const uses: VariableUse[] = [];
  const literal = (node: ValueNode, type: GraphQLInputType, key: string, depth: number): StringProblem | null => {
    switch (node.kind) {
      case Kind.VARIABLE:
        uses.push({ name: node.name.value, type, key });
        return null;
      case Kind.STRING: {
        const max = limitOf(key);
        return node.value.length > max ? { path: key, max, length: node.value.length } : null;
      }
      case Kind.LIST: {
        const t = getNullableType(type);
        const inner = isListType(t) ? t.ofType : t;
        for (const v of node.values) {
          const p = literal(v, inner, key, depth + 1);
          if (p) return p;
        }
        return null;
      }
      case Kind.OBJECT: {
        const t = getNullableType(type);
        if (!isInputObjectType(t)) return null;
        const fields = t.getFields();
        for (const f of node.fields) {
          const fd = fields[f.name.value];
          if (!fd) continue;
          const p = literal(f.value, fd.type, `${t.name}.${f.name.value}`, depth + 1);
          if (p) return p;
        }
        return null;
      }
      default:
        return null;
    }
  };
  let found: StringProblem | null = null;
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType) => {
    for (const sel of set.selections) {
      if (found) return;
      if (sel.kind === Kind.FIELD) {
        if (!(isObjectType(parent) || isInterfaceType(parent))) continue;
        const field = parent.getFields()[sel.name.value];
        if (!field) continue;
        for (const a of sel.arguments ?? []) {
          const ad = field.args.find((x) => x.name === a.name.value);
          if (!ad) continue;
          const p = literal(a.value, ad.type, `${parent.name}.${field.name}.${ad.name}`, 0);
          if (p) {
            found = p;
            return;
          }
        }
        const named = getNamedType(field.type);
        if (sel.selectionSet && isCompositeType(named)) walk(sel.selectionSet, named);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        if (cond && isCompositeType(cond)) walk(sel.selectionSet, cond);
      } else {
        const frag = fragments[sel.name.value];
        if (!frag || seen.has(sel.name.value)) continue;
        seen.add(sel.name.value); // a fragment's arguments are the same wherever it is spread
        const cond = schema.getType(frag.typeCondition.name.value);
        if (cond && isCompositeType(cond)) walk(frag.selectionSet, cond);
      }
    }
  };
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  if (root) walk(operation.selectionSet, root);
  return { literal: found, uses };
}

/** The per-request part: each variable at each of its uses. */
function checkVariables(plan: StringPlan, vars: Record<string, unknown>, def: number): StringProblem | null {
  for (const u of plan.uses) {
    const p = checkValue(vars[u.name], u.type, u.key, 0, def);
    if (p) return p;
  }
  return null;
}

interface DocumentInfo {
  fragments: Record<string, FragmentDefinitionNode>;
  hasNul: boolean;
  /** Per operation name: depth, and the costs per page-size variable values (bounded). */
  ops: Map<string, { depth: number; strings: StringPlan; sizeVars?: string[]; costs: Map<string, OperationCost> }>;
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
    throw new GraphQLError(NUL_MESSAGE, { originalError: err, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
  }
  const opKey = rq.operationName ?? '';
  let op = info.ops.get(opKey);
  if (!op) {
    op = { depth: operationDepth(operation, info.fragments), strings: stringPlan(rq.schema, operation, info.fragments, limits.maxStringLength), costs: new Map() };
    if (info.ops.size < 16) info.ops.set(opKey, op);
  }
  if (op.depth > limits.maxDepth) throw limitError(tooBig('depth', 'GRAPHQL_MAX_DEPTH', limits.maxDepth, op.depth), 'max_depth');
  // The cost depends on the variables only through page sizes: cached per document + those values.
  const key = op.sizeVars ? op.sizeVars.map((v) => JSON.stringify(vars[v] ?? null)).join('|') : undefined;
  let cost = key === undefined ? undefined : op.costs.get(key);
  if (!cost) {
    cost = analyseOperation(rq.schema, document, operation, vars, limits.listCost);
    op.sizeVars ??= [...cost.sizeVars].sort();
    const k = op.sizeVars.map((v) => JSON.stringify(vars[v] ?? null)).join('|');
    if (op.costs.size < 64 && k.length < 512) op.costs.set(k, cost);
  }
  if (cost.aliases > limits.maxAliases) throw limitError(tooBig('aliases', 'GRAPHQL_MAX_ALIASES', limits.maxAliases, cost.aliases), 'max_aliases');
  if (cost.uploads > 1) {
    throw limitError(`At most one upload (${[...UPLOAD_FIELDS].join(', ')}) per request (found ${cost.uploads})`, 'max_uploads');
  }
  if (cost.schemaFields > MAX_SCHEMA_FIELDS) {
    throw limitError(`At most ${MAX_SCHEMA_FIELDS} __schema field per request (found ${cost.schemaFields})`, 'max_introspection');
  }
  const problem = op.strings.literal ?? checkVariables(op.strings, vars, limits.maxStringLength);
  if (problem) {
    const message = `Argument ${problem.path} is ${problem.length} characters long; the maximum is ${problem.max}`;
    const err = badInput(message, [{ code: 'too_big', path: problem.path.split('.'), message }]);
    throw new GraphQLError(message, { originalError: err, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
  }
  if (cost.cost > limits.maxComplexity) throw limitError(tooBig('complexity', 'GRAPHQL_MAX_COMPLEXITY', limits.maxComplexity, cost.cost), 'max_complexity');
  return cost;
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

/** Counts `n` hits per client IP and per viewer (when signed in); throws RATE_LIMITED past either. */
async function consumeBoth(app: App, policy: RateLimitPolicy, ip: string, viewerId: string | undefined, n: number): Promise<void> {
  await app.rateLimiter.consume(policy, `ip:${ip}`, n);
  if (viewerId) await app.rateLimiter.consume(policy, `user:${viewerId}`, n);
}

/**
 * One call of an MCP tool (src/rest/mcp.ts) against the same limits as GraphQL: a read tool is
 * one expensive read (its answers are per-player aggregates and lists), a write tool one write —
 * per client IP and per viewer, in the same buckets as GraphQL's. RATE_LIMITED past either.
 */
export function consumeToolCall(app: App, kind: 'read' | 'write', ip: string, viewerId: string | undefined, limits: LimitsConfig = limitsFromConfig(app.config)): Promise<void> {
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
 * THE gate every GraphQL operation passes before execution, whichever executor runs it
 * (Apollo's pipeline through `limitsPlugin`, or src/graphql/executor.ts): `measureOperation`,
 * then the write / expensive-read rate limits. Throws a GraphQLError carrying extensions.code and
 * extensions.http (status, Retry-After). Synchronous unless a rate limit has to be counted (then
 * a promise): most reads need no promise at all.
 */
export function checkOperation(app: App, limits: LimitsConfig, rq: OperationRequest): void | Promise<void> {
  return countOperation(app, limits, rq, measureOperation(limits, rq));
}

/** The rate-limit part of the gate, for an operation `measureOperation` passed. */
export function countOperation(app: App, limits: LimitsConfig, rq: OperationRequest, measured: OperationCost): void | Promise<void> {
  const ctx = rq.ctx;
  let policy: RateLimitPolicy | undefined;
  let hits = 1;
  if (rq.operation.operation === 'mutation' && limits.writesPerMinute > 0) {
    policy = WRITE_POLICY(limits.writesPerMinute);
    hits = Math.max(1, measured.rootFields); // aliased mutations: one write each
  } else if (rq.operation.operation === 'query' && measured.cost >= limits.expensiveComplexity && limits.expensiveReadsPerMinute > 0) {
    policy = READ_POLICY(limits.expensiveReadsPerMinute);
  }
  if (!policy) return;
  return consumeBoth(app, policy, ctx.ip, ctx.viewer?.id, hits).catch((err: unknown) => {
    throw err instanceof AppError ? toGraphQLError(err) : err;
  });
}

/**
 * The gate in Apollo's pipeline (src/http.ts), and the HTTP status of resolver-level rate limits:
 * a response carrying RATE_LIMITED is a 429 with Retry-After, as the gate's own refusals are.
 */
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

/** The Retry-After of the first RATE_LIMITED error among a response's errors (undefined: none). */
export function rateLimitedRetryAfter(errors: readonly unknown[] | undefined): number | undefined {
  for (const e of errors ?? []) {
    const original = e instanceof GraphQLError ? (e.originalError ?? e) : e;
    if (original instanceof AppError && original.code === 'RATE_LIMITED') return original.details?.retryAfter ?? 60;
  }
  return undefined;
}

/**
 * REST routes whose handlers are expensive reads (per-user aggregates, lists), by their route
 * pattern: the router matches every spelling of a path (`/%61pi/…`, `/api//v1/…`) to its
 * pattern, so the limit applies to all of them.
 */
const EXPENSIVE_REST = new Set(['/api/v1/users/:userId/profile', '/api/v1/users/:userId/stats/recommended', '/api/v1/users/:userId/charts/:file', '/api/v1/songs/notes/recent']);

/**
 * Guards of the HTTP routes, on the matched route rather than the raw URL: a NUL character
 * anywhere in the URL (raw or percent-encoded, any path) is 400 {message}; the expensive-read
 * limit answers 429 + Retry-After + {message}.
 */
export function registerRestRateLimits(fastify: FastifyInstance, app: App, limits: LimitsConfig = limitsFromConfig(app.config)): void {
  // Callback style: no promise on the requests that need no limit (every request passes here).
  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (req.url.includes('\u0000') || /%00/i.test(req.url)) {
      reply.code(400).send({ message: NUL_MESSAGE });
      return; // replied: the request ends here
    }
    if (limits.expensiveReadsPerMinute <= 0) return done();
    const route = req.routeOptions?.url;
    if (route === undefined || !EXPENSIVE_REST.has(route)) return done();
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
