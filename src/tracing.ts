import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Config } from './config';
import type { Logger } from './logger';

/**
 * Optional OpenTelemetry tracing (issue #18): on only when an OTLP endpoint is configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; src/config.ts), so a server
 * without it loads none of the SDK and every span call below is the API's no-op.
 *
 * What is traced:
 * - one SERVER span per HTTP request (`POST /graphql`, `GET /api/v1/bpi/calc`…): the route
 *   template, the method, the status, the GraphQL operation name, the request id (the same
 *   `reqId` as the log lines); a W3C `traceparent` header from the caller makes it a child of the
 *   caller's trace;
 * - an INTERNAL span around each import and recompute step (`timed` in src/metrics.ts), a child of
 *   the request that started it (the context travels with the async call chain:
 *   AsyncLocalStorageContextManager).
 * Spans leave in batches over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`; `shutdown` (server
 * close) flushes what is left.
 */
export interface Tracing {
  /** Starts a request's SERVER span (parent from the `traceparent` header) and runs `fn` inside its context. */
  startRequest(
    headers: Record<string, string | string[] | undefined>,
    name: string,
    attributes: Record<string, string>,
    fn: () => void,
  ): Span;
  /** Flushes and stops the exporter; the process's global tracer goes back to the no-op. */
  shutdown(): Promise<void>;
}

export const TRACER_NAME = 'bpigraph';

/** The tracing of this process, or null when no OTLP endpoint is configured. */
export function createTracing(config: Pick<Config, 'tracing'>, log?: Logger): Tracing | null {
  if (!config.tracing) return null;
  // Loaded only when tracing is on.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { TracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { AsyncLocalStorageContextManager } =
    require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  /* eslint-enable @typescript-eslint/no-require-imports */

  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.tracing.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: config.tracing.tracesUrl }) })],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const registered =
    trace.setGlobalTracerProvider(provider) &&
    context.setGlobalContextManager(contextManager) &&
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (!registered)
    log?.warn('OpenTelemetry: another tracer provider is registered in this process; this one is not the global one');
  const tracer = provider.getTracer(TRACER_NAME);
  log?.info(
    { tracesUrl: config.tracing.tracesUrl, serviceName: config.tracing.serviceName },
    'OpenTelemetry tracing on',
  );

  return {
    startRequest(headers, name, attributes, fn) {
      const parent = propagation.extract(ROOT_CONTEXT, headers);
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
      context.with(trace.setSpan(parent, span), fn);
      return span;
    },
    async shutdown() {
      await provider.shutdown().catch((err) => log?.warn({ err }, 'OpenTelemetry: flushing spans failed'));
      if (registered) {
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}

/** Ends a request's span with its outcome: the status code, the GraphQL operation, ERROR for 5xx. */
export function endRequestSpan(span: Span, name: string, status: number, attributes: Record<string, string>): void {
  span.updateName(name);
  span.setAttributes({ ...attributes, 'http.response.status_code': status });
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Runs `fn` in an INTERNAL span named `name` (a child of the current span; the no-op when tracing is off). */
export function inSpan<T>(name: string, attributes: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}
