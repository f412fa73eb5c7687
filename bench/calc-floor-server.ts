/**
 * The floor under the REST calculator (issue #32): the server's own calculator pipeline with
 * nothing around it — the query string parsed as Fastify's router parses it, the parameters
 * (src/rest/bpicalc.ts plainParams), an anonymous context, the compiled fixed document RestBpiCalc
 * (cost and limits, the rule table, the resolver, the catalogue, src/graphql/documents.ts), the
 * route's mapping and JSON — answered by a bare Node http listener: no Fastify, no request id, no
 * log context, no access line, no metrics, no CORS or limiter step. What a REST path that keeps
 * the one pipeline (issue #30) cannot go below; `npm run bench:calc` measures it against the bare
 * server in the same run. Answers are written at the end of the loop's turn through the served
 * routes' own batch (src/answer-batch.ts), so the floor is not dearer than the server for want of that.
 *
 * FLOOR_ADD (comma-separated, for `BENCH_CALC_LADDER=1 npm run bench:calc`) adds the served
 * behaviours one by one, each through the server's own code, to see what each costs:
 * - `id`: the request id (src/http.ts requestIdFor) in `X-Request-ID`;
 * - `context`: the request's log context (src/logger.ts requestContext, AsyncLocalStorage) around
 *   the request, and so around its answer (writeAtTurnEnd writes each in its own);
 * - `metrics`: the request counted and timed in its metric series (src/metrics.ts);
 * - `log`: the access line (src/logger.ts writeAccessLine) on a request logger bound to the
 *   request id (fastifyLogger's child), on standard output at info.
 * Serves only `GET /api/v1/bpi/calc?…` in its usual spelling (anything else: 404) and `/readyz`.
 *
 *   node -r @swc-node/register bench/calc-floor-server.ts   DATA_DIR / DATABASE_URL as the server
 */
import 'reflect-metadata';
import http from 'node:http';
import { parse } from 'fast-querystring';
import { writeAtTurnEnd } from '../src/answer-batch';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { applyMigrations } from '../src/db/migrate';
import { createContext } from '../src/graphql/context';
import { DocumentRunner } from '../src/graphql/documents';
import { requestIdFor } from '../src/http';
import { createLogger, fastifyLogger, requestContext, writeAccessLine } from '../src/logger';
import { requestDuration, requestsTotal } from '../src/metrics';
import { calcAnswer, plainParams } from '../src/rest/bpicalc';
import { RestBpiCalc, type BpiCalcData } from '../src/rest/documents/bpi-calc';
import { getSchema } from '../src/schema';

const ROUTE = '/api/v1/bpi/calc';
const PATH = `${ROUTE}?`;
const JSON_TYPE = 'application/json; charset=utf-8';
const ADD = new Set((process.env.FLOOR_ADD ?? '').split(',').filter(Boolean));
for (const a of ADD)
  if (!['id', 'context', 'metrics', 'log'].includes(a)) throw new Error(`FLOOR_ADD: unknown behaviour ${a}`);
if (ADD.has('log') && !ADD.has('id')) throw new Error('FLOOR_ADD: log needs id (the line carries the request id)');

async function main(): Promise<void> {
  const config = loadConfig();
  const quiet = createLogger('warn');
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, purpose: 'calc floor' });
  await applyMigrations(database.adapterFactory);
  const app = await createApp(config, database, quiet);
  const run = new DocumentRunner(app, await getSchema()).compile([RestBpiCalc]).prepareDirect(RestBpiCalc);

  const labels = { kind: 'rest', route: ROUTE, operation: '' };
  const duration = ADD.has('metrics') ? requestDuration.series(labels) : null;
  const ok = ADD.has('metrics') ? requestsTotal.series({ ...labels, status: '200' }) : null;
  const accessLog = ADD.has('log') ? fastifyLogger(createLogger('info')) : null;
  const logFields = `,"route":${JSON.stringify(ROUTE)}`;

  const write = (res: http.ServerResponse, id: string | undefined, started: number, body: string): void => {
    try {
      res.writeHead(
        200,
        id === undefined
          ? { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) }
          : { 'x-request-id': id, 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) },
      );
      res.end(body);
    } catch (err) {
      // (as writeAtTurnEnd asks: one answer that cannot be written must not keep the turn's others)
      quiet.error({ err }, 'calc floor: answer not sent');
      return;
    }
    if (ok && duration) {
      ok.value++;
      duration.observe((performance.now() - started) / 1000);
    }
    if (accessLog) {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      writeAccessLine(accessLog.child({ reqId: id }), 'GET', logFields, 200, ms, 'request completed');
    }
  };
  // (without the log context no answer has a store: writeAtTurnEnd's run(undefined) is then a
  // plain call and never turns AsyncLocalStorage's hooks on)
  const answer = (res: http.ServerResponse, id: string | undefined, started: number, data: BpiCalcData) =>
    writeAtTurnEnd(write, res, id, started, JSON.stringify(calcAnswer(data)));
  const fail = (res: http.ServerResponse, status: number, err?: unknown) => {
    if (err) quiet.error({ err }, 'calc floor: request failed');
    res.writeHead(status, { 'content-type': JSON_TYPE }).end(JSON.stringify({ message: http.STATUS_CODES[status] }));
  };
  const handle = (req: http.IncomingMessage, res: http.ServerResponse, id: string | undefined, started: number) => {
    const url = req.url ?? '';
    const params = req.method === 'GET' && url.startsWith(PATH) ? plainParams(parse(url.slice(PATH.length))) : null;
    if (!params) return fail(res, 404);
    const ctx = createContext(app, null, req.socket.remoteAddress ?? '');
    ctx.readOnly = true;
    try {
      const data = run(ctx, params);
      if (data instanceof Promise)
        data.then(
          (d) => answer(res, id, started, d),
          (err: unknown) => fail(res, 500, err),
        );
      else answer(res, id, started, data);
    } catch (err) {
      fail(res, 500, err);
    }
  };

  const server = http.createServer((req, res) => {
    if (req.url === '/readyz') return void res.writeHead(200, { 'content-type': JSON_TYPE }).end('{"status":"ready"}');
    const started = performance.now();
    const id = ADD.has('id') ? requestIdFor(req) : undefined;
    if (ADD.has('context')) requestContext.run({ reqId: id ?? '' }, handle, req, res, id, started);
    else handle(req, res, id, started);
  });
  server.listen(config.port, config.host);
  const stop = () => server.close(() => void database.close().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
