/**
 * Lean resolver invocation: how the schema calls our resolver methods.
 *
 * type-graphql wraps every handler in a generic invoker that, on each call, sorts the parameter
 * list, looks up the args class, copies the arguments into a new class instance, runs an async
 * validation step (a promise and a Promise.all even with `validate: false`) and a middleware
 * chain; it also gives every field of a non-simple object type a middleware wrapper around
 * `root[field]`. On the BPI calculator that machinery cost more than the resolver (≈ 7 µs per
 * call, bench/RESULTS.md); on a nested read it runs for every field of every row.
 *
 * We use no middleware, no auth checker (the rule table wraps root fields: ./rules.ts), no
 * argument validation and plain argument classes (DTOs without methods, getters or
 * initialisers). So after the schema is built, `leanResolvers` replaces, from type-graphql's own
 * metadata:
 * - each handler (Query, Mutation, `@FieldResolver`) with a direct call of the method on one
 *   instance per resolver class (type-graphql's default container does the same), its
 *   parameters taken as they are: `@Args` → the arguments object, `@Arg(name)` → that argument,
 *   `@Ctx`, `@Info`, `@Root` (untyped or typed as an interface);
 * - each plain field of a non-simple object type with the default property read.
 * Anything else keeps type-graphql's invoker: middleware or roles, validation settings, custom
 * or pub/sub parameters, a `@Root` typed as a class, `@Args` next to `@Arg`, subscriptions.
 * `leanResolverReport` says what was replaced (a test checks nothing falls back unnoticed).
 */
import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type AnyResolver = GraphQLFieldResolver<unknown, unknown, any>;
type ParamGetter = (root: any, args: Record<string, unknown>, ctx: unknown, info: unknown) => unknown;

interface Param {
  kind: string;
  index: number;
  name?: string;
  propertyName?: string;
  getType?: () => unknown;
  validateSettings?: unknown;
  validateFn?: unknown;
}

interface Handler {
  target: Function;
  methodName: string;
  params?: Param[];
  middlewares?: unknown[];
  roles?: unknown[];
}

export interface LeanResolverReport {
  /** Handlers now called directly, as `Type.field`. */
  direct: string[];
  /** Plain fields now read by the default resolver. */
  plain: string[];
  /** Fields left with type-graphql's invoker, with the reason. */
  kept: { field: string; reason: string }[];
}

let lastReport: LeanResolverReport | undefined;
export const leanResolverReport = () => lastReport;

/** One getter per parameter, or the reason the handler must keep type-graphql's invoker. */
function paramGetters(params: Param[]): ParamGetter[] | string {
  const kinds = new Set(params.map((p) => p.kind));
  if (kinds.has('args') && kinds.has('arg')) return '@Args next to @Arg';
  const getters: ParamGetter[] = [];
  for (const p of [...params].sort((a, b) => a.index - b.index)) {
    if (p.index !== getters.length) return 'parameter without a decorator';
    switch (p.kind) {
      case 'args':
      case 'arg': {
        if (p.validateFn !== undefined || (p.validateSettings !== undefined && p.validateSettings !== false)) return 'argument validation';
        const name = p.name;
        getters.push(p.kind === 'args' ? (_r, args) => args : (_r, args) => args[name!]);
        break;
      }
      case 'context': {
        const prop = p.propertyName;
        getters.push(prop ? (_r, _a, ctx) => (ctx as Record<string, unknown>)[prop] : (_r, _a, ctx) => ctx);
        break;
      }
      case 'info':
        getters.push((_r, _a, _c, info) => info);
        break;
      case 'root': {
        // type-graphql copies the root into an instance of a class-typed parameter; an untyped or
        // interface-typed root (reflected as Object) is passed through unchanged — so do we.
        if (p.getType && p.getType() !== Object) return '@Root typed as a class';
        const prop = p.propertyName;
        getters.push(prop ? (root) => root?.[prop] : (root) => root);
        break;
      }
      default:
        return `${p.kind} parameter`;
    }
  }
  return getters;
}

function directInvoker(handler: Handler, instances: Map<Function, object>): AnyResolver | string {
  if (handler.middlewares?.length) return 'middleware';
  if (handler.roles?.length) return 'roles';
  const getters = paramGetters(handler.params ?? []);
  if (typeof getters === 'string') return getters;
  let instance = instances.get(handler.target);
  if (!instance) instances.set(handler.target, (instance = new (handler.target as new () => object)()));
  const method = (instance as Record<string, (...a: unknown[]) => unknown>)[handler.methodName].bind(instance);
  const [g0, g1, g2] = getters;
  switch (getters.length) {
    case 0:
      return () => method();
    case 1:
      return (r, a, c, i) => method(g0(r, a, c, i));
    case 2:
      return (r, a, c, i) => method(g0(r, a, c, i), g1(r, a, c, i));
    case 3:
      return (r, a, c, i) => method(g0(r, a, c, i), g1(r, a, c, i), g2(r, a, c, i));
    default:
      return (r, a, c, i) => method(...getters.map((g) => g(r, a, c, i)));
  }
}

/** Replaces type-graphql's invokers where it is safe (see the module comment). Returns the schema. */
export function leanResolvers(schema: GraphQLSchema, resolverClasses: readonly Function[]): GraphQLSchema {
  const storage = getMetadataStorage();
  const ours = new Set(resolverClasses);
  const instances = new Map<Function, object>();
  const report: LeanResolverReport = { direct: [], plain: [], kept: [] };

  const replaceHandler = (typeName: string, fieldName: string, handler: Handler) => {
    const type = schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
    if (!field) return;
    const invoker = directInvoker(handler, instances);
    if (typeof invoker === 'string') report.kept.push({ field: `${typeName}.${fieldName}`, reason: invoker });
    else {
      field.resolve = invoker;
      report.direct.push(`${typeName}.${fieldName}`);
    }
  };

  // Root operations (subscriptions keep their subscribe/resolve pair as built).
  for (const [typeName, handlers] of [
    ['Query', storage.queries],
    ['Mutation', storage.mutations],
  ] as const) {
    for (const h of handlers) if (ours.has(h.target)) replaceHandler(typeName, h.schemaName, h as unknown as Handler);
  }

  // Object types: external field resolvers called directly; plain fields read directly. The
  // field resolvers that apply (type-graphql's own choice) indexed once by object class + method.
  const fieldResolvers = new Map<Function, Map<string, (typeof storage.fieldResolvers)[number]>>();
  for (const r of storage.fieldResolvers) {
    const target = r.getObjectType?.();
    if (!target || !(r.kind === 'internal' || ours.has(r.target))) continue;
    let byMethod = fieldResolvers.get(target);
    if (!byMethod) fieldResolvers.set(target, (byMethod = new Map()));
    if (!byMethod.has(r.methodName)) byMethod.set(r.methodName, r);
  }
  for (const objectType of storage.objectTypes) {
    const gqlType = schema.getType(objectType.name);
    if (!isObjectType(gqlType)) continue;
    const simple = objectType.simpleResolvers === true;
    for (const field of objectType.fields ?? []) {
      const resolverMeta = fieldResolvers.get(field.target)?.get(field.name);
      const gqlField = gqlType.getFields()[field.schemaName];
      if (!gqlField) continue;
      if (resolverMeta) {
        if (resolverMeta.kind === 'external') replaceHandler(objectType.name, field.schemaName, resolverMeta as unknown as Handler);
        else report.kept.push({ field: `${objectType.name}.${field.schemaName}`, reason: 'resolver method on the object type' });
        continue;
      }
      const fieldSimple = field.simple !== undefined ? field.simple : simple;
      if (fieldSimple || !gqlField.resolve) continue; // already the default read
      if (field.middlewares?.length || field.roles?.length) {
        report.kept.push({ field: `${objectType.name}.${field.schemaName}`, reason: 'middleware or roles' });
        continue;
      }
      const name = field.name;
      gqlField.resolve = name === field.schemaName ? undefined : (root: Record<string, unknown>) => root[name];
      report.plain.push(`${objectType.name}.${field.schemaName}`);
    }
  }
  lastReport = report;
  return schema;
}
