/**
 * Optional OpenTelemetry tracing (src/tracing.ts): with OTEL_EXPORTER_OTLP_ENDPOINT set, the
 * server sends its spans over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`. A small HTTP receiver
 * stands in for the collector and keeps what it is sent; the server is closed (which flushes the
 * batch) before the spans are read.
 */
import http from 'node:http';
import net from 'node:net';
import { loadConfig } from '../../../src/config';
import { createTracing } from '../../../src/tracing';
import { anAdmin } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
  status?: { code?: number };
}

const attrs = (s: OtlpSpan) =>
  Object.fromEntries(s.attributes.map((a) => [a.key, a.value.stringValue ?? Number(a.value.intValue)]));

describe('OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  const bodies: { path: string; contentType: string; json: any }[] = [];
  let receiver: http.Server;
  let endpoint: string;
  let server: TestServer;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        bodies.push({ path: req.url ?? '', contentType: String(req.headers['content-type']), json: JSON.parse(text) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`;
    server = await startTestServer({
      seedDemo: false,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'bpigraph-test' },
    });
  });
  let closed = false;
  afterAll(async () => {
    if (!closed) await server?.close();
    await new Promise((r) => receiver.close(r));
  });

  it("sends a SERVER span per request (a child of the caller's traceparent) and an import span inside the request that ran it", async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const callerSpan = 'b7ad6b7169203331';
    const probe = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${callerSpan}-01` },
      body: JSON.stringify({ query: 'query Probe { __typename }' }),
    });
    expect(probe.status).toBe(200);
    const probeRequestId = probe.headers.get('x-request-id');

    const missing = await fetch(`${server.url}/api/v1/bpi/calc?title=Nothing&difficulty=ANOTHER&exScore=1`);
    expect(missing.status).toBe(404);

    const admin = await anAdmin(server.db.prisma);
    const doc = {
      version: 'trace-1',
      requireVersion: '0',
      body: [
        {
          title: 'Trace Song',
          difficulty: '4',
          wr: 1900,
          avg: 1600,
          notes: 1000,
          bpm: '150',
          textage: '33/t.html',
          difficultyLevel: '12',
          dpLevel: '0',
          coef: -1,
        },
      ],
    };
    const imported = await server.gql(
      'mutation Load($j: String!) { importDefinitions(json: $j) { added } }',
      { j: JSON.stringify(doc) },
      await server.tokenFor(admin.id),
    );
    expect(imported.body).toEqual({ data: { importDefinitions: { added: 1 } } });

    await server.close(); // flushes the batch
    closed = true;
    const batches = bodies.filter((b) => b.path === '/v1/traces');
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((b) => b.contentType.startsWith('application/json'))).toBe(true);
    const resources = batches.flatMap((b) => b.json.resourceSpans as any[]);
    const serviceNames = new Set(
      resources.map((r) => r.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue),
    );
    expect([...serviceNames]).toEqual(['bpigraph-test']);
    const spans: OtlpSpan[] = resources.flatMap((r) => r.scopeSpans.flatMap((s: any) => s.spans));
    const byName = (name: string) => spans.filter((s) => s.name === name);

    // The GraphQL request: the caller's trace, the caller's span as parent, SERVER (kind 2).
    const [probeSpan] = byName('POST /graphql Probe');
    expect(probeSpan).toMatchObject({ traceId, parentSpanId: callerSpan, kind: 2 });
    expect(attrs(probeSpan)).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/graphql',
      'http.response.status_code': 200,
      'graphql.operation.name': 'Probe',
      'bpigraph.request_id': probeRequestId,
    });

    // A REST route without a traceparent: a new trace, its own root; the 404 is recorded, not an error status (4xx).
    const [restSpan] = byName('GET /api/v1/bpi/calc');
    expect(restSpan.traceId).not.toBe(traceId);
    expect(restSpan.parentSpanId ?? '').toBe('');
    expect(attrs(restSpan)).toMatchObject({ 'http.route': '/api/v1/bpi/calc', 'http.response.status_code': 404 });
    expect(restSpan.status?.code ?? 0).toBe(0);

    // The definitions import (metrics.ts timed): an INTERNAL span (kind 1) inside the mutation's request span.
    const [loadSpan] = byName('POST /graphql Load');
    const [importSpan] = byName('import definitions');
    expect(importSpan).toMatchObject({ traceId: loadSpan.traceId, parentSpanId: loadSpan.spanId, kind: 1 });
    expect(attrs(importSpan)).toMatchObject({ kind: 'definitions' });
  }, 120_000);
});

describe('tracing configuration', () => {
  const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32) };
  it('is off without an endpoint (no SDK loaded, no-op spans), and follows the OTLP/HTTP endpoint conventions', () => {
    expect(loadConfig(base).tracing).toBeUndefined();
    expect(createTracing(loadConfig(base))).toBeNull();
    // OTEL_EXPORTER_OTLP_ENDPOINT is a base: /v1/traces is appended (one slash); the traces endpoint is used as given
    expect(loadConfig({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      serviceName: 'bpigraph',
    });
    expect(
      loadConfig({
        ...base,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/traces',
      }).tracing?.tracesUrl,
    ).toBe('http://b:9999/traces');
    expect(() => loadConfig({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/,
    );
  });
});
