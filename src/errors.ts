/**
 * Domain errors: the one vocabulary of failures. GraphQL maps `code` to `extensions.code`,
 * REST maps it to an HTTP status with a `{message}` body (src/graphql/errors.ts, src/rest/errors.ts).
 */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR';

export interface ErrorIssue {
  code: string;
  path: (string | number)[];
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: { issues?: ErrorIssue[]; retryAfter?: number; [k: string]: unknown },
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badInput = (message: string, issues?: ErrorIssue[]) => new AppError('BAD_USER_INPUT', message, issues ? { issues } : undefined);
export const unauthenticated = (message = 'Authentication required') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message = 'Forbidden') => new AppError('FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const rateLimited = (retryAfter: number) => new AppError('RATE_LIMITED', 'Too Many Requests', { retryAfter });

export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
};

/** Prisma's known request errors that are the caller's fault, translated to domain errors. */
export function fromDatabaseError(err: unknown): AppError | undefined {
  const code = (err as { code?: unknown })?.code;
  if (code === 'P2002') return conflict('Already exists');
  if (code === 'P2025') return notFound();
  return undefined;
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return fromDatabaseError(err) ?? new AppError('INTERNAL_SERVER_ERROR', 'Internal server error');
}
