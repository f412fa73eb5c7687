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
 * Guards of the HTTP routes, on the matched route rather than the raw URL: a NUL character
 * anywhere in the URL (raw or percent-encoded, any path) is 400 {message}; the expensive-read
 * limit answers 429 + Retry-After + {message}.
 */
export function registerRestRateLimits(
  fastify: FastifyInstance,
  app: App,
  limits: LimitsConfig = app.config.limits,
): void {
  // Callback style: no promise on the requests that need no limit (every request passes here).
  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (req.url.includes('\u0000') || /%00/i.test(req.url)) {
      reply.code(400).send({ message: NUL_MESSAGE });
      return; // replied: the request ends here
    }
    if (limits.expensiveReadsPerMinute <= 0) return done();
    const route = req.routeOptions?.url;
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
  });
}
