/**
 * THE cost model (`analyseOperation`): 1 per field; a connection multiplies its children by its page
 * size (`first`, default DEFAULT_PAGE_SIZE); any other list of objects by its `limit` argument or a
 * declared bound (LIST_BOUNDS, else GRAPHQL_LIST_COST); introspection counts (`__schema` a fixed
 * INTROSPECTION_SCHEMA_COST); a page size held in a variable that is missing or not a number counts
 * as the largest page. Heavy fields (./heavy.ts) add their CPU work, priced by their inputs.
 */
import {
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  type ArgumentNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../connection';
import { argReader, HEAVY_FIELDS } from './heavy';

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

/** Depth of the deepest field path of an operation (root fields are depth 1), fragments expanded; introspection fields are left to graphql-js' MaxIntrospectionDepthRule. */
export function operationDepth(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
): number {
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
  /** Names of variables the cost depends on (page sizes `first` / `limit`, heavy fields' inputs). */
  sizeVars: Set<string>;
  /** Heavy fields (./heavy.ts), lists expanded: each counts one expensive read. */
  heavy: number;
  /** bpiPlan / saveOptimizeMemo fields (GRAPHQL_MAX_PLANS). */
  plans: number;
  /** CPU work units of the heavy fields (the caller's CPU budget); also part of `cost`. */
  work: number;
}

interface Summary {
  cost: number;
  aliases: number;
  schemaFields: number;
  fields: number;
  uploads: number;
  heavy: number;
  plans: number;
  work: number;
}

const ZERO: Summary = { cost: 0, aliases: 0, schemaFields: 0, fields: 0, uploads: 0, heavy: 0, plans: 0, work: 0 };

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

  const sizeArg = (
    args: readonly ArgumentNode[] | undefined,
    name: string,
    def: number | undefined,
    max: number,
  ): number | undefined => {
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
    let heavy = 0;
    let plans = 0;
    let work = 0;
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
            ? SchemaMetaFieldDef
            : name === '__type'
              ? TypeMetaFieldDef
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
        const child =
          sel.selectionSet && isCompositeType(named) ? walk(sel.selectionSet, named, inIntro, passDown) : ZERO;
        let own: number;
        // How many times the children run: a page size, a list bound, else once.
        let times = 1;
        if (name === '__schema') {
          own = INTROSPECTION_SCHEMA_COST + child.cost;
          schemaFields++;
        } else if (inIntro) {
          own = 1 + child.cost; // bounded by the schema and MaxIntrospectionDepthRule
        } else if (connection) {
          times = sizeArg(sel.arguments, 'first', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)!;
          own = 1 + child.cost * times;
        } else if (isList && isCompositeType(named) && !(name === 'edges' && isConnectionType(parent))) {
          times = ownLimit ?? inherited ?? LIST_BOUNDS[`${parent.name}.${name}`] ?? listCost;
          own = 1 + child.cost * times;
        } else {
          own = 1 + child.cost;
        }
        const price = inIntro ? undefined : HEAVY_FIELDS[`${parent.name}.${name}`];
        if (price) {
          const p = price(argReader(sel.arguments, vars, sizeVars));
          heavy++;
          plans += p.plans;
          work += p.units;
          own += p.units;
        }
        cost += own;
        aliases += child.aliases;
        schemaFields += child.schemaFields;
        heavy += child.heavy * times;
        plans += child.plans * times;
        work += child.work * times;
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
      heavy += s.heavy;
      plans += s.plans;
      work += s.work;
    }
    return { cost, aliases, schemaFields, fields, uploads, heavy, plans, work };
  };

  const root = schema.getRootType(operation.operation);
  const s = root ? walk(operation.selectionSet, root, false) : ZERO;
  return {
    cost: s.cost,
    aliases: s.aliases,
    schemaFields: s.schemaFields,
    rootFields: s.fields,
    uploads: s.uploads,
    sizeVars,
    heavy: s.heavy,
    plans: s.plans,
    work: s.work,
  };
}

/** Cost of an operation for the given variables (tests, the benchmark). */
export function queryComplexity(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string,
  listCost?: number,
): number {
  const op = document.definitions.find(
    (d): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION && (operationName === undefined || d.name?.value === operationName),
  );
  return op ? analyseOperation(schema, document, op, variables, listCost).cost : 0;
}
