import { CORS_MAX_AGE } from '../../../src/cors';
import { aPublicPlayer } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

const VITE = 'http://localhost:5173';
const EVIL = 'http://evil.example';

function preflight(
  s: TestServer,
  path: string,
  origin: string,
  method = 'POST',
  headers = 'content-type, authorization',
) {
  return fetch(`${s.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

const postGraphql = (s: TestServer, query: string, headers: Record<string, string>) =>
  fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });

describe('CORS with the development defaults (CORS_ORIGINS unset, NODE_ENV=test)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('answers a preflight to /graphql from the Vite dev server with 204 and the allowed methods and headers', async () => {
    const res = await preflight(s, '/graphql', VITE, 'POST', 'content-type, authorization, apollo-require-preflight');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(VITE);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
    const allowed = res.headers.get('access-control-allow-headers')!.split(', ');
    for (const h of ['authorization', 'content-type', 'apollo-require-preflight', 'x-api-key'])
      expect(allowed).toContain(h);
    expect(res.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE));
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await res.text()).toBe('');
  });

  it('answers a preflight to a REST path and to the token endpoint (127.0.0.1 dev port too)', async () => {
    const profile = await preflight(
      s,
      '/api/v1/users/someone/profile',
      'http://127.0.0.1:3000',
      'GET',
      'authorization',
    );
    expect(profile.status).toBe(204);
    expect(profile.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    const token = await preflight(s, '/api/v1/token', VITE, 'POST', 'x-api-key');
    expect(token.status).toBe(204);
  });

  it('lets an allowed origin read GraphQL answers, with the same body as without Origin', async () => {
    const query = '{ serverInfo { name } }';
    const cross = await postGraphql(s, query, { origin: VITE });
    const plain = await postGraphql(s, query, {});
    expect(cross.status).toBe(200);
    expect(cross.headers.get('access-control-allow-origin')).toBe(VITE);
    expect(cross.headers.get('access-control-expose-headers')).toBe('retry-after, www-authenticate');
    expect(cross.headers.get('vary')).toBe('Origin');
    expect(await cross.text()).toBe(await plain.text());
  });

  it('lets an allowed origin read a REST path; the body is byte for byte the same as without Origin', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const path = `/api/v1/users/${u.id}/profile`;
    const cross = await fetch(`${s.url}${path}`, { headers: { origin: VITE } });
    const plain = await fetch(`${s.url}${path}`);
    expect(cross.status).toBe(200);
    expect(cross.headers.get('access-control-allow-origin')).toBe(VITE);
    expect(cross.headers.get('content-type')).toBe(plain.headers.get('content-type'));
    expect(await cross.text()).toBe(await plain.text());
  });

  it('keeps CORS headers on error answers, so the page can read them (404, 405, Apollo CSRF 400)', async () => {
    const missing = await fetch(`${s.url}/nope`, { headers: { origin: VITE } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(VITE);
    const wrongMethod = await fetch(`${s.url}/api/v1/songs/notes/recent`, {
      method: 'DELETE',
      headers: { origin: VITE },
    });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('access-control-allow-origin')).toBe(VITE);
    // A simple cross-origin GET (no preflight-forcing header) is still refused by Apollo's CSRF prevention.
    const simple = await fetch(`${s.url}/graphql?query=${encodeURIComponent('{ serverInfo { name } }')}`, {
      headers: { origin: VITE },
    });
    expect(simple.status).toBe(400);
    expect(await simple.text()).toMatch(/CSRF/);
    const withHeader = await fetch(`${s.url}/graphql?query=${encodeURIComponent('{ serverInfo { name } }')}`, {
      headers: { origin: VITE, 'apollo-require-preflight': 'true' },
    });
    expect(withHeader.status).toBe(200);
    expect(await withHeader.json()).toEqual({ data: { serverInfo: { name: 'bpigraph' } } });
  });

  it('refuses a preflight from another origin (403) and gives its requests no CORS header', async () => {
    const pre = await preflight(s, '/graphql', EVIL);
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(await pre.json()).toEqual({ message: `Origin ${EVIL} is not allowed (CORS_ORIGINS)` });
    const post = await postGraphql(s, '{ serverInfo { name } }', { origin: EVIL });
    expect(post.status).toBe(200); // answered, but the browser keeps it from the page
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    // a dev port on another host is not a loopback origin
    expect((await preflight(s, '/graphql', 'http://192.168.1.2:5173')).status).toBe(403);
  });

  it('allows every loopback origin, on any port (a page on :8000 works without configuration)', async () => {
    for (const origin of [
      'http://localhost:8000',
      'http://127.0.0.1:8000',
      'http://[::1]:8000',
      'https://localhost:8443',
    ]) {
      const pre = await preflight(s, '/graphql', origin);
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });

  it('leaves OPTIONS without Origin as before (405 on a REST path)', async () => {
    const res = await fetch(`${s.url}/api/v1/songs/notes/recent`, { method: 'OPTIONS' });
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS configured', () => {
  it('production without CORS_ORIGINS: no CORS at all (preflights are not answered)', async () => {
    const s = await startTestServer({ env: { NODE_ENV: 'production', PUBLIC_URL: 'https://api.example.org' } });
    try {
      const pre = await preflight(s, '/api/v1/songs/notes/recent', VITE, 'GET');
      expect(pre.status).toBe(405); // the route's own answer to OPTIONS, unchanged
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      const post = await postGraphql(s, '{ serverInfo { name } }', { origin: VITE });
      expect(post.headers.get('access-control-allow-origin')).toBeNull();
      expect(post.headers.get('vary')).toBeNull();
    } finally {
      await s.close();
    }
  });

  it('an explicit list replaces the dev defaults; credentials on request', async () => {
    const app = 'https://app.example.org';
    const s = await startTestServer({
      env: {
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://api.example.org',
        CORS_ORIGINS: `${app}, https://admin.example.org/`,
        CORS_ALLOW_CREDENTIALS: 'true',
      },
    });
    try {
      const pre = await preflight(s, '/graphql', app);
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(app);
      expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
      expect((await preflight(s, '/graphql', 'https://admin.example.org')).status).toBe(204); // trailing slash normalised
      expect((await preflight(s, '/graphql', VITE)).status).toBe(403);
    } finally {
      await s.close();
    }
  });

  it("'*' allows any origin with Access-Control-Allow-Origin: * (no Vary, no credentials)", async () => {
    const s = await startTestServer({ env: { CORS_ORIGINS: '*' } });
    try {
      const pre = await preflight(s, '/graphql', EVIL);
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('vary')).toBeNull();
      const post = await postGraphql(s, '{ serverInfo { name } }', { origin: EVIL });
      expect(post.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await s.close();
    }
  });
});
