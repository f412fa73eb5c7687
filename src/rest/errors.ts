import { AppError, HTTP_STATUS, toAppError } from '../errors';
import type { FastifyReply } from 'fastify';
import type { Logger } from '../logger';

/** The one error mapping for REST: domain error → HTTP status + JSON body. */
export function restError(
  err: unknown,
  log: Logger,
): { status: number; body: Record<string, unknown>; headers?: Record<string, string> } {
  const e = toAppError(err);
  if (!(err instanceof AppError) && e.code === 'INTERNAL_SERVER_ERROR')
    log.error({ err }, 'unhandled error in REST request');
  const body: Record<string, unknown> = { message: e.message };
  if (e.details?.issues) body.errors = e.details.issues;
  const headers: Record<string, string> = {};
  if (e.details?.retryAfter !== undefined) headers['retry-after'] = String(e.details.retryAfter);
  return { status: HTTP_STATUS[e.code], body, headers };
}

/**
 * Answers a REST request with the error `err` maps to: status, headers, JSON body. `asText`: the body
 * sent as a JSON string with its content type (routes whose answers are otherwise pictures or
 * downloads).
 */
export function sendRestError(reply: FastifyReply, err: unknown, log: Logger, asText = false): FastifyReply {
  const { status, body, headers } = restError(err, log);
  // A cacheable answer that failed after its cache headers were set (sendCacheable, then a render
  // refused by the pool): the error is not that ETag's content, and no shared cache may keep it.
  if (reply.hasHeader('etag')) reply.removeHeader('etag').header('cache-control', 'no-store');
  reply.code(status).headers(headers ?? {});
  return asText
    ? reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body))
    : reply.send(body);
}
