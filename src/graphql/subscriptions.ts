import type { Server } from 'node:http';
import { GraphQLError, Kind, getOperationAST, parse, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { getArgumentValues } from 'graphql/execution/values';
import { WebSocketServer } from 'ws';
import type { Platform as App } from './context';
import { HTTP_STATUS, badInput, toAppError, unauthenticated } from '../errors';
import { createContext, type Context, type Viewer } from './context';
import { enforce } from './rules';
import { limitsFromConfig, operationDepth, queryComplexity } from './limits';

// 'graphql-ws/use/ws' is an `exports` subpath, which TypeScript's node10 resolution cannot see:
// load it at run time, type it from its declaration file.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { useServer } = require('graphql-ws/use/ws') as typeof import('graphql-ws/dist/use/ws');

/**
 * GraphQL subscriptions over WebSocket (graphql-ws protocol) on the HTTP server's /graphql path.
 * The connection authenticates once with `connectionParams: { authorization: 'Bearer …' }`
 * (the same tokens as HTTP); a bad token closes it (4403). Only subscriptions are served here
 * (queries and mutations: HTTP); each is checked against the depth / complexity limits and the
 * rule table (src/graphql/rules.ts) before it starts.
 */
export interface SubscriptionServer {
  close(): Promise<void>;
}

type Extra = { viewer?: Viewer | null; authorization?: string };

/**
 * Per subscription context: re-checks the connection's credential (expired / revoked tokens stop
 * receiving). Kept outside Context so that HTTP contexts are untouched.
 */
const credentialChecks = new WeakMap<object, () => Promise<boolean>>();

function authHeader(params: Record<string, unknown> | undefined): string | undefined {
  if (!params) return undefined;
  const v = params.authorization ?? params.Authorization;
  return typeof v === 'string' ? v : undefined;
}

/** Enforces the rule of every root field of a subscription operation. */
async function enforceRules(schema: GraphQLSchema, ctx: Context, op: OperationDefinitionNode, variables: Record<string, unknown>) {
  const root = schema.getSubscriptionType();
  if (!root) return;
  for (const sel of op.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || sel.name.value.startsWith('__')) continue;
    const def = root.getFields()[sel.name.value];
    if (!def) continue; // validation reports it
    const args = getArgumentValues(def, sel, variables);
    await enforce(ctx, `Subscription.${sel.name.value}`, args, 'read');
  }
}

export function attachSubscriptions(server: Server, schema: GraphQLSchema, app: App): SubscriptionServer {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const limits = limitsFromConfig(app.config);
  const disposable = useServer<Record<string, unknown>, Extra>(
    {
      schema,
      onConnect: async (c) => {
        try {
          const authorization = authHeader(c.connectionParams);
          (c.extra as Extra).viewer = await app.auth.resolveViewer(authorization);
          (c.extra as Extra).authorization = authorization;
          return true;
        } catch {
          return false;
        }
      },
      context: (c) => {
        const extra = c.extra as Extra;
        const ctx = createContext(app, extra.viewer ?? null, c.extra.request.socket.remoteAddress ?? '');
        if (extra.viewer && extra.authorization) {
          const { authorization } = extra;
          const viewerId = extra.viewer.id;
          credentialChecks.set(ctx, async () => {
            try {
              return (await app.auth.resolveViewer(authorization))?.id === viewerId;
            } catch {
              return false;
            }
          });
        }
        return ctx as unknown as Record<string, unknown>;
      },
      onSubscribe: async (c, _id, payload) => {
        try {
          const doc = parse(payload.query);
          const op = getOperationAST(doc, payload.operationName);
          if (!op) throw badInput('Unknown or ambiguous operation');
          // Queries and mutations go through HTTP, where the limits plugin (rate limits on writes) applies.
          if (op.operation !== 'subscription') {
            throw badInput('Only subscriptions are served over WebSocket: send queries and mutations to POST /graphql');
          }
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
          const depth = operationDepth(op, fragments);
          if (depth > limits.maxDepth) throw badInput(`Query depth ${depth} exceeds the maximum of ${limits.maxDepth} (GRAPHQL_MAX_DEPTH)`);
          let complexity = 0;
          try {
            complexity = queryComplexity(schema, doc, payload.variables ?? undefined, payload.operationName ?? undefined);
          } catch (err) {
            if (!(err instanceof GraphQLError)) throw err; // bad variables: reported by execution
          }
          if (complexity > limits.maxComplexity) {
            throw badInput(`Query complexity ${complexity} exceeds the maximum of ${limits.maxComplexity} (GRAPHQL_MAX_COMPLEXITY)`);
          }
          const ctx = createContext(app, (c.extra as Extra).viewer ?? null, c.extra.request.socket.remoteAddress ?? '');
          await enforceRules(schema, ctx, op, (payload.variables ?? {}) as Record<string, unknown>);
        } catch (err) {
          if (err instanceof GraphQLError) return [err];
          const e = toAppError(err);
          return [new GraphQLError(e.message, { extensions: { code: e.code, http: { status: HTTP_STATUS[e.code] } } })];
        }
      },
    },
    wss,
  );
  return {
    async close() {
      for (const client of wss.clients) client.terminate();
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * A subscription's context lives as long as the subscription: give each event fresh loaders (and
 * services, visibility verdicts) so that nothing cached (users, follows, access grants) outlives a change.
 */
export function renewLoaders(ctx: Context): void {
  ctx.renew();
}

/**
 * Maps a pub/sub iterator through `load` (fresh loaders per event), skipping events that load to
 * null (not visible to the subscriber) and ending when the connection's credential is no longer
 * valid; `return()` reaches the source at once on unsubscribe.
 */
export function mapSubscription<T, R>(ctx: Context, source: AsyncIterator<T>, load: (value: T) => Promise<R | null>): AsyncIterableIterator<R> {
  if (!ctx.viewer) throw unauthenticated();
  const it: AsyncIterableIterator<R> = {
    [Symbol.asyncIterator]() {
      return it;
    },
    async next() {
      for (;;) {
        const r = await source.next();
        if (r.done) return { done: true, value: undefined };
        // the credential may have expired or been revoked since the connection opened: end quietly
        const check = credentialChecks.get(ctx);
        if (check && !(await check())) {
          await source.return?.();
          return { done: true, value: undefined };
        }
        renewLoaders(ctx);
        const v = await load(r.value);
        if (v !== null && v !== undefined) return { done: false, value: v };
      }
    },
    async return() {
      await source.return?.();
      return { done: true, value: undefined };
    },
    async throw(err?: unknown) {
      await source.return?.();
      throw err;
    },
  };
  return it;
}
