import net from 'node:net';
import { RateLimiter, RedisStore } from '../../../src/ratelimit';
import { startTestServer, type TestServer } from '../../helpers/server';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const sock = net.connect(Number(u.port || 6379), u.hostname);
    sock.setTimeout(500);
    sock.once('connect', () => (sock.end(), resolve(true)));
    sock.once('error', () => resolve(false));
    sock.once('timeout', () => (sock.destroy(), resolve(false)));
  });
}

describe('rate limits at the HTTP endpoints (in memory)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seedDemo: false });
  });
  afterAll(() => s.close());

  it('POST /api/v1/token and exchangeApiKey share 20 per minute per IP, then 429 + Retry-After / RATE_LIMITED', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++)
      statuses.push(
        (await fetch(`${s.url}/api/v1/token`, { method: 'POST', headers: { 'x-api-key': 'bpk_x' } })).status,
      );
    for (let i = 0; i < 5; i++) {
      const g = await s.gql('mutation { exchangeApiKey { token } }');
      statuses.push(g.body.errors![0].extensions.code === 'UNAUTHENTICATED' ? 401 : 0);
    }
    expect(statuses).toEqual(Array(20).fill(401));
    const limited = await fetch(`${s.url}/api/v1/token`, { method: 'POST', headers: { 'x-api-key': 'bpk_x' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ message: 'Too Many Requests' });
    const g = await s.gql('mutation { exchangeApiKey { token } }');
    expect(g.body.errors![0]).toMatchObject({ extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } });
  });

  it('POST /api/oauth/token allows 30 per minute per IP and POST /api/oauth/register 20, with RFC 6749-style bodies', async () => {
    const form = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&client_id=nope',
    };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await fetch(`${s.url}/api/oauth/token`, form)).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
    const limited = await fetch(`${s.url}/api/oauth/token`, form);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toEqual({ error: 'too_many_requests', error_description: 'Too Many Requests' });

    const reg = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['ftp://bad'] }),
    };
    const regStatuses: number[] = [];
    for (let i = 0; i < 21; i++) regStatuses.push((await fetch(`${s.url}/api/oauth/register`, reg)).status);
    expect(regStatuses.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(regStatuses[20]).toBe(429);
  });
});

describe('rate limits shared through Redis', () => {
  it('two limiters (two processes) on one Redis share the window', async () => {
    if (!(await reachable(REDIS_URL))) {
      console.warn(`Redis not reachable at ${REDIS_URL}: skipping the Redis rate-limit test`);
      return;
    }
    const a = RedisStore.connect(REDIS_URL);
    const b = RedisStore.connect(REDIS_URL);
    try {
      const policy = { name: `test-${process.pid}-${Date.now()}`, max: 3, windowSeconds: 30 };
      const la = new RateLimiter(a);
      const lb = new RateLimiter(b);
      await la.consume(policy, 'ip');
      await lb.consume(policy, 'ip');
      await la.consume(policy, 'ip');
      const err = await lb.consume(policy, 'ip').then(
        () => null,
        (e) => e,
      );
      expect(err).toMatchObject({ code: 'RATE_LIMITED' });
      expect(err.details.retryAfter).toBeGreaterThan(0);
      expect(err.details.retryAfter).toBeLessThanOrEqual(30);
      await la.consume(policy, 'another-ip'); // other keys unaffected
      const ttl = await a.redis.pttl(`bpigraph:rl:${policy.name}:ip`);
      expect(ttl).toBeGreaterThan(0); // the window expires by itself
      await a.redis.del(`bpigraph:rl:${policy.name}:ip`, `bpigraph:rl:${policy.name}:another-ip`);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a server configured with REDIS_URL limits through Redis', async () => {
    if (!(await reachable(REDIS_URL))) {
      console.warn(`Redis not reachable at ${REDIS_URL}: skipping`);
      return;
    }
    const s = await startTestServer({ seedDemo: false, env: { REDIS_URL } });
    try {
      expect(s.app.rateLimiter.store).toBeInstanceOf(RedisStore);
      const store = s.app.rateLimiter.store as RedisStore;
      await store.redis.del('bpigraph:rl:token:127.0.0.1');
      const res = await fetch(`${s.url}/api/v1/token`, { method: 'POST', headers: { 'x-api-key': 'bpk_x' } });
      expect(res.status).toBe(401);
      expect(Number(await store.redis.get('bpigraph:rl:token:127.0.0.1'))).toBe(1);
      await store.redis.del('bpigraph:rl:token:127.0.0.1');
    } finally {
      await s.close();
    }
  });
});
