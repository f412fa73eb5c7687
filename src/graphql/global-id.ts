/**
 * Relay object identification: opaque, stable global ids and the `Node` interface.
 *
 * A global id is base64url("<Type>:<database key>") — `User:6f1c…`, `Chart:42` — opaque to
 * clients (they compare and pass it back, never parse it) and stable (the key never changes).
 * Every entity type implements `Node`: its `id` is the global id, its database key stays
 * readable as `databaseId`. `Query.node(id:)` / `Query.nodes(ids:)` (./node.ts) load any node
 * through the areas' loaders under the rule table's visibility rules (rules.ts NODE_RULES).
 *
 * Arguments of type `ID` accept a global id of the matching type or the bare database key
 * (`acceptGlobalIds`): a client may pass back any `id` it read.
 */
import {
  defaultFieldResolver,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { Field, ID, InterfaceType } from 'type-graphql';
import type { ObjectRoot } from './context';

const TYPE_NAME = /^[A-Z][A-Za-z0-9]{0,63}$/;

/** The global id of a node: base64url("Type:key"). */
export function toGlobalId(type: string, key: string | number): string {
  return Buffer.from(`${type}:${key}`, 'utf8').toString('base64url');
}

/**
 * The type and database key of a global id; null for anything that is not one (bad base64url,
 * no `Type:` prefix, a non-canonical encoding): the caller answers null or uses the value as a bare key.
 */
export function fromGlobalId(id: string): { type: string; key: string } | null {
  if (typeof id !== 'string' || id.length === 0 || id.length > 512 || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const text = Buffer.from(id, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 1) return null;
  const type = text.slice(0, colon);
  const key = text.slice(colon + 1);
  if (!TYPE_NAME.test(type) || key.length === 0) return null;
  // canonical only: one string per node (Buffer.from ignores stray characters)
  if (toGlobalId(type, key) !== id) return null;
  return { type, key };
}

/** The concrete type of a value returned as a `Node` (set by the node resolver). */
const nodeTypes = new WeakMap<object, string>();

/** Tags a value returned where the schema says `Node` with its concrete type. */
export function asNode<T extends object>(type: string, value: T): T {
  nodeTypes.set(value, type);
  return value;
}

@InterfaceType('Node', {
  description: 'An object with a global identity (Relay): refetch it with `node(id:)`',
  resolveType: (value: object) => nodeTypes.get(value),
})
export abstract class NodeInterface {
  @Field(() => ID, { description: 'Opaque, stable global id (pass it to `node(id:)`; never parse it)' })
  id!: string;
}

/** How an entity type's database key is read from its root object (default: `root.id`). */
export type NodeKeyOf = (root: ObjectRoot) => string | number;

/**
 * Makes `id` of every type implementing `Node` answer the global id (from `keyOf[type]`, default
 * `root.id`), and checks that each such type has a node source. Run on the built schema.
 */
export function installNodeIds(schema: GraphQLSchema, sources: Record<string, { key?: NodeKeyOf }>): void {
  const node = schema.getType('Node');
  if (!node || !isInterfaceType(node)) return;
  // synchronous (type-graphql wraps resolveType in an async function, which graphql-jit cannot run)
  node.resolveType = (value: object) => nodeTypes.get(value);
  for (const type of schema.getPossibleTypes(node)) {
    const source = sources[type.name];
    if (!source)
      throw new Error(`${type.name} implements Node but no area provides a node source for it (manifest \`nodes\`)`);
    const keyOf = source.key ?? ((root: { id: string | number }) => root.id);
    const name = type.name;
    type.getFields().id.resolve = (root) => toGlobalId(name, keyOf(root));
  }
}

function isIdType(t: GraphQLInputType): 'one' | 'list' | null {
  const inner = isNonNullType(t) ? t.ofType : t;
  if (isListType(inner)) {
    const item = isNonNullType(inner.ofType) ? inner.ofType.ofType : inner.ofType;
    return !isListType(item) && getNamedType(item).name === 'ID' ? 'list' : null;
  }
  return getNamedType(inner).name === 'ID' ? 'one' : null;
}

/** The database key of an `ID` argument's value: a global id's key, else the value as it is. */
export function idArgKey(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return fromGlobalId(value)?.key ?? value;
}

/**
 * Wraps every field with `ID` arguments (except `node` / `nodes`, which need the type) so that a
 * global id there reaches the resolver — and the rule table — as its database key. Run last
 * (outermost), after the rule wrappers; a rule wrapper's marker is carried over.
 */
export function acceptGlobalIds(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (type.name === 'Query' && (field.name === 'node' || field.name === 'nodes')) continue;
      const ids = field.args.map((a: GraphQLArgument) => [a.name, isIdType(a.type)] as const).filter(([, k]) => k);
      if (!ids.length) continue;
      const decode = (args: Record<string, unknown>) => {
        let out = args;
        for (const [name, kind] of ids) {
          const v = args[name];
          if (v === undefined || v === null) continue;
          const key = kind === 'list' && Array.isArray(v) ? v.map(idArgKey) : idArgKey(v);
          if (key !== v) {
            if (out === args) out = { ...args };
            out[name] = key;
          }
        }
        return out;
      };
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      const wrapped: GraphQLFieldResolver<unknown, unknown> = (source, args, ctx, info) =>
        resolve(source, decode(args), ctx, info);
      for (const sym of Object.getOwnPropertySymbols(resolve))
        (wrapped as unknown as Record<symbol, unknown>)[sym] = (resolve as unknown as Record<symbol, unknown>)[sym];
      field.resolve = wrapped;
      if (field.subscribe) {
        const subscribe = field.subscribe;
        field.subscribe = (source, args, ctx, info) => subscribe(source, decode(args), ctx, info);
      }
    }
  }
}
