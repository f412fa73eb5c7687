import http from 'node:http';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../../src/modules/auth/auth.service';
import { hashSecret } from '../../../src/modules/auth/secrets';
import { aPublicPlayer } from '../../helpers/factories';
import { TEST_JWT_SECRET, expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
});
afterAll(() => s.close());

/** Data of a successful GraphQL response (fails with the whole body otherwise). */
const ok = (res: Parameters<typeof expectNoErrors>[0]): any => expectNoErrors(res);

const secret = new TextEncoder().encode(TEST_JWT_SECRET);

async function gqlWith(
  server: TestServer,
  query: string,
  headers: Record<string, string>,
  variables: Record<string, unknown> = {},
) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: any[] } };
}

const ISSUE_KEY = 'mutation { issueApiKey { apiKey hint createdAt } }';
const EXCHANGE = 'mutation { exchangeApiKey { token expiresIn } }';
const ME = '{ me { id: databaseId name } }';

describe('API keys and token exchange', () => {
  it('issues a key once, exchanges it (GraphQL and REST) for a working token, and reports status without the key', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const jwt = await s.tokenFor(u.id);
    const before = ok(await s.gql('{ apiKeyStatus { exists createdAt hint } }', {}, jwt));
    expect(before).toEqual({ apiKeyStatus: { exists: false, createdAt: null, hint: null } });

    const issued = ok(await s.gql(ISSUE_KEY, {}, jwt)).issueApiKey as { apiKey: string; hint: string };
    expect(issued.apiKey).toMatch(/^bpk_[A-Za-z0-9_-]{43}$/);
    expect(issued.hint).toBe(`****${issued.apiKey.slice(-4)}`);

    const status = ok(await s.gql('{ apiKeyStatus { exists createdAt hint } }', {}, jwt));
    expect(status.apiKeyStatus).toMatchObject({ exists: true, hint: issued.hint });
    expect(JSON.stringify(status)).not.toContain(issued.apiKey);

    const ex = await gqlWith(s, EXCHANGE, { 'x-api-key': issued.apiKey });
    const { token, expiresIn } = ok(ex).exchangeApiKey;
    expect(expiresIn).toBe(3600);
    expect(ok(await s.gql(ME, {}, token))).toEqual({ me: { id: u.id, name: u.name } });

    const rest = await fetch(`${s.url}/api/v1/token`, { method: 'POST', headers: { 'x-api-key': issued.apiKey } });
    expect(rest.status).toBe(200);
    const restBody = await rest.json();
    expect(restBody).toEqual({ token: expect.any(String), expiresIn: 3600 });
    expect(ok(await s.gql(ME, {}, restBody.token)).me.id).toBe(u.id);
    expect((await s.db.prisma.apiKey.findUniqueOrThrow({ where: { userId: u.id } })).lastUsedAt).not.toBeNull();
  });

  it('refuses a missing or unknown key with 401 (REST) / UNAUTHENTICATED (GraphQL), and other methods with 405', async () => {
    const none = await fetch(`${s.url}/api/v1/token`, { method: 'POST' });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: expect.stringContaining('API key is required') });
    const bad = await fetch(`${s.url}/api/v1/token`, { method: 'POST', headers: { 'x-api-key': 'bpk_nope' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: 'Invalid API key' });
    const g = await gqlWith(s, EXCHANGE, { 'x-api-key': 'bpk_nope' });
    expect(g.body.errors![0]).toMatchObject({ message: 'Invalid API key', extensions: { code: 'UNAUTHENTICATED' } });
    const get = await fetch(`${s.url}/api/v1/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('reissuing a key kills the old one at once', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const jwt = await s.tokenFor(u.id);
    const first = ok(await s.gql(ISSUE_KEY, {}, jwt)).issueApiKey.apiKey as string;
    const second = ok(await s.gql(ISSUE_KEY, {}, jwt)).issueApiKey.apiKey as string;
    expect(second).not.toBe(first);
    const old = await gqlWith(s, EXCHANGE, { 'x-api-key': first });
    expect(old.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    expect(ok(await gqlWith(s, EXCHANGE, { 'x-api-key': second })).exchangeApiKey.token).toEqual(expect.any(String));
    expect(await s.db.prisma.apiKey.count({ where: { userId: u.id } })).toBe(1);
  });

  it('the credential operations need a signed-in caller; me is null and viewer says signed out (no error)', async () => {
    for (const q of ['{ apiKeyStatus { exists } }', ISSUE_KEY, '{ oauthClient { exists } }']) {
      const res = await s.gql(q);
      expect(res.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    }
    expect(
      ok(await s.gql(`{ me { id: databaseId } viewer { signedIn exists canCreateProfile user { id: databaseId } } }`)),
    ).toEqual({
      me: null,
      viewer: { signedIn: false, exists: false, canCreateProfile: false, user: null },
    });
    const u = await aPublicPlayer(s.db.prisma);
    expect(
      ok(
        await s.gql(
          `{ me { id: databaseId } viewer { signedIn exists canCreateProfile user { id: databaseId } } }`,
          {},
          await s.tokenFor(u.id),
        ),
      ),
    ).toEqual({
      me: { id: u.id },
      viewer: { signedIn: true, exists: true, canCreateProfile: false, user: { id: u.id } },
    });
  });
});

describe('access token verification', () => {
  const sign = (claims: { sub: string; iss?: string; aud?: string; exp?: number }) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuer(claims.iss ?? TOKEN_ISSUER)
      .setAudience(claims.aud ?? TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(secret);

  it('expired → 401 "Access token expired"', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const { token } = await s.app.auth.issueAccessToken(u.id, { ttlSeconds: -60 });
    const res = await s.gql(ME, {}, token);
    expect(res.status).toBe(401);
    expect(res.body.errors![0]).toMatchObject({
      message: 'Access token expired',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('tampered payload or signature → 401 "Invalid access token"', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const other = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const [h, p, sig] = token.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...payload, sub: other.id })).toString('base64url');
    for (const bad of [`${h}.${forgedPayload}.${sig}`, `${h}.${p}.${sig.slice(0, -4)}AAAA`, 'not-a-jwt', 'a.b.c']) {
      const res = await s.gql(ME, {}, bad);
      expect(res.status).toBe(401);
      expect(res.body.errors![0]).toMatchObject({
        message: 'Invalid access token',
        extensions: { code: 'UNAUTHENTICATED' },
      });
    }
  });

  it('wrong audience / wrong issuer → 401 naming the claim', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const wrongAud = await s.gql(ME, {}, await sign({ sub: u.id, aud: 'someone-else' }));
    expect(wrongAud.status).toBe(401);
    expect(wrongAud.body.errors![0]).toMatchObject({
      message: 'Access token has the wrong audience',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const wrongIss = await s.gql(ME, {}, await sign({ sub: u.id, iss: 'https://evil.example' }));
    expect(wrongIss.status).toBe(401);
    expect(wrongIss.body.errors![0]).toMatchObject({
      message: 'Access token has the wrong issuer',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    // a correctly signed token with the right claims works
    expect(ok(await s.gql(ME, {}, await sign({ sub: u.id }))).me.id).toBe(u.id);
  });

  it('REST answers bad tokens with 401 too', async () => {
    const res = await fetch(`${s.url}/api/v1/token`, { method: 'POST', headers: { authorization: 'Bearer a.b.c' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Invalid access token' });
  });
});

describe('external OpenID Connect provider (JWKS)', () => {
  let jwks: http.Server;
  let ext: TestServer;
  let privateKey: CryptoKey;
  let strangerKey: CryptoKey;
  let jwksHits = 0;
  const ISSUER = 'https://idp.example.test';
  const AUDIENCE = 'bpigraph-web';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    strangerKey = (await generateKeyPair('RS256')).privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = http.createServer((_req, res) => {
      jwksHits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    const port = (jwks.address() as { port: number }).port;
    ext = await startTestServer({
      seedDemo: false,
      env: { AUTH_ISSUER: ISSUER, AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`, AUTH_AUDIENCE: AUDIENCE },
    });
  });
  afterAll(async () => {
    await ext.close();
    await new Promise((r) => jwks.close(r));
  });

  const idToken = (
    sub: string,
    opts: { iss?: string; aud?: string; key?: CryptoKey; kid?: string; exp?: number } = {},
  ) =>
    new SignJWT({ email: `${sub}@example.test` })
      .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? 'k1' })
      .setSubject(sub)
      .setIssuer(opts.iss ?? ISSUER)
      .setAudience(opts.aud ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(opts.key ?? privateKey);

  it('maps a linked identity to its user', async () => {
    const u = await aPublicPlayer(ext.db.prisma);
    await ext.db.prisma.externalIdentity.create({ data: { issuer: ISSUER, subject: 'linked-1', userId: u.id } });
    expect(ok(await ext.gql(ME, {}, await idToken('linked-1')))).toEqual({ me: { id: u.id, name: u.name } });
    expect(jwksHits).toBeGreaterThan(0);
  });

  it('an unlinked identity is anonymous but carries identity {issuer, subject} in the context', async () => {
    const token = await idToken('fresh-subject');
    // me is null and viewer says "signed in, no profile yet" — no error (issue #17 item 3)
    expect(
      ok(
        await ext.gql(
          `{ me { id: databaseId } viewer { signedIn exists canCreateProfile user { id: databaseId } } }`,
          {},
          token,
        ),
      ),
    ).toEqual({
      me: null,
      viewer: { signedIn: true, exists: false, canCreateProfile: true, user: null },
    });
    // operations that need an account still say what to do
    const res = await ext.gql('{ apiKeyStatus { exists } }', {}, token);
    expect(res.status).toBe(200);
    expect(res.body.errors![0]).toMatchObject({
      message: 'This identity has no account yet: create your profile first (createProfile)',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const auth = await ext.app.auth.authenticate(`Bearer ${token}`);
    expect(auth).toEqual({ viewer: null, identity: { issuer: ISSUER, subject: 'fresh-subject' } });
  });

  it('end to end: a new external identity creates its profile, then the same ID token is that user', async () => {
    const token = await idToken('newcomer-1');
    const created = await ext.gql(
      'mutation($input: CreateProfileInput!) { createProfile(input: $input) { __typename } }',
      { input: { name: 'Newcomer1' } },
      token,
    );
    expect(created.body.errors).toBeUndefined();
    const me = ok(await ext.gql(ME, {}, token)).me;
    expect(me.name).toBe('Newcomer1');
    expect(
      await ext.db.prisma.externalIdentity.findUnique({
        where: { issuer_subject: { issuer: ISSUER, subject: 'newcomer-1' } },
      }),
    ).toMatchObject({ userId: me.id });
  });

  it('refuses wrong issuer, wrong audience, unknown key, foreign signature and expiry with 401', async () => {
    const cases: [Promise<string>, string][] = [
      [idToken('x', { aud: 'another-app' }), 'ID token has the wrong audience'],
      [idToken('x', { iss: 'https://other-idp.example' }), 'ID token has the wrong issuer'],
      [idToken('x', { kid: 'unknown-kid' }), 'ID token is signed with an unknown key'],
      [idToken('x', { key: strangerKey }), 'Invalid id token'],
      [idToken('x', { exp: Math.floor(Date.now() / 1000) - 120 }), 'ID token expired'],
    ];
    for (const [tokenP, message] of cases) {
      const res = await ext.gql(ME, {}, await tokenP);
      expect(res.status).toBe(401);
      expect(res.body.errors![0]).toMatchObject({ message, extensions: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('an unreachable identity provider is a 503 SERVICE_UNAVAILABLE, not a 500', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const down = await startTestServer({
      seedDemo: false,
      env: { AUTH_ISSUER: ISSUER, AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`, AUTH_AUDIENCE: AUDIENCE },
    });
    try {
      const res = await down.gql(ME, {}, await idToken('someone'));
      expect(res.status).toBe(503);
      expect(res.body.errors![0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await down.close();
    }
  });

  it('still accepts our own JWTs next to the provider', async () => {
    const u = await aPublicPlayer(ext.db.prisma);
    expect(ok(await ext.gql(ME, {}, await ext.tokenFor(u.id))).me.id).toBe(u.id);
  });
});

describe('secrets at rest', () => {
  it('stores API keys only as hashes', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const key = ok(await s.gql(ISSUE_KEY, {}, await s.tokenFor(u.id))).issueApiKey.apiKey as string;
    const row = await s.db.prisma.apiKey.findUniqueOrThrow({ where: { userId: u.id } });
    expect(row.keyHash).toBe(hashSecret(key));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.hint).toBe(key.slice(-4));
  });
});
