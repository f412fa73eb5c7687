import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, Kind, getOperationAST, parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { getArgumentValues } from 'graphql/execution/values';
import { WebSocketServer } from 'ws';
import type { Platform as App } from './context';
import { HTTP_STATUS, badInput, toAppError, unauthenticated } from '../errors';
import { createContext, type Context, type Viewer } from './context';
import { enforce } from './rules-enforce';
import { measureOperation } from './limits';

// 'graphql-ws/use/ws' is an `exports` subpath, which TypeScript's node10 resolution cannot see:
// load it at run time, type it from its declaration file.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { useServer } = require('graphql-ws/use/ws') as typeof import('graphql-ws/dist/use/ws');

/** Loads shared by the subscriptions of one viewer for one event (see mapSubscription). */
const sharedLoads = new Map<string, Promise<unknown>>();
const SHARED_LOAD_TTL_MS = 2000;

/**
 * GraphQL subscriptions over WebSocket (graphql-ws protocol) on the HTTP server's /graphql path.
 * The connection authenticates once with `connectionParams: { authorization: 'Bearer …' }`
 * (the same tokens as HTTP); a bad token closes it (4403). Only subscriptions are served here
 * (queries and mutations: HTTP); each is checked against the same limits as HTTP
 * (`measureOperation`: depth, cost, aliases, string lengths) and the rule table
 * (src/graphql/rules.ts) before it starts. Bounded:
 * - frames larger than WS_MAX_PAYLOAD_BYTES close the connection before anything parses them
 *   (before and after authentication: a subscription document is small);
 * - SUBSCRIPTIONS_PER_CONNECTION open subscriptions per connection, SUBSCRIPTIONS_PER_USER per
 *   user over all connections of this process;
 * - per event, the subscriptions of one viewer share one load (`mapSubscription(…, shareAs)`) and
 *   the connection's credential is re-checked at most every CREDENTIAL_RECHECK_MS, so an event costs
 *   one query per viewer, not per subscription.
 */
export interface SubscriptionServer {
  close(): Promise<void>;
}

type Extra = { viewer?: Viewer | null; authorization?: string; check?: () => Promise<boolean> };

/** How often a live connection's credential is verified again (expiry, revocation). */
export const CREDENTIAL_RECHECK_MS = 30_000;

/** Open subscriptions per user in this process (mapSubscription acquires and releases). */
const perUser = new Map<string, number>();
let perUserMax = 20;

/** The credential check of one connection, shared by its subscriptions, cached CREDENTIAL_RECHECK_MS. */
function connectionCheck(app: App, authorization: string, viewerId: string): () => Promise<boolean> {
  let last: { at: number; ok: Promise<boolean> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > CREDENTIAL_RECHECK_MS) {
      last = {
        at: now,
        ok: app.auth.resolveViewer(authorization).then(
          (v) => v?.id === viewerId,
          () => false,
        ),
      };
    }
    return last.ok;
  };
}

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
async function enforceRules(
  schema: GraphQLSchema,
  ctx: Context,
  op: OperationDefinitionNode,
  variables: Record<string, unknown>,
) {
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
  // maxPayload: ws refuses (closes with 1009) a larger frame before it is buffered whole or parsed.
  // noServer + our own upgrade listener: with `server`, ws re-emits the HTTP server's errors (a port in
  // use) on the WebSocket server, where graphql-ws prints them with a stack instead of the start-up's one line.
  const wss = new WebSocketServer({ noServer: true, path: '/graphql', maxPayload: app.config.wsMaxPayload });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  server.on('upgrade', onUpgrade);
  const limits = app.config.limits;
  perUserMax = app.config.subscriptionsPerUser;
  const disposable = useServer<Record<string, unknown>, Extra>(
    {
      schema,
      onConnect: async (c) => {
        try {
          const authorization = authHeader(c.connectionParams);
          const extra = c.extra as Extra;
          extra.viewer = await app.auth.resolveViewer(authorization);
          extra.authorization = authorization;
          if (extra.viewer && authorization) extra.check = connectionCheck(app, authorization, extra.viewer.id);
          return true;
        } catch {
          return false;
        }
      },
      context: (c) => {
        const extra = c.extra as Extra;
        const ctx = createContext(app, extra.viewer ?? null, c.extra.request.socket.remoteAddress ?? '');
        if (extra.check) credentialChecks.set(ctx, extra.check);
        return ctx;
      },
      onSubscribe: async (c, _id, payload) => {
        try {
          const doc = parse(payload.query, { maxTokens: app.config.graphqlMaxTokens });
          const op = getOperationAST(doc, payload.operationName);
          if (!op) throw badInput('Unknown or ambiguous operation');
          // Queries and mutations go through HTTP, where the limits plugin (rate limits on writes) applies.
          if (op.operation !== 'subscription') {
            throw badInput('Only subscriptions are served over WebSocket: send queries and mutations to POST /graphql');
          }
          // graphql-ws counts this one already (ctx.subscriptions[id] is set before onSubscribe).
          const open = Object.keys(c.subscriptions).length;
          if (open > app.config.subscriptionsPerConnection) {
            throw badInput(
              `At most ${app.config.subscriptionsPerConnection} subscriptions per connection (SUBSCRIPTIONS_PER_CONNECTION)`,
            );
          }
          const viewerId = (c.extra as Extra).viewer?.id;
          if (viewerId && openSubscriptions(viewerId) >= perUserMax) {
            // (mapSubscription counts them; refused here it is an `error` message, not a result)
            throw badInput(`At most ${perUserMax} open subscriptions per user (SUBSCRIPTIONS_PER_USER)`);
          }
          measureOperation(limits, {
            schema,
            document: doc,
            operation: op,
            operationName: payload.operationName,
            variables: payload.variables,
          });
          const ctx = createContext(app, (c.extra as Extra).viewer ?? null, c.extra.request.socket.remoteAddress ?? '');
          await enforceRules(schema, ctx, op, payload.variables ?? {});
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
      server.off('upgrade', onUpgrade);
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
 * valid; `return()` reaches the source at once on unsubscribe. Counts against the viewer's
 * SUBSCRIPTIONS_PER_USER (released when it ends). With `shareAs` (a name for what `load` reads),
 * subscriptions of the same viewer share one load per event.
 */
export function mapSubscription<T, R>(
  ctx: Context,
  source: AsyncIterator<T>,
  load: (value: T) => Promise<R | null>,
  shareAs?: string,
): AsyncIterableIterator<R> {
  if (!ctx.viewer) throw unauthenticated();
  const viewerId = ctx.viewer.id;
  const open = perUser.get(viewerId) ?? 0;
  if (open >= perUserMax) {
    void source.return?.();
    throw badInput(`At most ${perUserMax} open subscriptions per user (SUBSCRIPTIONS_PER_USER)`);
  }
  perUser.set(viewerId, open + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const n = (perUser.get(viewerId) ?? 1) - 1;
    if (n > 0) perUser.set(viewerId, n);
    else perUser.delete(viewerId);
  };
  const loadShared = (value: T): Promise<R | null> => {
    if (!shareAs) return load(value);
    const key = `${shareAs}\u0000${viewerId}\u0000${JSON.stringify(value)}`;
    let p = sharedLoads.get(key) as Promise<R | null> | undefined;
    if (!p) {
      p = load(value);
      if (sharedLoads.size < 10_000) {
        sharedLoads.set(key, p);
        const drop = () => void setTimeout(() => sharedLoads.delete(key), SHARED_LOAD_TTL_MS).unref();
        p.then(drop, drop);
      }
    }
    return p;
  };
  const it: AsyncIterableIterator<R> = {
    [Symbol.asyncIterator]() {
      return it;
    },
    async next() {
      for (;;) {
        const r = await source.next();
        if (r.done) {
          release();
          return { done: true, value: undefined };
        }
        // the credential may have expired or been revoked since the connection opened: end quietly
        const check = credentialChecks.get(ctx);
        if (check && !(await check())) {
          release();
          await source.return?.();
          return { done: true, value: undefined };
        }
        renewLoaders(ctx);
        const v = await loadShared(r.value);
        if (v !== null && v !== undefined) return { done: false, value: v };
      }
    },
    async return() {
      release();
      await source.return?.();
      return { done: true, value: undefined };
    },
    async throw(err?: unknown) {
      release();
      await source.return?.();
      throw err;
    },
  };
  return it;
}

/** Open subscriptions of a user in this process (tests). */
export function openSubscriptions(userId: string): number {
  return perUser.get(userId) ?? 0;
}
