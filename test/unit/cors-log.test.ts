import http from 'node:http';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config';
import { registerCors } from '../../src/cors';
import type { Logger } from '../../src/logger';

/** A logger that keeps warn lines (the only level registerCors uses). */
function recorder() {
  const lines: { fields: Record<string, unknown>; msg: string }[] = [];
  const warn = (a: unknown, b?: string) => {
    if (typeof a === 'string') lines.push({ fields: {}, msg: a });
    else lines.push({ fields: a as Record<string, unknown>, msg: b ?? '' });
  };
  return { lines, log: { warn } as unknown as Logger };
}

async function appWith(env: Record<string, string>) {
  const rec = recorder();
  const fastify = Fastify();
  registerCors(fastify, loadConfig(env), rec.log);
  fastify.post('/graphql', async () => ({ ok: true }));
  fastify.options('/graphql', async (_req, reply) => reply.code(405).send());
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  const port = (fastify.server.address() as { port: number }).port;
  /** A raw request (fetch will not send a Host header of our choosing). */
  const send = (method: string, headers: Record<string, string>) =>
    new Promise<{ statusCode: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method, path: '/graphql', headers: { host: 'api.example.org', ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ statusCode: res.statusCode!, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(method === 'POST' ? '{}' : undefined);
    });
  const post = (origin: string) => send('POST', { origin, 'content-type': 'application/json' });
  const preflight = (origin: string) => send('OPTIONS', { origin, 'access-control-request-method': 'POST' });
  return { ...rec, fastify, post, preflight };
}

const PROD = { NODE_ENV: 'production', PUBLIC_URL: 'https://api.example.org' };

describe('a refused origin is logged once, with the setting that allows it', () => {
  it('production without CORS_ORIGINS: no CORS headers, one line per refused origin naming CORS_ORIGINS=<origin>', async () => {
    const s = await appWith(PROD);
    const page = 'https://app.example.org';
    for (let i = 0; i < 3; i++) {
      const res = await s.post(page);
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    await s.post('http://localhost:8000');
    expect(s.lines).toEqual([
      {
        fields: { origin: page, allowWith: `CORS_ORIGINS=${page}` },
        msg: `CORS: refused a page on ${page}; to allow it set CORS_ORIGINS=${page}`,
      },
      {
        fields: { origin: 'http://localhost:8000', allowWith: 'CORS_ORIGINS=http://localhost:8000' },
        msg: 'CORS: refused a page on http://localhost:8000; to allow it set CORS_ORIGINS=http://localhost:8000',
      },
    ]);
    await s.fastify.close();
  });

  it('with a list: the line keeps the list and adds the origin; same-origin requests and allowed origins are not logged', async () => {
    const s = await appWith({ ...PROD, CORS_ORIGINS: 'https://app.example.org, https://admin.example.org' });
    expect((await s.preflight('https://app.example.org')).statusCode).toBe(204);
    await s.post('https://api.example.org'); // the server's own pages (Origin = its host)
    expect((await s.preflight('https://other.example')).statusCode).toBe(403);
    await s.post('https://other.example');
    expect(s.lines.map((l) => l.fields.allowWith)).toEqual([
      'CORS_ORIGINS=https://app.example.org,https://admin.example.org,https://other.example',
    ]);
    await s.fastify.close();
  });

  it('development: any loopback origin is allowed, on any port', async () => {
    const s = await appWith({ NODE_ENV: 'development' });
    for (const origin of ['http://localhost:8000', 'http://127.0.0.1:1234', 'http://[::1]:5173']) {
      const res = await s.preflight(origin);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
    expect((await s.preflight('http://192.168.1.2:8000')).statusCode).toBe(403);
    expect(s.lines.map((l) => l.fields.origin)).toEqual(['http://192.168.1.2:8000']);
    await s.fastify.close();
  });
});
