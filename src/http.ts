import 'reflect-metadata';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import { closeApp, type App } from './app';
import { contextForRequest, contextOf, type Context } from './graphql/context';
import { makeFormatError } from './graphql/errors';
import { explorerReply } from './graphql/explorer';
import { getSchema } from './schema';
import { attachSubscriptions } from './graphql/subscriptions';
import { registerRest } from './rest';
import { limitsPlugin, restGuard } from './graphql/limits';
import { CompiledExecutor } from './graphql/executor';
import { DocumentRunner, installDocuments } from './graphql/documents';
import { FIXED_DOCUMENTS } from './rest/documents';
import { restError } from './rest/errors';
import { registerOpenApi } from './rest/openapi';
import { GraphQLError } from 'graphql';
import { HTTP_STATUS, toAppError } from './errors';
import { appendVary, corsCheck, variesByOrigin } from './cors';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fastifyLogger, requestContext, writeAccessLine } from './logger';
import { writeAtTurnEnd } from './answer-batch';
import {
  graphqlErrors,
  operationLabel,
  registry,
  requestDuration,
  requestsTotal,
  type HistogramSeries,
} from './metrics';
import { createTracing, endRequestSpan } from './tracing';
import type { Span } from '@opentelemetry/api';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const HEALTHZ_BODY = JSON.stringify({ status: 'ok' });

/** A client's X-Request-ID is kept when it is a sane token (no spaces or control characters, ≤ 128); else a new UUID. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;
export function requestIdFor(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The query text of a GraphQL request (POST body or GET parameter) when longer than the limit: the message; else null. */
function queryTooLong(req: FastifyRequest, max: number): string | null {
  const fromBody = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>).query : undefined;
  const fromUrl = (req.query as Record<string, unknown> | undefined)?.query;
  const q = typeof fromBody === 'string' ? fromBody : typeof fromUrl === 'string' ? fromUrl : undefined;
  if (q === undefined || q.length <= max) return null;
  return `Query length ${q.length} exceeds the maximum of ${max} characters (GRAPHQL_MAX_QUERY_LENGTH)`;
}

/** The metric series of one operation on one route: found once, then counted with no label lookup. */
class OperationSeries {
  readonly duration: HistogramSeries;
  /** The access line's JSON of the route and operation (src/logger.ts writeAccessLine). */
  readonly logFields: string;
  private readonly byStatus = new Map<number, { value: number }>();

  constructor(private readonly labels: { kind: string; route: string; operation: string }) {
    this.duration = requestDuration.series(labels);
    this.logFields =
      `,"route":${JSON.stringify(labels.route)}` +
      (labels.operation ? `,"operation":${JSON.stringify(labels.operation)}` : '');
  }

  status(code: number): { value: number } {
    let c = this.byStatus.get(code);
    if (!c) this.byStatus.set(code, (c = requestsTotal.series({ ...this.labels, status: String(code) })));
    return c;
  }
}

/** What the response hook needs of a route, worked out on its first request (kind, access log, series). */
class RouteState {
  readonly kind: 'graphql' | 'rest' | 'other';
  /** Health checks and scrapes write no access line. */
  readonly logged: boolean;
  private readonly byOperation = new Map<string, OperationSeries>();

  constructor(readonly route: string) {
    this.kind =
      route === '/graphql'
        ? 'graphql'
        : route.startsWith('/api/') || route.startsWith('/.well-known/') || route === '/mcp'
          ? 'rest'
          : 'other';
    this.logged = route !== '/metrics' && route !== '/healthz' && route !== '/readyz';
  }

  operation(name: string): OperationSeries {
    let s = this.byOperation.get(name);
    if (!s)
      this.byOperation.set(name, (s = new OperationSeries({ kind: this.kind, route: this.route, operation: name })));
    return s;
  }
}

/** Per route template (and `unmatched`): a registered route set, so bounded. */
const routeStates = new Map<string, RouteState>();
function routeState(url: string | undefined): RouteState {
  const route = url ?? 'unmatched';
  let s = routeStates.get(route);
  if (!s) routeStates.set(route, (s = new RouteState(route)));
  return s;
}

/** BPIGRAPH_GUARD_BUSY_US (the hot-path guard's self-test only): a busy loop of that many µs, else null. */
function guardBusyLoop(): (() => void) | null {
  if (!process.env.BPIGRAPH_GUARD_BUSY_US) return null;
  const busyNs = BigInt(Math.round(Number(process.env.BPIGRAPH_GUARD_BUSY_US) * 1000));
  return () => {
    const until = process.hrtime.bigint() + busyNs;
    while (process.hrtime.bigint() < until);
  };
}

const HEALTHZ_LENGTH = String(Buffer.byteLength(HEALTHZ_BODY));

/**
 * The plain health probe — `GET /healthz`, no query, no Origin — answered by the HTTP server's
 * request listener before Fastify's routing, hooks and reply (issue #32: /healthz cost 1.6× a bare
 * Node server's request through them; load balancers probe it several times a second per process,
 * and the hostile bench measures it under attack). The answer is the route's, byte for byte, with
 * what the hooks would add: the request id (`X-Request-ID` kept when sane), `Vary: Origin` when the
 * CORS step adds it to a request without Origin (src/cors.ts variesByOrigin), the request counted
 * and timed in the route's metric series (no access line: the probes write none); written at the
 * end of the loop's turn with the turn's other answers, as the hot routes' are (src/answer-batch.ts).
 * Everything else about /healthz goes through Fastify: HEAD, a query string, an Origin header (CORS
 * answers), tracing on (a span per request), and the server closing (Fastify's 503 to new requests,
 * set before the preClose hooks run).
 */
function healthzFirst(
  fastify: FastifyInstance,
  opts: { tracing: boolean; vary: boolean; busy: (() => void) | null },
): void {
  if (opts.tracing) return;
  const server = fastify.server;
  const [fastifyHandler, ...others] = server.listeners('request') as ((...a: unknown[]) => void)[];
  if (!fastifyHandler || others.length) return; // (not the server Fastify made: leave it alone)
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const series = routeState('/healthz').operation('');
  const ok = series.status(200);
  const { busy, vary } = opts;
  const answer = (res: ServerResponse, id: string, started: number): void => {
    try {
      res.writeHead(
        200,
        vary
          ? { 'x-request-id': id, vary: 'Origin', 'content-type': JSON_CONTENT_TYPE, 'content-length': HEALTHZ_LENGTH }
          : { 'x-request-id': id, 'content-type': JSON_CONTENT_TYPE, 'content-length': HEALTHZ_LENGTH },
      );
      res.end(HEALTHZ_BODY);
    } catch (err) {
      // (one answer that cannot be written must not keep the turn's others)
      fastify.log.error({ err }, 'health answer not sent');
      return;
    }
    ok.value++;
    series.duration.observe((performance.now() - started) / 1000);
  };
  server.removeListener('request', fastifyHandler);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== '/healthz' || req.method !== 'GET' || closing || req.headers.origin !== undefined)
      return fastifyHandler(req, res);
    const started = performance.now();
    busy?.();
    // (written with the turn's other answers: src/answer-batch.ts)
    writeAtTurnEnd(answer, res, requestIdFor(req), started, undefined);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the response hook needs of the matched route (set by the onRequest hook). */
    bpigraphRoute: RouteState | null;
  }
}

export interface HttpServer {
  fastify: FastifyInstance;
  apollo: ApolloServer<Context>;
  /** POST /graphql through compiled documents (null when GRAPHQL_COMPILED_EXECUTOR=false). */
  executor: CompiledExecutor | null;
}

/** Fastify + Apollo Server 5: GraphQL at /graphql, the explorer, health checks and REST routes. */
export async function createHttpServer(app: App): Promise<HttpServer> {
  // Fastify's own logger is the process logger, typed as Fastify's logger (not pino's): Fastify infers
  // its instance type from this option, and the routes take a FastifyInstance of FastifyBaseLogger.
  // Its `child` makes each request's req.log without pino's per-child work (src/logger.ts fastifyLogger).
  const logger: FastifyBaseLogger = fastifyLogger(app.log);
  const fastify = Fastify({
    // request ids from genReqId (X-Request-ID kept).
    loggerInstance: logger,
    // Fastify 5.8+ takes these two through a LogController (the top-level options are deprecated: FSTDEP023/024).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
    genReqId: requestIdFor,
    bodyLimit: app.config.bodyLimit,
    trustProxy: false,
  });
  // Optional OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT; src/tracing.ts): a SERVER span per request.
  const tracing = createTracing(app.config, app.log);
  const spans = new WeakMap<FastifyRequest, Span>();
  // ONE onRequest hook for what every request passes (a hook costs a step of Fastify's hook
  // runner and a closure per request): the request id on the reply and in the log context; CORS
  // (first: preflights are answered before anything else, CORS_ORIGINS, src/cors.ts); the URL's
  // NUL check and the REST expensive-read limit (src/graphql/limits/rest.ts).
  const cors = corsCheck(app.config, app.log);
  const guard = restGuard(app);
  const steps = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void, route?: string) => {
    if (!cors(req, reply)) guard(req, reply, done, route);
  };
  // The route's state, found once per request here (Fastify's req.routeOptions builds a new
  // object on every read) and kept on the request for the response hook.
  fastify.decorateRequest('bpigraphRoute', null);
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    const url = req.routeOptions.url;
    req.bpigraphRoute = routeState(url);
    if (!tracing) return requestContext.run({ reqId: req.id }, steps, req, reply, done, url);
    const route = url ?? 'unmatched';
    const span = tracing.startRequest(
      req.headers,
      `${req.method} ${route}`,
      {
        'http.request.method': req.method,
        'http.route': route,
        'url.path': req.url.split('?')[0],
        'bpigraph.request_id': req.id,
      },
      () => requestContext.run({ reqId: req.id }, steps, req, reply, done, url),
    );
    spans.set(req, span);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    // (a request Fastify answered before the onRequest hook ran has no state yet)
    const state = req.bpigraphRoute ?? routeState(req.routeOptions.url);
    let operation = '';
    if (state.kind === 'graphql') {
      const body =
        req.body !== null && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : undefined;
      const q = req.query as Record<string, unknown> | undefined;
      operation = operationLabel(body?.operationName ?? q?.operationName, body?.query ?? q?.query);
    }
    const series = state.operation(operation);
    const status = reply.statusCode;
    const elapsed = reply.elapsedTime;
    series.status(status).value++;
    series.duration.observe(elapsed / 1000);
    const span = tracing ? spans.get(req) : undefined;
    if (span)
      endRequestSpan(
        span,
        operation ? `${req.method} ${state.route} ${operation}` : `${req.method} ${state.route}`,
        status,
        operation ? { 'graphql.operation.name': operation } : {},
      );
    if (state.logged) {
      const ms = Math.round(elapsed * 10) / 10;
      if (!writeAccessLine(req.log, req.method, series.logFields, status, ms, 'request completed'))
        req.log.info(
          { method: req.method, route: state.route, operation: operation || undefined, status, ms },
          'request completed',
        );
    }
    done();
  });
  // Only for the hot-path guard's self-test (bench/hotpath.ts): a deliberately slowed request path.
  const busy = guardBusyLoop();
  if (busy)
    fastify.addHook('onRequest', (_req, _reply, done) => {
      busy();
      done();
    });
  // The REST contract, collected from the routes registered below (GET /api/v1/openapi.json).
  await registerOpenApi(fastify, app.config);
  const schema = await getSchema();
  const format = makeFormatError(app.log);
  const formatError: typeof format = (formatted, error) => {
    const out = format(formatted, error);
    graphqlErrors.inc({ code: String(out.extensions?.code ?? 'INTERNAL_SERVER_ERROR') });
    return out;
  };
  const apollo = new ApolloServer<Context>({
    schema,
    introspection: app.config.introspection,
    formatError,
    includeStacktraceInErrorResponses: false,
    // No "Did you mean …?" field suggestions when the schema is not meant to be explored.
    hideSchemaDetailsFromClientErrors: !app.config.introspection,
    // Request-wide cap on the document's size (its length is capped in the route below).
    parseOptions: { maxTokens: app.config.graphqlMaxTokens },
    plugins: [
      fastifyApolloDrainPlugin(fastify),
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      limitsPlugin(app),
      // A query reads only: its statements may go to a read replica (src/db/replicas.ts).
      {
        requestDidStart: async () => ({
          didResolveOperation: async (rc) =>
            void (rc.operation?.operation === 'query' && (rc.contextValue.readOnly = true)),
        }),
      },
    ],
  });
  await apollo.start();
  // Operations seen before run compiled; the rest (and every error of a request) goes to Apollo.
  const executor = app.config.compiledExecutor ? new CompiledExecutor(app, schema, formatError) : null;
  // The REST routes' and MCP tools' fixed documents: validated and compiled once, here (src/graphql/documents.ts).
  installDocuments(app, new DocumentRunner(app, schema).compile(FIXED_DOCUMENTS));

  // GraphQL subscriptions (graphql-ws) on the same server and path; closed before the server stops.
  const subscriptions = attachSubscriptions(fastify.server, schema, app);
  fastify.addHook('preClose', async () => subscriptions.close());
  fastify.addHook('onClose', async () => {
    await closeApp(app);
    await tracing?.shutdown();
  });
  const reads = app.database.reads;
  if (reads) {
    // Read-your-writes with replicas: a player's write is recorded (here and on the bus) before the answer leaves.
    fastify.addHook('onSend', async (req, _reply, payload) => {
      const ctx = contextOf(req);
      if (ctx?.viewer && !ctx.readOnly)
        await reads.wrote(ctx.viewer.id).catch((err) => app.log.error({ err }, 'write position not recorded'));
      return payload;
    });
  }

  fastify.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ message: `Request body too large (limit ${app.config.bodyLimit} bytes)` });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ message: err.message });
    }
    const { status, body } = restError(err, app.log);
    return reply.code(status).send(body);
  });
  fastify.setNotFoundHandler((_req, reply) => reply.code(404).send({ message: 'Not found' }));

  const graphqlHandler = fastifyApolloHandler(apollo, {
    context: async (req) => {
      try {
        return await contextForRequest(app, req);
      } catch (err) {
        // A bad bearer token fails before execution: HTTP 401 with the error's code.
        const e = toAppError(err);
        throw new GraphQLError(e.message, { extensions: { code: e.code, http: { status: HTTP_STATUS[e.code] } } });
      }
    },
  });

  fastify.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/graphql',
    // Not async: the compiled executor answers most requests synchronously (handed to
    // sendAtTurnEnd before the handler returns undefined); Apollo's handler and the executor's
    // slower paths are promises.
    handler: function (req, reply) {
      // A browser navigation gets the explorer (also with ?query=…, which opens it on that query).
      if (
        req.method === 'GET' &&
        (req.headers.accept ?? '').includes('text/html') &&
        (app.config.explorer || !(req.query as Record<string, unknown>)?.query)
      ) {
        if (!app.config.explorer) reply.code(404).send({ message: 'The explorer is disabled' });
        else {
          const page = explorerReply(req.headers);
          appendVary(reply, 'Accept-Encoding');
          reply.code(page.status).headers(page.headers).send(page.body);
        }
        return undefined;
      }
      const tooLong = queryTooLong(req, app.config.graphqlMaxQueryLength);
      if (tooLong) {
        reply
          .code(400)
          .header('content-type', 'application/json; charset=utf-8')
          .send(JSON.stringify({ errors: [{ message: tooLong, extensions: { code: 'BAD_USER_INPUT' } }] }) + '\n');
        return undefined;
      }
      const handled = executor ? executor.handle(req, reply) : false;
      if (handled === true) return undefined;
      if (handled === false) return graphqlHandler.call(this, req as never, reply as never);
      return handled.then((done) => (done ? reply : graphqlHandler.call(this, req as never, reply as never)));
    },
  });

  // Probed often (load balancers, the hostile bench): a fixed body, no serialisation, no promise.
  // The plain probe is answered before Fastify (healthzFirst); this route answers the rest.
  fastify.get('/healthz', (_req, reply) => {
    reply.header('content-type', JSON_CONTENT_TYPE).send(HEALTHZ_BODY);
  });
  healthzFirst(fastify, { tracing: tracing !== null, vary: variesByOrigin(app.config.cors), busy });
  // Prometheus text exposition of this process's metrics (src/metrics.ts).
  fastify.get('/metrics', async (_req, reply) =>
    reply.header('content-type', registry.contentType).send(await registry.metrics()),
  );
  fastify.get('/readyz', async (_req, reply) => {
    try {
      await Promise.race([
        app.db.$queryRaw`SELECT 1`,
        new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), 2000).unref()),
      ]);
      return { status: 'ready', database: app.database.kind };
    } catch {
      return reply.code(503).send({ status: 'unavailable', message: 'Database unreachable' });
    }
  });

  registerRest(fastify, app);
  return { fastify, apollo, executor };
}
