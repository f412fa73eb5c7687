import { Writable } from 'node:stream';
import { parsePrometheusText, type Family } from '../../helpers/prometheus';
import { startTestServer, testConfig, type TestServer } from '../../helpers/server';
import { openTestDatabase, usingPostgres } from '../../helpers/db';
import { aPublicPlayer } from '../../helpers/factories';
import { createApp } from '../../../src/app';
import { createHttpServer } from '../../../src/http';
import { createLogger } from '../../../src/logger';
import { demoDefinitions } from '../../../src/db/seed';
import { updateDefinitions } from '../../../src/modules/catalogue/definitions.service';

/** GET /metrics, checked as Prometheus text (version 0.0.4) and parsed by a strict exposition-format parser. */
async function scrape(s: TestServer): Promise<Map<string, Family>> {
  const res = await fetch(`${s.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}
/** Exactly these labels (a histogram's `le` aside). */
const same = (a: Record<string, string>, b: Record<string, string>) => {
  const { le: _le, ...rest } = a;
  return Object.keys(rest).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => rest[k] === v);
};
/** A counter's / gauge's value for these labels (0 when the series does not exist yet). */
const value = (m: Map<string, Family>, name: string, labels: Record<string, string>) =>
  m.get(name)?.samples.find((x) => x.name === name && same(x.labels, labels))?.value ?? 0;
/** A histogram's count and sum for these labels. */
const hist = (m: Map<string, Family>, name: string, labels: Record<string, string>) => ({
  count: m.get(name)?.samples.find((x) => x.name === `${name}_count` && same(x.labels, labels))?.value ?? 0,
  sum: m.get(name)?.samples.find((x) => x.name === `${name}_sum` && same(x.labels, labels))?.value ?? 0,
});
/** Requests counted with `status` in `labels`' series between two scrapes. */
const counted = (
  before: Map<string, Family>,
  after: Map<string, Family>,
  labels: Record<string, string>,
  status: string,
) =>
  value(after, 'bpigraph_requests_total', { ...labels, status }) -
  value(before, 'bpigraph_requests_total', { ...labels, status });
/** Requests timed in `labels`' duration histogram between two scrapes. */
const timed = (before: Map<string, Family>, after: Map<string, Family>, labels: Record<string, string>) =>
  hist(after, 'bpigraph_request_duration_seconds', labels).count -
  hist(before, 'bpigraph_request_duration_seconds', labels).count;

describe('GET /metrics (Prometheus)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  }, 300_000);
  afterAll(() => s.close(), 120_000);

  it('exposes the families, typed, and the series move with requests, errors, loader batches, imports and recomputes', async () => {
    const a = await aPublicPlayer(s.db.prisma);
    const b = await aPublicPlayer(s.db.prisma);
    const before = await scrape(s);
    for (const [name, type] of [
      ['bpigraph_requests_total', 'counter'],
      ['bpigraph_request_duration_seconds', 'histogram'],
      ['bpigraph_graphql_errors_total', 'counter'],
      ['bpigraph_dataloader_batch_size', 'histogram'],
      ['bpigraph_import_duration_seconds', 'histogram'],
      ['bpigraph_recompute_duration_seconds', 'histogram'],
      ['bpigraph_process_cpu_seconds_total', 'counter'],
    ]) {
      expect(before.get(name)?.type).toBe(type);
    }

    // 3 named GraphQL operations (operationName from the document), 1 invalid query, 2 REST calls (200, 400)
    const named = 'query OpsTwoUsers($a: ID!, $b: ID!) { a: user(id: $a) { id } b: user(id: $b) { id } }';
    for (let i = 0; i < 3; i++) expect((await s.gql(named, { a: a.id, b: b.id })).body.errors).toBeUndefined();
    expect((await s.gql('query OpsBroken { noSuchField }')).body.errors[0].extensions.code).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
    const title = [...s.app.catalogue.charts()].find(
      (c) => c.playStyle === 'SP' && c.difficulty === 'ANOTHER' && c.definition,
    )!.title;
    expect(
      (await s.get(`/api/v1/bpi/calc?title=${encodeURIComponent(title)}&difficulty=ANOTHER&exScore=1000`)).status,
    ).toBe(200);
    expect((await s.get('/api/v1/bpi/calc?difficulty=ANOTHER')).status).toBe(400);
    // a definitions import (a new demo release, one world record moved) and a recompute run
    const doc = demoDefinitions();
    doc.version = 'demo-metrics';
    (doc.body[0] as { wr: number }).wr -= 2;
    await updateDefinitions(s.app, doc, undefined, { startRecompute: false });
    await s.app.recompute.run(['33']);

    const after = await scrape(s);
    const op = { kind: 'graphql', route: '/graphql', operation: 'OpsTwoUsers' };
    expect(counted(before, after, op, '200')).toBe(3);
    expect(timed(before, after, op)).toBe(3);
    expect(hist(after, 'bpigraph_request_duration_seconds', op).sum).toBeGreaterThan(
      hist(before, 'bpigraph_request_duration_seconds', op).sum,
    );
    const rest = { kind: 'rest', route: '/api/v1/bpi/calc', operation: '' };
    expect(counted(before, after, rest, '200')).toBe(1);
    expect(counted(before, after, rest, '400')).toBe(1);
    const code = { code: 'GRAPHQL_VALIDATION_FAILED' };
    expect(
      value(after, 'bpigraph_graphql_errors_total', code) - value(before, 'bpigraph_graphql_errors_total', code),
    ).toBe(1);
    // each request loads both users in one batch of 2 keys: 3 batches, 6 keys
    const loader = { loader: 'users.byId' };
    expect(
      hist(after, 'bpigraph_dataloader_batch_size', loader).count -
        hist(before, 'bpigraph_dataloader_batch_size', loader).count,
    ).toBe(3);
    expect(
      hist(after, 'bpigraph_dataloader_batch_size', loader).sum -
        hist(before, 'bpigraph_dataloader_batch_size', loader).sum,
    ).toBe(6);
    expect(
      hist(after, 'bpigraph_import_duration_seconds', { kind: 'definitions' }).count -
        hist(before, 'bpigraph_import_duration_seconds', { kind: 'definitions' }).count,
    ).toBe(1);
    expect(
      hist(after, 'bpigraph_recompute_duration_seconds', { step: 'all' }).count -
        hist(before, 'bpigraph_recompute_duration_seconds', { step: 'all' }).count,
    ).toBe(1);
    for (const step of s.app.recompute.stepNames) {
      expect(
        hist(after, 'bpigraph_recompute_duration_seconds', { step }).count -
          hist(before, 'bpigraph_recompute_duration_seconds', { step }).count,
      ).toBe(1);
    }
    if (usingPostgres) {
      // the test database's pool: max 5 (test/helpers/db.ts), at least one connection open
      expect(value(after, 'bpigraph_db_pool_connections', { state: 'max' })).toBeGreaterThanOrEqual(5);
      expect(value(after, 'bpigraph_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    } else {
      expect(after.get('bpigraph_db_pool_connections')?.samples ?? []).toEqual([]);
    }
  }, 180_000);

  it('the parser is strict: it refuses what is not the exposition format', () => {
    expect(() => parsePrometheusText('# TYPE a counter\na{x="1"} 1\n')).not.toThrow();
    expect(() => parsePrometheusText('a 1\n')).toThrow(/of no declared family/);
    expect(() => parsePrometheusText('# TYPE a counter\na{x=1} 1\n')).toThrow(/not quoted/);
    expect(() => parsePrometheusText('# TYPE a counter\na one\n')).toThrow(/bad value/);
    // NaN and Inf in any letter case, as Prometheus reads them (prom-client writes `Nan`)
    expect(parsePrometheusText('# TYPE a gauge\na Nan\n').get('a')!.samples[0].value).toBeNaN();
    expect(parsePrometheusText('# TYPE a gauge\na -inf\n').get('a')!.samples[0].value).toBe(-Infinity);
    expect(() =>
      parsePrometheusText('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\nh_sum 1\n'),
    ).toThrow(/not cumulative/);
  });

  it('x-request-id: a new one per request, the client’s kept when sane', async () => {
    const fresh = await fetch(`${s.url}/healthz`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${s.url}/healthz`, { headers: { 'x-request-id': 'lb-7f3a.42' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42');
    const hostile = await fetch(`${s.url}/healthz`, { headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('two scrapes back to back both parse (the event-loop delay gauges have no sample in between: Nan)', async () => {
    const [a, b] = [await scrape(s), await scrape(s)];
    expect(a.get('bpigraph_nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
    expect(b.get('bpigraph_nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
  });

  it('/healthz: the plain probe (answered before Fastify) and routed ones answer alike, and every one is counted', async () => {
    const before = await scrape(s);
    const labels = { kind: 'other', route: '/healthz', operation: '' };
    // the plain probe, one with a query string and a HEAD (both through Fastify's router), one with a sane request id
    const plain = await fetch(`${s.url}/healthz`);
    const routed = await fetch(`${s.url}/healthz?via=router`);
    const head = await fetch(`${s.url}/healthz`, { method: 'HEAD' });
    const kept = await fetch(`${s.url}/healthz`, { headers: { 'x-request-id': 'probe-1' } });
    // (Date, the request id and the connection's own headers aside)
    const perRequest = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);
    const shape = (r: Response) => [...r.headers].filter(([k]) => !perRequest.has(k));
    for (const r of [plain, routed, head, kept]) expect(r.status).toBe(200);
    expect(await plain.text()).toBe('{"status":"ok"}');
    expect(await routed.text()).toBe('{"status":"ok"}');
    expect(await head.text()).toBe('');
    // test config: outside production, loopback pages are allowed, so every answer varies by Origin
    expect(shape(plain)).toEqual([
      ['content-length', '15'],
      ['content-type', 'application/json; charset=utf-8'],
      ['vary', 'Origin'],
    ]);
    expect(shape(routed)).toEqual(shape(plain));
    expect(shape(head)).toEqual(shape(plain));
    expect(kept.headers.get('x-request-id')).toBe('probe-1');
    const after = await scrape(s);
    // 4 probes, each counted once with status 200 and timed once
    expect(counted(before, after, labels, '200')).toBe(4);
    expect(timed(before, after, labels)).toBe(4);
  });

  it('/healthz: plain probes arriving together (written at the end of the turn) each get their own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        fetch(`${s.url}/healthz`, { headers: { 'x-request-id': `probe-${n}` } }).then(async (r) => [
          r.status,
          r.headers.get('x-request-id'),
          await r.text(),
        ]),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, (_, n) => [200, `probe-${n}`, '{"status":"ok"}']));
  });

  it('/healthz with CORS off (the production default) carries no Vary, answered either way', async () => {
    const db = await openTestDatabase();
    const app = await createApp(testConfig({ CORS_ORIGINS: 'none' }), db, createLogger('silent'));
    const { fastify } = await createHttpServer(app);
    try {
      await fastify.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`;
      for (const path of ['/healthz', '/healthz?via=router']) {
        const r = await fetch(url + path);
        expect(r.status).toBe(200);
        expect(r.headers.get('vary')).toBeNull();
        expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect(await r.text()).toBe('{"status":"ok"}');
      }
    } finally {
      await fastify.close();
    }
  });
});

describe('request id on every log line', () => {
  it('lines written while serving a request carry its reqId (Fastify’s request log and the process logger)', async () => {
    const lines: any[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        cb();
      },
    });
    const db = await openTestDatabase();
    const app = await createApp(testConfig({ LOG_LEVEL: 'info' }), db, createLogger('info', sink));
    const { fastify } = await createHttpServer(app);
    // a handler that logs through the process logger (as services do), after an await
    fastify.get('/test-log', async () => {
      await new Promise((r) => setTimeout(r, 5));
      app.log.info({ probe: true }, 'inside the request');
      return { ok: true };
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`;
      const res = await fetch(`${url}/test-log`, { headers: { 'x-request-id': 'trace-me-1' } });
      expect(res.headers.get('x-request-id')).toBe('trace-me-1');
      await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'trace-me-2' },
        body: JSON.stringify({ query: '{ serverInfo { name } }' }),
      });
      const probe = lines.find((l) => l.probe);
      expect(probe).toMatchObject({ reqId: 'trace-me-1', msg: 'inside the request' });
      expect(lines.filter((l) => l.msg === 'request completed').map((l) => [l.reqId, l.route, l.status])).toEqual([
        ['trace-me-1', '/test-log', 200],
        ['trace-me-2', '/graphql', 200],
      ]);
      // no line written during a request lacks its id; lines outside requests (start-up) have none
      expect(lines.filter((l) => l.route || l.probe).every((l) => typeof l.reqId === 'string')).toBe(true);
    } finally {
      await fastify.close();
      await db.close();
    }
  }, 120_000);
});
