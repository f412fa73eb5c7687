/**
 * How the schema calls our resolvers: the speed path, kept honest.
 *
 * type-graphql wraps every handler in a generic invoker that, on each call, sorts the parameter
 * list, looks up the args class, copies the arguments into a new class instance, runs an async
 * validation step (a promise and a Promise.all even with `validate: false`) and a middleware
 * chain; on the BPI calculator that machinery cost more than the resolver (≈ 7 µs per call,
 * bench/RESULTS.md), and on a nested read it runs for every field of every row.
 *
 * This schema uses none of what that machinery is for: no middleware, no `@Authorized` (the rule
 * table wraps root and player fields: ./rules.ts), no argument validation, plain argument
 * classes (DTOs without methods, getters or initialisers). So:
 *  1. plain fields: every object type is a type-graphql *simple* type (`simpleResolvers`, its own
 *     option, made the default here: `simpleObjectTypes`), so graphql-js reads them with its
 *     default resolver;
 *  2. handlers (Query, Mutation, `@FieldResolver`): `leanResolvers` calls the method directly on
 *     one instance per resolver class (type-graphql's default container does the same), its
 *     parameters taken as they are: `@Args` → the arguments object, `@Arg(name)` → that argument,
 *     `@Ctx`, `@Info`, `@Root` (untyped or typed as an interface).
 * Two handler shapes keep type-graphql's own invoker, which honours them (slower, listed in
 * `leanResolverReport().kept`, checked by test/unit/lean-resolvers.test.ts): a `@Root` typed as a
 * class (converted to an instance) and `@Args` next to `@Arg`. Anything else that the direct call
 * could not honour — `@UseMiddleware`, `@Authorized`, argument validation, other parameter
 * decorators — stops the start-up with a message saying why, instead of silently taking
 * another path.
 */
import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type AnyResolver = GraphQLFieldResolver<unknown, unknown, Record<string, unknown>>;
type ParamGetter = (root: unknown, args: Record<string, unknown>, ctx: unknown, info: unknown) => unknown;

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
  /** Plain fields (read by graphql-js' default resolver: simple object types). */
  plain: string[];
  /** Handlers left with type-graphql's invoker, which honours them, with the reason. */
  kept: { field: string; reason: string }[];
}

let lastReport: LeanResolverReport | undefined;
export const leanResolverReport = () => lastReport;

/** Shapes that type-graphql's own invoker handles correctly and the direct call does not: kept on its invoker. */
const KEEP_TYPE_GRAPHQL_INVOKER = new Set(['@Root typed as a class', '@Args next to @Arg']);

/** Why the direct call cannot honour what a decorator asks for, as a start-up error. */
function unsupported(field: string, what: string): Error {
  return new Error(
    `${field}: ${what} is not supported by this schema's resolver invocation (src/graphql/invoke.ts). ` +
      'Access rules belong in src/graphql/rules.ts; arguments are checked with the helpers of src/graphql/args.ts.',
  );
}

/**
 * Before the schema is built: refuses `@Authorized` anywhere (the rule table decides access), and
 * makes every object type a simple type (type-graphql's `simpleResolvers`, unless a type says
 * otherwise), refusing field middleware, which type-graphql silently skips on simple types.
 */
export function simpleObjectTypes(): void {
  const storage = getMetadataStorage();
  for (const a of storage.authorizedFields as { target: Function; fieldName: string }[]) {
    throw unsupported(`${a.target.name}.${a.fieldName}`, '@Authorized');
  }
  for (const objectType of storage.objectTypes) {
    for (const field of objectType.fields ?? []) {
      if (field.middlewares?.length)
        throw unsupported(`${objectType.name}.${field.schemaName}`, '@UseMiddleware on a field');
      if (field.roles?.length) throw unsupported(`${objectType.name}.${field.schemaName}`, '@Authorized on a field');
    }
    objectType.simpleResolvers ??= true;
  }
}

/** One getter per parameter, or the reason the handler must keep type-graphql's invoker (or cannot be served). */
function paramGetters(params: Param[]): ParamGetter[] | string {
  const kinds = new Set(params.map((p) => p.kind));
  if (kinds.has('args') && kinds.has('arg')) return '@Args next to @Arg';
  const getters: ParamGetter[] = [];
  for (const p of [...params].sort((a, b) => a.index - b.index)) {
    if (p.index !== getters.length) return 'a parameter without a decorator';
    switch (p.kind) {
      case 'args':
      case 'arg': {
        if (p.validateFn !== undefined || (p.validateSettings !== undefined && p.validateSettings !== false))
          return 'argument validation';
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
        getters.push(prop ? (root) => (root as Record<string, unknown> | null | undefined)?.[prop] : (root) => root);
        break;
      }
      default:
        return `a ${p.kind} parameter`;
    }
  }
  return getters;
}

function directInvoker(handler: Handler, instances: Map<Function, object>): AnyResolver | string {
  if (handler.middlewares?.length) return '@UseMiddleware';
  if (handler.roles?.length) return '@Authorized';
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

/** Replaces type-graphql's invokers of our handlers with direct calls (see the module comment). Returns the schema. */
export function leanResolvers(schema: GraphQLSchema, resolverClasses: readonly Function[]): GraphQLSchema {
  const storage = getMetadataStorage();
  const ours = new Set(resolverClasses);
  const instances = new Map<Function, object>();
  const report: LeanResolverReport = { direct: [], plain: [], kept: [] };

  const replaceHandler = (typeName: string, fieldName: string, handler: Handler) => {
    const type = schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
    if (!field) return;
    const coordinate = `${typeName}.${fieldName}`;
    const invoker = directInvoker(handler, instances);
    if (typeof invoker !== 'string') {
      field.resolve = invoker;
      report.direct.push(coordinate);
    } else if (KEEP_TYPE_GRAPHQL_INVOKER.has(invoker)) {
      report.kept.push({ field: coordinate, reason: invoker });
    } else {
      throw unsupported(coordinate, invoker);
    }
  };

  // Root operations (subscriptions keep their subscribe/resolve pair as built).
  for (const [typeName, handlers] of [
    ['Query', storage.queries],
    ['Mutation', storage.mutations],
  ] as const) {
    for (const h of handlers) if (ours.has(h.target)) replaceHandler(typeName, h.schemaName, h);
  }

  // Object types: external field resolvers called directly (indexed once by object class +
  // method, type-graphql's own choice of the resolver that applies); plain fields are checked to
  // be default reads (simple types).
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
    for (const field of objectType.fields ?? []) {
      const resolverMeta = fieldResolvers.get(field.target)?.get(field.name);
      const coordinate = `${objectType.name}.${field.schemaName}`;
      const gqlField = gqlType.getFields()[field.schemaName];
      if (!gqlField) continue;
      if (resolverMeta) {
        if (resolverMeta.kind !== 'external')
          throw unsupported(
            coordinate,
            'a resolver method on the object type itself (use a @FieldResolver in a resolver class)',
          );
        replaceHandler(objectType.name, field.schemaName, resolverMeta);
        continue;
      }
      if (gqlField.resolve)
        throw unsupported(
          coordinate,
          "a plain field with type-graphql's per-field wrapper (an object type with simpleResolvers: false)",
        );
      // A field renamed in the schema (`@Field({ name })`) reads its property (graphql-js would read the schema name).
      const name = field.name;
      if (name !== field.schemaName) gqlField.resolve = (root: Record<string, unknown>) => root[name];
      report.plain.push(coordinate);
    }
  }
  lastReport = report;
  return schema;
}
