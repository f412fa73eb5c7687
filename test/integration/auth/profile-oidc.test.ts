import http from 'node:http';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

/** createProfile end to end: an external OIDC identity without a local user signs up. */
describe('createProfile with an external ID token', () => {
  let jwks: http.Server;
  let s: TestServer;
  let privateKey: CryptoKey;
  const ISSUER = 'https://idp.profile.test';
  const AUDIENCE = 'bpigraph-web';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'p1', alg: 'RS256', use: 'sig' };
    jwks = http.createServer(
      (_req, res) =>
        void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
    );
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    const port = (jwks.address() as { port: number }).port;
    s = await startTestServer({
      seedDemo: false,
      env: { AUTH_ISSUER: ISSUER, AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`, AUTH_AUDIENCE: AUDIENCE },
    });
  });
  afterAll(async () => {
    await s?.close();
    await new Promise((r) => jwks.close(r));
  });

  const idToken = (sub: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'p1' })
      .setSubject(sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
      .sign(privateKey);

  const CREATE = `mutation($i: CreateProfileInput!) { createProfile(input: $i) { user { id: databaseId name isPublic gameId profileText statsPrivacy { showArea } } } }`;

  it('creates the user and links the identity; the same ID token then acts as that user; a second create is CONFLICT', async () => {
    const token = await idToken('new-player-1');
    const bad = await s.gql(CREATE, { i: { name: 'a?b' } }, token);
    expect(bad.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(await s.db.prisma.externalIdentity.count({ where: { subject: 'new-player-1' } })).toBe(0);

    const created = expectNoErrors<any>(
      await s.gql(
        CREATE,
        {
          i: {
            name: 'OidcPlayer',
            isPublic: false,
            gameId: '1111-2222',
            profileText: 'hi',
            statsPrivacy: { showArea: true },
          },
        },
        token,
      ),
    ).createProfile.user;
    expect(created).toMatchObject({ name: 'OidcPlayer', isPublic: false, gameId: '1111-2222', profileText: 'hi' });
    const link = await s.db.prisma.externalIdentity.findUnique({
      where: { issuer_subject: { issuer: ISSUER, subject: 'new-player-1' } },
    });
    expect(link?.userId).toBe(created.id);

    const self = expectNoErrors<any>(
      await s.gql(
        'query($id: ID!) { user(id: $id) { relationship { isSelf } statsPrivacy { showArea } } }',
        { id: created.id },
        token,
      ),
    ).user;
    expect(self).toEqual({ relationship: { isSelf: true }, statsPrivacy: { showArea: true } });

    const again = await s.gql(CREATE, { i: { name: 'OidcPlayer2' } }, token);
    expect(again.body.errors?.[0].extensions.code).toBe('CONFLICT');

    const clash = await s.gql(CREATE, { i: { name: 'oidcplayer' } }, await idToken('new-player-2'));
    expect(clash.body.errors?.[0]).toMatchObject({
      message: 'This user name is already taken',
      extensions: { code: 'CONFLICT' },
    });
    expect(await s.db.prisma.externalIdentity.count({ where: { subject: 'new-player-2' } })).toBe(0);
  });
});
