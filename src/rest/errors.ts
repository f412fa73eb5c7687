import { AppError, HTTP_STATUS, toAppError } from '../errors';
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
