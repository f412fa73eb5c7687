/**
 * Hostile HTTP requests of issue #21 outside GraphQL (M2, M6, M7, L): every spelling of a path
 * gets the same guards; the rate limiter cannot be flushed; OAuth is no redirector, a code dies
 * only by a successful exchange, a consent ticket approves once; tokens need exp and sub and a
 * string scope; the explorer is compressed, cacheable and not frameable.
 */
import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { pkceChallenge } from '../../src/modules/auth/secrets';
import { MemoryStore, RateLimiter } from '../../src/ratelimit';
import { AppError } from '../../src/errors';
import { aPublicPlayer } from '../helpers/factories';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../helpers/server';
import { underAttack, warmUp } from './hostile';

let s: TestServer;
const REDIRECT = 'https://evil.example/cb';
beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '3' } });
  await warmUp(s.url);
});
afterAll(() => s.close());

async function req(path: string, init: RequestInit = {}) {
  const res = await fetch(`${s.url}${path}`, { redirect: 'manual', ...init });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers, text };
}
const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  req(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const postForm = (path: string, body: Record<string, string>) =>
  req(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });

describe('M2: REST guards on every spelling of a path', () => {
  it('the expensive-read limit counts /%61pi/… and /api//v1/… as the same route', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const spellings = [
      `/api/v1/users/${u.id}/profile`,
      `/%61pi/v1/users/${u.id}/profile`,
      `/api/v1/users/${u.id}/%70rofile`,
      `/api/v1/%75sers/${u.id}/profile`,
    ];
    const r = await underAttack(s.url, 3000, async () => {
      const out = [];
      for (const p of spellings) out.push(await req(p));
      return out;
    });
    // limit 3 a minute: the first three spellings pass, the fourth is the 4th read of the route
    expect(r.result.map((x) => x.status)).toEqual([200, 200, 200, 429]);
    expect(r.result[3].headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('a NUL in any spelling is 400 {message}, never a 500', async () => {
    for (const p of [
      '/api/v1/users/%00/profile',
      '/%61pi/v1/users/%00/profile',
      '/api/v1/bpi/calc?title=%00',
      '/%61pi/v1/bpi/calc?title=a%00b',
    ]) {
      const res = await req(p);
      expect({ p, status: res.status, body: res.body }).toEqual({
        p,
        status: 400,
        body: { message: 'Text must not contain NUL (\\u0000) characters' },
      });
    }
  });
});

describe('M6: the in-memory limiter cannot be flushed', () => {
  it('10,000 fresh keys do not reset a limited client; an IPv6 /64 is one client', async () => {
    const limiter = new RateLimiter(new MemoryStore(Date.now, 1000));
    const policy = { name: 'token', max: 20, windowSeconds: 60 };
    for (let i = 0; i < 20; i++) await limiter.consume(policy, 'ip:203.0.113.7');
    await expect(limiter.consume(policy, 'ip:203.0.113.7')).rejects.toBeInstanceOf(AppError);
    // the flood: 10,000 distinct addresses, the limited client still trying in between
    for (let i = 0; i < 10_000; i++) {
      await limiter.consume(policy, `ip:198.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      if (i % 100 === 0) await limiter.consume(policy, 'ip:203.0.113.7').catch(() => {});
    }
    await expect(limiter.consume(policy, 'ip:203.0.113.7')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect((limiter.store as MemoryStore).size).toBeLessThanOrEqual(1000);
    // IPv6: every address of one /64 shares the limit
    for (let i = 0; i < 20; i++) await limiter.consume(policy, `ip:2001:db8:0:1::${(i + 1).toString(16)}`);
    await expect(limiter.consume(policy, 'ip:2001:db8:0:1:dead:beef:0:1')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
  });
});

describe('M7 and L: OAuth', () => {
  const pkce = () => {
    const verifier = crypto.randomBytes(32).toString('base64url');
    return { verifier, challenge: pkceChallenge(verifier) };
  };
  async function anonymousClient() {
    const res = await postJson('/api/oauth/register', { redirect_uris: [REDIRECT], client_name: 'anyone' });
    expect(res.status).toBe(201);
    return res.body.client_id as string;
  }

  it('M7: an anonymously registered client cannot turn /authorize errors into a redirect to its URI', async () => {
    const clientId = await anonymousClient();
    for (const p of [
      { code_challenge: '' },
      { response_type: 'token' },
      { scope: 'admin' },
      { code_challenge_method: 'plain' },
    ] as Record<string, string>[]) {
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        state: 's',
        ...p,
      });
      const res = await req(`/api/oauth/authorize?${q}`);
      expect({ p, status: res.status, location: res.headers.get('location') }).toEqual({
        p,
        status: 400,
        location: null,
      });
    }
  });

  async function codeFor(clientId: string, userToken: string, challenge: string) {
    const res = await postJson(
      '/api/oauth/authorize/consent',
      {
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope: 'read',
        state: 'st',
        approve: true,
      },
      { authorization: `Bearer ${userToken}` },
    );
    expect(res.status).toBe(200);
    return new URL(res.body.redirectUrl).searchParams.get('code')!;
  }
  const exchange = (clientId: string, code: string, verifier: string) =>
    postForm('/api/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });

  it('a wrong PKCE verifier does not burn the legitimate code', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await anonymousClient();
    const p = pkce();
    const code = await codeFor(clientId, await s.tokenFor(u.id), p.challenge);
    const wrong = await exchange(clientId, code, pkce().verifier);
    expect(wrong.body.error).toBe('invalid_grant');
    const right = await exchange(clientId, code, p.verifier);
    expect(right.status).toBe(200);
    expect(right.body.access_token).toMatch(/^bpat_/);
  });

  it('a consent ticket approves once, and only the decision it was issued for', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await anonymousClient();
    const p = pkce();
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
      scope: 'read',
      state: 'st',
    });
    const page = await req(`/api/oauth/authorize?${q}`, {
      headers: { authorization: `Bearer ${await s.tokenFor(u.id)}` },
    });
    expect(page.status).toBe(200);
    const forms = [...page.text.matchAll(/<form[\s\S]*?<\/form>/g)].map((m) =>
      Object.fromEntries(
        [...m[0].matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((x) => [x[1], x[2].replace(/&amp;/g, '&')]),
      ),
    );
    const allow = forms.find((f) => f.approve === 'true')!;
    const deny = forms.find((f) => f.approve === 'false')!;
    // the deny form's ticket cannot approve
    const flipped = await postForm('/api/oauth/authorize/consent', { ...deny, approve: 'true' });
    expect(flipped.status).toBe(400);
    expect(flipped.body.error).toBe('invalid_request');
    const first = await postForm('/api/oauth/authorize/consent', allow);
    expect(first.status).toBe(303);
    expect(new URL(first.headers.get('location')!).searchParams.get('code')).toMatch(/^bpac_/);
    const replay = await postForm('/api/oauth/authorize/consent', allow);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining('already used'),
    });
    expect(await s.db.prisma.oAuthAuthorizationCode.count({ where: { userId: u.id } })).toBe(1);
  });
});

describe('L: tokens', () => {
  const key = new TextEncoder().encode(TEST_JWT_SECRET);
  const me = (token: string) =>
    postJson('/graphql', { query: '{ me { id: databaseId } }' }, { authorization: `Bearer ${token}` });

  it('refuses a validly signed JWT without exp, without sub, or with a non-string scope', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const base = () =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('bpigraph')
        .setAudience('bpigraph-api')
        .setIssuedAt();
    const noExp = await base().setSubject(u.id).sign(key);
    const noSub = await base().setExpirationTime('1h').sign(key);
    const arrayScope = await new SignJWT({ scope: ['read'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('bpigraph')
      .setAudience('bpigraph-api')
      .setSubject(u.id)
      .setExpirationTime('1h')
      .sign(key);
    for (const t of [noExp, noSub, arrayScope]) {
      const res = await me(t);
      expect(res.status).toBe(401);
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
    // the same token with exp and sub works
    const good = await base().setSubject(u.id).setExpirationTime('1h').sign(key);
    expect((await me(good)).body.data.me.id).toBe(u.id);
  });

  it('the masked display name cannot be taken', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    for (const name of ['非公開ユーザー', ' 非公開ユーザー', '非公開　ユーザー']) {
      const res = await postJson(
        '/graphql',
        {
          query: 'mutation($n: String) { updateProfile(input: { name: $n }) { user { name } } }',
          variables: { n: name },
        },
        { authorization: `Bearer ${await s.tokenFor(u.id)}` },
      );
      expect({ name, code: res.body.errors?.[0]?.extensions?.code }).toEqual({ name, code: 'BAD_USER_INPUT' });
    }
  });
});

describe('L: the explorer page', () => {
  it('is gzip-compressed, cacheable (ETag, 304) and not frameable', async () => {
    const res = await fetch(`${s.url}/graphql`, { headers: { accept: 'text/html', 'accept-encoding': 'gzip' } });
    const bytes = Number(res.headers.get('content-length') ?? (await res.clone().arrayBuffer()).byteLength);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toMatch(/no-cache|max-age=\d+/); // revalidated with the ETag
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    await res.arrayBuffer();
    expect(bytes).toBeLessThan(3 * 1024 * 1024);
    const again = await fetch(`${s.url}/graphql`, {
      headers: { accept: 'text/html', 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });
});
