/**
 * String arguments: each is checked against its limit before anything runs (GRAPHQL_MAX_STRING_LENGTH,
 * the longer ones named in STRING_LIMITS), and no text may hold a NUL character.
 */
import {
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

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

/** True when a value (variables, nested) holds a string with a NUL character: PostgreSQL text cannot store one. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const v of value) if (containsNul(v, depth + 1)) return true;
    return false;
  }
  // Own enumerable values, as Object.values, without the array it would build per request.
  for (const k in value)
    if (Object.hasOwn(value, k) && containsNul((value as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

export const NUL_MESSAGE = 'Text must not contain NUL (\\u0000) characters';

/** Longest string in a value (nested in lists and objects), for the inputs' length check. */
export interface StringProblem {
  path: string;
  max: number;
  length: number;
}

/** Where each variable is used as (part of) an argument: its type there and its limit key. */
interface VariableUse {
  name: string;
  type: GraphQLInputType;
  key: string;
  /** STRING_LIMITS[key], looked up once here (a keyed lookup by a built string costs a string-table probe per request). */
  named: number | undefined;
}

/** The string-length check of one operation: literals checked once, variable uses to check per request. */
export interface StringPlan {
  literal: StringProblem | null;
  uses: VariableUse[];
}

/** A runtime input value against its type: strings by their limit, input objects by their fields' limits. */
function checkValue(
  value: unknown,
  type: GraphQLInputType,
  key: string,
  depth: number,
  def: number,
): StringProblem | null {
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
export function stringPlan(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  def: number,
): StringPlan {
  const limitOf = (key: string) => STRING_LIMITS[key] ?? def;
  const uses: VariableUse[] = [];
  const literal = (node: ValueNode, type: GraphQLInputType, key: string, depth: number): StringProblem | null => {
    switch (node.kind) {
      case Kind.VARIABLE:
        uses.push({ name: node.name.value, type, key, named: STRING_LIMITS[key] });
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
  const root = schema.getRootType(operation.operation);
  if (root) walk(operation.selectionSet, root);
  return { literal: found, uses };
}

/** The per-request part: each variable at each of its uses. */
export function checkVariables(plan: StringPlan, vars: Record<string, unknown>, def: number): StringProblem | null {
  for (const u of plan.uses) {
    const value = vars[u.name];
    if (typeof value === 'string') {
      // checkValue's string case, with the use's limit found at planning
      const max = u.named ?? def;
      if (value.length > max) return { path: u.key, max, length: value.length };
      continue;
    }
    const p = checkValue(value, u.type, u.key, 0, def);
    if (p) return p;
  }
  return null;
}
