import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ArgumentValidationError } from 'type-graphql';
import { AppError, fromDatabaseError } from '../errors';
import type { Logger } from '../logger';

const PASS_THROUGH = new Set([
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
]);

/**
 * The one error mapping for GraphQL: domain errors → extensions.code; anything unknown is
 * logged with its cause and masked as INTERNAL_SERVER_ERROR (no stack traces to clients).
 */
export function makeFormatError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    if (original instanceof AppError) {
      const ext: Record<string, unknown> = { code: original.code };
      if (original.details?.issues) ext.issues = original.details.issues;
      if (original.details?.retryAfter !== undefined) ext.retryAfter = original.details.retryAfter;
      return { message: original.message, locations: formatted.locations, path: formatted.path, extensions: ext };
    }
    if (original instanceof ArgumentValidationError) {
      return {
        message: 'Invalid arguments',
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: 'BAD_USER_INPUT' },
      };
    }
    const dbErr = fromDatabaseError(original);
    if (dbErr)
      return {
        message: dbErr.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: dbErr.code },
      };
    const code = formatted.extensions?.code;
    // Apollo's own request errors without a code (e.g. an APQ hash that does not match the query).
    const httpStatus =
      error instanceof GraphQLError ? (error.extensions as { http?: { status?: number } })?.http?.status : undefined;
    if (
      error instanceof GraphQLError &&
      !error.originalError &&
      !error.extensions?.code &&
      httpStatus &&
      httpStatus < 500
    ) {
      return {
        message: formatted.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: 'BAD_REQUEST' },
      };
    }
    if (typeof code === 'string' && PASS_THROUGH.has(code)) {
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
    }
    log.error({ err: original, path: formatted.path }, 'unhandled error in GraphQL request');
    return {
      message: 'Internal server error',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  };
}
