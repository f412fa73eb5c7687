import crypto from 'node:crypto';
import { hashSecret, pkceChallenge } from '../../../src/modules/auth/secrets';
import { MemoryStore, RateLimiter } from '../../../src/ratelimit';
import { aPublicPlayer } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
});
afterAll(() => s.close());
// Rate limits have their own tests (ratelimit.test.ts): each test here starts with fresh windows.
beforeEach(() => {
  s.app.rateLimiter = new RateLimiter(new MemoryStore());
});

const ok = (res: Parameters<typeof expectNoErrors>[0]): any => expectNoErrors(res);
const REDIRECT = 'http://127.0.0.1:8765/callback';

/** Every secret handed out in this file: none may appear in the database. */
const handedOut: string[] = [];

async function post(
  path: string,
  body: Record<string, unknown> | URLSearchParams,
  headers: Record<string, string> = {},
) {
  const form = body instanceof URLSearchParams;
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
    body: form ? body.toString() : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: json, headers: res.headers };
}

async function registerClient(name = 'Test App') {
  const res = await post('/api/oauth/register', { redirect_uris: [REDIRECT], client_name: name });
  expect(res.status).toBe(201);
  return res.body.client_id as string;
}

const pkce = () => {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
};

/** Consent as `userToken` → the code from the redirect URL. */
async function authorize(
  clientId: string,
  userToken: string,
  opts: { scope?: string; challenge: string; state?: string },
) {
  const res = await post(
    '/api/oauth/authorize/consent',
    {
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: opts.challenge,
      code_challenge_method: 'S256',
      scope: opts.scope ?? 'read',
      state: opts.state ?? 'st4te',
      approve: true,
    },
    { authorization: `Bearer ${userToken}` },
  );
  expect(res.status).toBe(200);
  const url = new URL(res.body.redirectUrl);
  expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
  expect(url.searchParams.get('state')).toBe(opts.state ?? 'st4te');
  const code = url.searchParams.get('code')!;
  handedOut.push(code);
  return code;
}

async function exchangeCode(
  clientId: string,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const res = await post(
    '/api/oauth/token',
    new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      ...extra,
    }),
    headers,
  );
  if (res.status === 200) handedOut.push(res.body.access_token, res.body.refresh_token);
  return res;
}

async function refresh(
  clientId: string,
  refreshToken: string,
  headers: Record<string, string> = {},
  extra: Record<string, string> = {},
) {
  const res = await post(
    '/api/oauth/token',
    new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, ...extra }),
    headers,
  );
  if (res.status === 200) handedOut.push(res.body.access_token, res.body.refresh_token);
  return res;
}

const ME = '{ me { id: databaseId } }';

describe('metadata and registration', () => {
  it('publishes RFC 8414 metadata (and the protected-resource metadata)', async () => {
    const res = await s.get('/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    // No PUBLIC_URL outside production: the request's loopback host (s.url = http://127.0.0.1:<port>);
    // any other Host header gives http://localhost:<port> (test/integration/platform/operator-defaults.test.ts).
    const base = s.url;
    expect(res.body).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/api/oauth/authorize`,
      token_endpoint: `${base}/api/oauth/token`,
      registration_endpoint: `${base}/api/oauth/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['read', 'write'],
    });
    expect((await s.get('/.well-known/oauth-protected-resource')).body).toMatchObject({
      resource: `${base}/graphql`,
      authorization_servers: [base],
    });
    const wrong = await post('/.well-known/oauth-authorization-server', {});
    expect(wrong.status).toBe(405);
    expect(wrong.body.error).toBe('invalid_request');
  });

  it('registers public clients (RFC 7591) and validates redirect URIs', async () => {
    const res = await post('/api/oauth/register', {
      redirect_uris: ['https://app.example/cb', REDIRECT],
      client_name: 'My App',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      client_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'My App',
      redirect_uris: ['https://app.example/cb', REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    for (const bad of [['http://app.example/cb'], ['https://app.example/cb#frag'], ['not a url'], []]) {
      const r = await post('/api/oauth/register', { redirect_uris: bad });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'invalid_redirect_uri', error_description: expect.any(String) });
    }
    const confidential = await post('/api/oauth/register', {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(confidential.body.error).toBe('invalid_client_metadata');
    expect((await s.get(`/api/oauth/client?client_id=${res.body.client_id}`)).body).toEqual({
      clientName: 'My App',
      redirectHosts: ['app.example', '127.0.0.1:8765'],
    });
  });
});

describe('authorization endpoint and consent', () => {
  it('shows a consent page to the signed-in user; never redirects to an unregistered URI', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient('Consent <Checker>');
    const { challenge } = pkce();
    const q = (p: Record<string, string>) =>
      `/api/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'read write', state: 'xyz', ...p })}`;
    const page = await s.get(q({}), await s.tokenFor(u.id));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.body).toContain('Consent &lt;Checker&gt;');
    expect(page.body).toContain(u.name);
    expect(page.body).toContain('read and change your data');

    const anon = await s.get(q({}));
    expect(anon.status).toBe(401);

    const badRedirect = await fetch(`${s.url}${q({ redirect_uri: 'https://evil.example/cb' })}`, {
      redirect: 'manual',
    });
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.headers.get('location')).toBeNull();

    // A dynamically registered client chose its own redirect URI (anyone may register one): its
    // errors are shown, never redirected — the endpoint must not be an open redirector.
    const noPkce = await fetch(`${s.url}${q({ code_challenge: '' })}`, { redirect: 'manual' });
    expect(noPkce.status).toBe(400);
    expect(noPkce.headers.get('location')).toBeNull();
    expect(await noPkce.text()).toContain('code_challenge is required');

    // A client a user registered (issueOAuthClient) gets RFC 6749 §4.1.2.1 error redirects.
    const owner = await aPublicPlayer(s.db.prisma);
    const issued = ok(
      await s.gql(
        'mutation($uris: [String!]!) { issueOAuthClient(redirectUris: $uris) { clientId } }',
        { uris: [REDIRECT] },
        await s.tokenFor(owner.id),
      ),
    ).issueOAuthClient;
    const qv = `/api/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: issued.clientId, redirect_uri: REDIRECT, code_challenge: '', code_challenge_method: 'S256', state: 'xyz' })}`;
    const verified = await fetch(`${s.url}${qv}`, { redirect: 'manual' });
    expect(verified.status).toBe(302);
    const loc = new URL(verified.headers.get('location')!);
    expect(loc.searchParams.get('error')).toBe('invalid_request');
    expect(loc.searchParams.get('state')).toBe('xyz');
  });

  it("the consent page's own form works without a bearer header (signed ticket) and answers with a 303", async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient();
    const { verifier, challenge } = pkce();
    const qs = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's1',
    });
    const page = await s.get(`/api/oauth/authorize?${qs}`, await s.tokenFor(u.id));
    const fields = new URLSearchParams();
    const allowForm = (page.body as string).split('</form>')[0];
    for (const m of allowForm.matchAll(/name="([^"]+)" value="([^"]*)"/g))
      fields.set(m[1], m[2].replace(/&amp;/g, '&'));
    expect(fields.get('approve')).toBe('true');
    const res = await post('/api/oauth/authorize/consent', fields);
    expect(res.status).toBe(303);
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    handedOut.push(code);
    const tok = await exchangeCode(clientId, code, verifier);
    expect(tok.status).toBe(200);
    expect(ok(await s.gql(ME, {}, tok.body.access_token)).me.id).toBe(u.id);
    // a tampered ticket (other challenge) is refused
    fields.set('code_challenge', pkce().challenge);
    expect((await post('/api/oauth/authorize/consent', fields)).body.error).toBe('invalid_request');
  });

  it('deny → redirect with access_denied; consent needs the user, not an app token', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient();
    const { challenge } = pkce();
    const body = {
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'd',
      approve: false,
    };
    const denied = await post('/api/oauth/authorize/consent', body, {
      authorization: `Bearer ${await s.tokenFor(u.id)}`,
    });
    expect(new URL(denied.body.redirectUrl).searchParams.get('error')).toBe('access_denied');
    const anon = await post('/api/oauth/authorize/consent', { ...body, approve: true });
    expect(anon.status).toBe(401);
    expect(anon.body.error).toBe('login_required');
    const unregistered = await post(
      '/api/oauth/authorize/consent',
      { ...body, redirect_uri: 'https://evil.example/cb', approve: true },
      { authorization: `Bearer ${await s.tokenFor(u.id)}` },
    );
    expect(unregistered.status).toBe(400);
    // an OAuth app token cannot approve consent for more apps
    const { verifier, challenge: c2 } = pkce();
    const code = await authorize(clientId, await s.tokenFor(u.id), { scope: 'read write', challenge: c2 });
    const appToken = (await exchangeCode(clientId, code, verifier)).body.access_token;
    const viaApp = await post(
      '/api/oauth/authorize/consent',
      { ...body, approve: true },
      { authorization: `Bearer ${appToken}` },
    );
    expect(viaApp.status).toBe(403);
  });
});

describe('token endpoint: authorization code + PKCE', () => {
  it('full flow: code → tokens → API call; wrong verifier → invalid_grant; replayed code → invalid_grant and tokens revoked', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient();
    const userToken = await s.tokenFor(u.id);

    // wrong verifier
    const p1 = pkce();
    const code1 = await authorize(clientId, userToken, { challenge: p1.challenge });
    const wrong = await exchangeCode(clientId, code1, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('PKCE') });

    // success
    const p2 = pkce();
    const code2 = await authorize(clientId, userToken, { challenge: p2.challenge, scope: 'read' });
    const tok = await exchangeCode(clientId, code2, p2.verifier);
    expect(tok.status).toBe(200);
    expect(tok.headers.get('cache-control')).toBe('no-store');
    expect(tok.body).toEqual({
      access_token: expect.stringMatching(/^bpat_/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^bprt_/),
      scope: 'read',
    });
    expect(ok(await s.gql(ME, {}, tok.body.access_token)).me.id).toBe(u.id);

    // replay: refused, and the tokens issued with that code die
    const replay = await exchangeCode(clientId, code2, p2.verifier);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    const after = await s.gql(ME, {}, tok.body.access_token);
    expect(after.status).toBe(401);
    expect(after.body.errors![0]).toMatchObject({
      message: 'Access token revoked',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect((await refresh(clientId, tok.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('a code redeemed by concurrent requests yields tokens exactly once', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient();
    const p = pkce();
    const code = await authorize(clientId, await s.tokenFor(u.id), { challenge: p.challenge });
    const results = await Promise.all([1, 2, 3, 4].map(() => exchangeCode(clientId, code, p.verifier)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
  });

  it('refuses a code for another client, another redirect URI, or after expiry', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient();
    const otherClient = await registerClient();
    const userToken = await s.tokenFor(u.id);
    const p = pkce();
    const c1 = await authorize(clientId, userToken, { challenge: p.challenge });
    expect((await exchangeCode(otherClient, c1, p.verifier)).body.error).toBe('invalid_grant');
    const c2 = await authorize(clientId, userToken, { challenge: p.challenge });
    const r2 = await post(
      '/api/oauth/token',
      new URLSearchParams({
        grant_type: 'authorization_code',
        code: c2,
        redirect_uri: 'http://127.0.0.1:8765/other',
        client_id: clientId,
        code_verifier: p.verifier,
      }),
    );
    expect(r2.body.error).toBe('invalid_grant');
    const c3 = await authorize(clientId, userToken, { challenge: p.challenge });
    const row = await s.db.prisma.oAuthAuthorizationCode.findUniqueOrThrow({ where: { codeHash: hashSecret(c3) } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(61_000);
    await s.db.prisma.oAuthAuthorizationCode.update({
      where: { codeHash: row.codeHash },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const r3 = await exchangeCode(clientId, c3, p.verifier);
    expect(r3.body).toEqual({ error: 'invalid_grant', error_description: 'Authorization code expired' });
    expect(
      (await post('/api/oauth/token', new URLSearchParams({ grant_type: 'password', client_id: clientId }))).body.error,
    ).toBe('unsupported_grant_type');
    expect(
      (await post('/api/oauth/token', new URLSearchParams({ grant_type: 'authorization_code', client_id: 'nope' })))
        .status,
    ).toBe(401);
  });
});

describe('refresh tokens', () => {
  it('rotate on use; reusing a rotated token revokes the whole family', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient();
    const p = pkce();
    const first = (
      await exchangeCode(
        clientId,
        await authorize(clientId, await s.tokenFor(u.id), { challenge: p.challenge, scope: 'read write' }),
        p.verifier,
      )
    ).body;

    const second = await refresh(clientId, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.scope).toBe('read write');
    expect(ok(await s.gql(ME, {}, second.body.access_token)).me.id).toBe(u.id);

    const narrowed = await refresh(clientId, second.body.refresh_token, {}, { scope: 'read' });
    expect(narrowed.body.scope).toBe('read');
    const widened = await refresh(clientId, narrowed.body.refresh_token, {}, { scope: 'read write' });
    expect(widened.body.error).toBe('invalid_scope');

    // reuse of the already rotated first token: refused, and the live descendants die
    const reuse = await refresh(clientId, first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    expect((await s.gql(ME, {}, narrowed.body.access_token)).status).toBe(401);
    expect((await refresh(clientId, narrowed.body.refresh_token)).body.error).toBe('invalid_grant');
  });
});

describe('revocation (RFC 7009) and clean-up', () => {
  it('revoking a refresh token ends the whole grant; another client cannot revoke; unknown tokens are fine', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient();
    const otherClient = await registerClient();
    const p = pkce();
    const t = (
      await exchangeCode(
        clientId,
        await authorize(clientId, await s.tokenFor(u.id), { challenge: p.challenge }),
        p.verifier,
      )
    ).body;
    const foreign = await post(
      '/api/oauth/revoke',
      new URLSearchParams({ token: t.refresh_token, client_id: otherClient }),
    );
    expect(foreign.status).toBe(200);
    expect(ok(await s.gql(ME, {}, t.access_token)).me.id).toBe(u.id);
    expect(
      (await post('/api/oauth/revoke', new URLSearchParams({ token: 'bprt_unknown', client_id: clientId }))).status,
    ).toBe(200);
    const res = await post(
      '/api/oauth/revoke',
      new URLSearchParams({ token: t.refresh_token, token_type_hint: 'refresh_token', client_id: clientId }),
    );
    expect(res.status).toBe(200);
    expect((await s.gql(ME, {}, t.access_token)).status).toBe(401);
    expect((await refresh(clientId, t.refresh_token)).body.error).toBe('invalid_grant');
    expect((await s.get('/.well-known/oauth-authorization-server')).body.revocation_endpoint).toBe(
      `${s.url}/api/oauth/revoke`,
    );
  });

  it('purges codes and tokens expired for more than a day', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient();
    const p = pkce();
    const t = (
      await exchangeCode(
        clientId,
        await authorize(clientId, await s.tokenFor(u.id), { challenge: p.challenge }),
        p.verifier,
      )
    ).body;
    const old = new Date(Date.now() - 3 * 24 * 3600 * 1000);
    await s.db.prisma.oAuthToken.update({ where: { tokenHash: hashSecret(t.access_token) }, data: { expiresAt: old } });
    const { OAuthService } = await import('../../../src/modules/auth/oauth.service');
    const purged = await new OAuthService(s.db.prisma).purgeExpired();
    expect(purged!.tokens).toBeGreaterThanOrEqual(1);
    expect(await s.db.prisma.oAuthToken.count({ where: { tokenHash: hashSecret(t.access_token) } })).toBe(0);
    expect(await s.db.prisma.oAuthToken.count({ where: { tokenHash: hashSecret(t.refresh_token) } })).toBe(1);
  });
});

describe('scopes', () => {
  it('a read-only token cannot call a mutation; app tokens never manage credentials', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const clientId = await registerClient();
    const p = pkce();
    const readOnly = (
      await exchangeCode(
        clientId,
        await authorize(clientId, await s.tokenFor(u.id), { challenge: p.challenge, scope: 'read' }),
        p.verifier,
      )
    ).body.access_token;
    expect(ok(await s.gql(ME, {}, readOnly)).me.id).toBe(u.id);
    const denied = await s.gql('mutation { exchangeApiKey { token } }', {}, readOnly);
    expect(denied.body.errors![0]).toMatchObject({
      message: "This token lacks the 'write' scope",
      extensions: { code: 'FORBIDDEN' },
    });

    const p2 = pkce();
    const readWrite = (
      await exchangeCode(
        clientId,
        await authorize(clientId, await s.tokenFor(u.id), { challenge: p2.challenge, scope: 'read write' }),
        p2.verifier,
      )
    ).body.access_token;
    const keys = await s.gql('mutation { issueApiKey { apiKey } }', {}, readWrite);
    expect(keys.body.errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await s.gql('{ apiKeyStatus { exists } }', {}, readWrite)).body.errors![0].extensions.code).toBe(
      'FORBIDDEN',
    );
  });
});

describe('confidential clients (issueOAuthClient)', () => {
  const ISSUE =
    'mutation($uris: [String!]!) { issueOAuthClient(redirectUris: $uris) { clientId clientSecret redirectUris } }';

  it('issues id + secret once, validates redirect URIs, needs the secret at the token endpoint, and reissue/delete revoke tokens', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const jwt = await s.tokenFor(u.id);
    for (const bad of ['http://app.example/cb', 'https://app.example/cb#x', 'ftp://x.example/']) {
      const r = await s.gql(ISSUE, { uris: [bad] }, jwt);
      expect(r.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    }
    expect((await s.gql(ISSUE, { uris: [] }, jwt)).body.errors![0].extensions.code).toBe('BAD_USER_INPUT');

    const issued = ok(await s.gql(ISSUE, { uris: [REDIRECT, 'http://localhost:3000/cb'] }, jwt)).issueOAuthClient;
    handedOut.push(issued.clientSecret);
    expect(issued.clientSecret).toMatch(/^bpcs_/);
    const status = ok(await s.gql('{ oauthClient { exists clientId redirectUris } }', {}, jwt)).oauthClient;
    expect(status).toEqual({
      exists: true,
      clientId: issued.clientId,
      redirectUris: [REDIRECT, 'http://localhost:3000/cb'],
    });

    const p = pkce();
    const code = await authorize(issued.clientId, jwt, { challenge: p.challenge });
    const noSecret = await exchangeCode(issued.clientId, code, p.verifier);
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const code2 = await authorize(issued.clientId, jwt, { challenge: p.challenge });
    const wrongSecret = await exchangeCode(issued.clientId, code2, p.verifier, { client_secret: 'bpcs_wrong' });
    expect(wrongSecret.status).toBe(401);
    // client_secret_basic
    const code3 = await authorize(issued.clientId, jwt, { challenge: p.challenge });
    const basic = `Basic ${Buffer.from(`${issued.clientId}:${issued.clientSecret}`).toString('base64')}`;
    const tok = await exchangeCode(issued.clientId, code3, p.verifier, {}, { authorization: basic });
    expect(tok.status).toBe(200);
    expect(ok(await s.gql(ME, {}, tok.body.access_token)).me.id).toBe(u.id);

    // reissue: new id, old client and its tokens gone
    const again = ok(await s.gql(ISSUE, { uris: [REDIRECT] }, jwt)).issueOAuthClient;
    handedOut.push(again.clientSecret);
    expect(again.clientId).not.toBe(issued.clientId);
    expect((await s.gql(ME, {}, tok.body.access_token)).status).toBe(401);

    // delete: tokens of the new client die too
    const code4 = await authorize(again.clientId, jwt, { challenge: p.challenge });
    const tok2 = await exchangeCode(again.clientId, code4, p.verifier, { client_secret: again.clientSecret });
    expect(tok2.status).toBe(200);
    expect(ok(await s.gql('mutation { deleteOAuthClient { deleted } }', {}, jwt)).deleteOAuthClient.deleted).toBe(true);
    expect((await s.gql(ME, {}, tok2.body.access_token)).status).toBe(401);
    expect(ok(await s.gql('mutation { deleteOAuthClient { deleted } }', {}, jwt)).deleteOAuthClient.deleted).toBe(
      false,
    );
    expect(ok(await s.gql('{ oauthClient { exists clientId } }', {}, jwt)).oauthClient).toEqual({
      exists: false,
      clientId: null,
    });
  });
});

describe('secrets at rest', () => {
  it('no key, client secret, code or token is stored in plaintext', async () => {
    // one more API key so the ApiKey table is not empty
    const u = await aPublicPlayer(s.db.prisma);
    handedOut.push(
      ok(await s.gql('mutation { issueApiKey { apiKey } }', {}, await s.tokenFor(u.id))).issueApiKey.apiKey,
    );
    const tables = {
      ApiKey: await s.db.prisma.$queryRawUnsafe<unknown[]>('SELECT * FROM "ApiKey"'),
      OAuthClient: await s.db.prisma.$queryRawUnsafe<unknown[]>('SELECT * FROM "OAuthClient"'),
      OAuthAuthorizationCode: await s.db.prisma.$queryRawUnsafe<unknown[]>('SELECT * FROM "OAuthAuthorizationCode"'),
      OAuthToken: await s.db.prisma.$queryRawUnsafe<unknown[]>('SELECT * FROM "OAuthToken"'),
    };
    for (const [name, rows] of Object.entries(tables)) expect([name, rows.length > 0]).toEqual([name, true]);
    const dump = JSON.stringify(tables);
    expect(handedOut.length).toBeGreaterThan(20);
    for (const secret of handedOut) {
      expect(secret.length).toBeGreaterThan(30);
      if (dump.includes(secret)) throw new Error(`plaintext secret found in the database: ${secret.slice(0, 8)}…`);
      // and not even the random part without its prefix
      expect(dump.includes(secret.split('_').slice(1).join('_'))).toBe(false);
    }
    const hashes = new Set(handedOut.map(hashSecret));
    const tokenRows = tables.OAuthToken as { tokenHash: string }[];
    expect(tokenRows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
    expect(tokenRows.some((r) => hashes.has(r.tokenHash))).toBe(true);
  });
});
