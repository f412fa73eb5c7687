import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApp, type App } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createHttpServer } from '../../src/http';
import type { CompiledExecutor } from '../../src/graphql/executor';
import { createLogger } from '../../src/logger';
import type { DatabaseHandle } from '../../src/db/client';
import { openTestDatabase } from './db';
import { contractViolations, isRestRoute, type RecordedResponse } from './openapi-check';

export interface TestServer {
  app: App;
  /** The compiled executor of POST /graphql (null when GRAPHQL_COMPILED_EXECUTOR=false). */
  executor: CompiledExecutor | null;
  db: DatabaseHandle;
  fastify: FastifyInstance;
  url: string;
  /** Counts SQL statements (Prisma query events) since the last reset. */
  sql: { count: number; statements: string[]; reset(): void };
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<{ status: number; body: { data?: T; errors?: any } }>;
  get(pathAndQuery: string, token?: string): Promise<{ status: number; body: any; headers: Headers }>;
  tokenFor(userId: string): Promise<string>;
  close(): Promise<void>;
}

export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(os.tmpdir(), 'bpigraph-test-data'),
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    ...overrides,
  });
}

/** The real server (Fastify + Apollo + REST) on a fresh test database, listening on a free port. */
export async function startTestServer(
  opts: { seedDemo?: boolean; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const sql = {
    count: 0,
    statements: [] as string[],
    reset() {
      this.count = 0;
      this.statements = [];
    },
  };
  const db = await openTestDatabase({
    seeded: opts.seedDemo ?? true,
    onQuery: (e) => {
      sql.count++;
      sql.statements.push(e.query);
    },
  });
  const config = testConfig(opts.env);
  // TEST_LOG=error (or warn, info…) shows the server's log lines of a failing test
  const app = await createApp(config, db, createLogger(process.env.TEST_LOG ?? 'silent'));
  const { fastify, executor } = await createHttpServer(app);
  // Every REST response a test produces is checked against the OpenAPI document when the server closes.
  const recorded: RecordedResponse[] = [];
  fastify.addHook('onSend', async (req, reply, payload) => {
    const route = req.routeOptions.url;
    // (the wrong-method 405 routes are left out of the document on purpose: `schema.hide`)
    const hidden = req.routeOptions.schema?.hide === true;
    if (
      route &&
      isRestRoute(route) &&
      !hidden &&
      req.method !== 'HEAD' &&
      (typeof payload === 'string' || payload === null || payload === undefined)
    ) {
      recorded.push({
        method: req.method,
        route,
        status: reply.statusCode,
        contentType: String(reply.getHeader('content-type') ?? ''),
        body: (payload as string | null) ?? '',
      });
    }
    return payload;
  });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`;
  const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  return {
    app,
    executor,
    db,
    fastify,
    url,
    sql,
    async gql(query, variables, token) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(token) },
        body: JSON.stringify({ query, variables }),
      });
      return { status: res.status, body: await res.json() };
    },
    async get(p, token) {
      const res = await fetch(`${url}${p}`, { headers: auth(token) });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body, headers: res.headers };
    },
    async tokenFor(userId) {
      return (await app.auth.issueAccessToken(userId)).token;
    },
    async close() {
      const doc = (fastify as unknown as { swagger(): Parameters<typeof contractViolations>[0] }).swagger();
      await fastify.close();
      await db.close();
      const problems = contractViolations(doc, recorded);
      if (problems.length)
        throw new Error(`REST responses outside the OpenAPI document (src/rest/openapi.ts):\n${problems.join('\n')}`);
    },
  };
}

/** Fails with the whole response body when a GraphQL response carries errors. */
export function expectNoErrors<T>(res: { status: number; body: { data?: T; errors?: any[] } }): T {
  if (res.body.errors?.length || res.status !== 200) {
    throw new Error(`GraphQL request failed (HTTP ${res.status}):\n${JSON.stringify(res.body, null, 2)}`);
  }
  return res.body.data as T;
}
