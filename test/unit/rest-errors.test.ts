/**
 * src/rest/errors.ts sendRestError: the one REST error answer. A cacheable answer (sendCacheable sets
 * ETag and Cache-Control before it renders) whose rendering then fails must not leave the picture's
 * ETag and `public, max-age` on the error: a shared cache would keep a 503 for the picture's lifetime.
 */
import Fastify from 'fastify';
import { AppError, notFound } from '../../src/errors';
import { createLogger } from '../../src/logger';
import { sendRestError } from '../../src/rest/errors';

describe('sendRestError', () => {
  const log = createLogger('silent');
  const app = Fastify();
  app.get('/cached-then-failed', (_req, reply) => {
    reply.header('etag', '"abc"').header('cache-control', 'public, max-age=300');
    return sendRestError(
      reply,
      new AppError('SERVICE_UNAVAILABLE', 'The worker pool is full', { retryAfter: 2 }),
      log,
      true,
    );
  });
  app.get('/plain', (_req, reply) => sendRestError(reply, notFound('No such thing'), log));
  afterAll(() => app.close());

  it('an error after the cache headers: no ETag, no-store, its own status, Retry-After and JSON body', async () => {
    const r = await app.inject('/cached-then-failed');
    expect(r.statusCode).toBe(503);
    expect(r.headers.etag).toBeUndefined();
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['retry-after']).toBe('2');
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(r.body)).toEqual({ message: 'The worker pool is full' });
  });

  it('an error without cache headers gets none', async () => {
    const r = await app.inject('/plain');
    expect(r.statusCode).toBe(404);
    expect(r.headers['cache-control']).toBeUndefined();
    expect(r.json()).toEqual({ message: 'No such thing' });
  });
});
