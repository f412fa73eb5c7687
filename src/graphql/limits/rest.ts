/** The REST routes' guards: NUL in the URL, the expensive-read limit of the heavy routes. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, HTTP_STATUS } from '../../errors';
import type { Platform as App } from '../context';
import { REST_READ_POLICY } from './budgets';
import type { LimitsConfig } from './config';
import { NUL_MESSAGE } from './strings';

/**
 * REST routes whose handlers are expensive reads (per-user aggregates, lists), by their route
 * pattern: the router matches every spelling of a path (`/%61pi/…`, `/api//v1/…`) to its
 * pattern, so the limit applies to all of them.
 */
const EXPENSIVE_REST = new Set([
  '/api/v1/users/:userId/profile',
  '/api/v1/users/:userId/stats/recommended',
  '/api/v1/users/:userId/charts/:file',
  '/api/v1/songs/notes/recent',
]);

/**
 * A step of the request path: answers the request, or calls `done` (with an error for Fastify's
 * handler). `route`: the matched route's template when the caller has it already (Fastify's
 * `req.routeOptions` builds a new object on every read).
 */
export type RequestStep = (
  req: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
  route?: string,
) => void;

/**
 * Guards of the HTTP routes, on the matched route rather than the raw URL: a NUL character
 * anywhere in the URL (raw or percent-encoded, any path) is 400 {message}; the expensive-read
 * limit answers 429 + Retry-After + {message}. src/http.ts runs it inside its one onRequest hook;
 * `registerRestRateLimits` registers it as a hook of its own.
 */
export function restGuard(app: App, limits: LimitsConfig = app.config.limits): RequestStep {
  // Callback style: no promise on the requests that need no limit (every request passes here).
  return (req, reply, done, route = req.routeOptions?.url) => {
    const url = req.url;
    // The regular expression only when the URL has a '%' at all (most URLs have none).
    if (url.includes('\u0000') || (url.includes('%') && /%00/i.test(url))) {
      reply.code(400).send({ message: NUL_MESSAGE });
      return; // replied: the request ends here
    }
    if (limits.expensiveReadsPerMinute <= 0) return done();
    if (route === undefined || !EXPENSIVE_REST.has(route)) return done();
    app.rateLimiter.consume(REST_READ_POLICY(limits.expensiveReadsPerMinute), `ip:${req.ip}`).then(
      () => done(),
      (err: unknown) => {
        if (!(err instanceof AppError)) return done(err as Error);
        reply
          .code(HTTP_STATUS[err.code])
          .header('retry-after', String(err.details?.retryAfter ?? 60))
          .send({ message: err.message });
      },
    );
  };
}

/** `restGuard` as an onRequest hook of its own. */
export function registerRestRateLimits(
  fastify: FastifyInstance,
  app: App,
  limits: LimitsConfig = app.config.limits,
): void {
  fastify.addHook('onRequest', restGuard(app, limits));
}
