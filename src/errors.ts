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

export const badInput = (message: string, issues?: ErrorIssue[]) =>
  new AppError('BAD_USER_INPUT', message, issues ? { issues } : undefined);
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
const UNREACHABLE = new Set([
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
  'ECONNREFUSED',
  'ECONNRESET',
  '57P01',
  '57P03',
]);

export function fromDatabaseError(err: unknown): AppError | undefined {
  const e = err as {
    code?: unknown;
    cause?: { code?: unknown; kind?: unknown; originalCode?: unknown };
    message?: unknown;
  };
  const code = e?.code;
  if (code === 'P2002') return conflict('Already exists');
  if (code === 'P2025') return notFound();
  // The database is down or unreachable: the caller may retry (REST 503, GraphQL SERVICE_UNAVAILABLE).
  const causeCode = e?.cause?.originalCode ?? e?.cause?.code;
  const kind = e?.cause?.kind;
  if (
    UNREACHABLE.has(String(code)) ||
    UNREACHABLE.has(String(causeCode)) ||
    kind === 'DatabaseNotReachable' ||
    kind === 'ConnectionClosed' ||
    (typeof e?.message === 'string' &&
      /ECONNREFUSED|Connection terminated|terminating connection|the database system is (shutting down|starting up)/.test(
        e.message,
      ))
  ) {
    return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly');
  }
  return undefined;
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return fromDatabaseError(err) ?? new AppError('INTERNAL_SERVER_ERROR', 'Internal server error');
}

/** JSON text passed as an argument (admin imports): invalid JSON is the caller's error. */
export function parseJsonArgument(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badInput(`${name} is not valid JSON`);
  }
}
