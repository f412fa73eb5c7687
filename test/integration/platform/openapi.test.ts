import { startTestServer, type TestServer } from '../../helpers/server';
import { aPublicPlayer } from '../../helpers/factories';

// The validator is an ES module: a real dynamic import (not rewritten into require()).
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- deliberate: import() that no transform rewrites
const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<any>;

/** Every REST path the server has (the four compatibility routes, the token exchange, OAuth). */
const REST_PATHS: [string, string][] = [
  ['/api/v1/bpi/calc', 'get'],
  ['/api/v1/users/{userId}/profile', 'get'],
  ['/api/v1/users/{userId}/stats/recommended', 'get'],
  ['/api/v1/songs/notes/recent', 'get'],
  ['/api/v1/users/{userId}/charts/{file}', 'get'],
  ['/api/v1/users/{userId}/scores/export', 'get'],
  ['/api/v1/me/export', 'get'],
  ['/api/v1/users/{userId}/cards/profile.png', 'get'],
  ['/api/v1/batches/{batchId}/card.png', 'get'],
  ['/api/v1/me/profile-image', 'put'],
  ['/api/v1/me/profile-image', 'delete'],
  ['/api/v1/users/{userId}/profile-image', 'get'],
  ['/api/v1/token', 'post'],
  ['/.well-known/oauth-authorization-server', 'get'],
  ['/api/oauth/authorization-server-metadata', 'get'],
  ['/.well-known/oauth-protected-resource', 'get'],
  ['/.well-known/oauth-protected-resource/mcp', 'get'],
  ['/.well-known/jwks.json', 'get'],
  ['/api/oauth/protected-resource-metadata', 'get'],
  ['/api/oauth/register', 'post'],
  ['/api/oauth/client', 'get'],
  ['/api/oauth/authorize', 'get'],
  ['/api/oauth/authorize/consent', 'post'],
  ['/api/oauth/token', 'post'],
  ['/api/oauth/revoke', 'post'],
];

describe('GET /api/v1/openapi.json (OpenAPI 3.1, from the routes’ schemas)', () => {
  let s: TestServer;
  let doc: any;
  beforeAll(async () => {
    s = await startTestServer();
    const res = await s.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  }, 300_000);
  afterAll(() => s.close(), 120_000); // also validates every REST response below against the document

  it('validates as an OpenAPI 3.1 document', async () => {
    const { Validator } = await importEsm('@seriousme/openapi-schema-validator');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('documents exactly the REST paths, with their methods, and nothing else', () => {
    const listed = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => [p, m]),
    );
    expect(listed.sort()).toEqual([...REST_PATHS].sort());
    expect(doc.servers).toEqual([{ url: s.url }]); // no PUBLIC_URL: the loopback host the request used
    // parameters come from the routes' zod schemas: the calculator's query
    const calc = doc.paths['/api/v1/bpi/calc'].get;
    expect(calc.parameters.map((p: any) => [p.name, p.in, p.required ?? false]).sort()).toEqual([
      ['difficulty', 'query', true],
      ['exScore', 'query', true],
      ['includeRank', 'query', false],
      ['title', 'query', true],
      ['version', 'query', false],
    ]);
    expect(calc.responses['200'].content['application/json'].schema.required).toEqual([
      'song',
      'bpi',
      'rank',
      'metadata',
    ]);
  });

  it('types query parameters as the routes parse them (integer, boolean, enum, arrays) and documents 405', () => {
    const param = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: any) => p.name === name)?.schema;
    expect(param('/api/v1/users/{userId}/stats/recommended', 'limit').type).toBe('integer');
    expect(param('/api/v1/users/{userId}/stats/recommended', 'level')).toMatchObject({
      type: 'array',
      items: { type: 'integer' },
    });
    expect(param('/api/v1/users/{userId}/stats/recommended', 'difficulty')).toMatchObject({
      type: 'array',
      items: { enum: ['HYPER', 'ANOTHER', 'LEGGENDARIA'] },
    });
    expect(param('/api/v1/users/{userId}/profile', 'compare').type).toBe('boolean');
    expect(param('/api/v1/bpi/calc', 'includeRank').type).toBe('boolean');
    expect(param('/api/v1/bpi/calc', 'exScore').type).toBe('integer');
    expect(param('/api/v1/songs/notes/recent', 'sort').enum).toEqual(['latest', 'upvotes']);
    expect(param('/api/v1/songs/notes/recent', 'page').type).toBe('integer');
    for (const path of [
      '/api/v1/bpi/calc',
      '/api/v1/users/{userId}/profile',
      '/api/v1/users/{userId}/stats/recommended',
      '/api/v1/songs/notes/recent',
      '/api/v1/users/{userId}/charts/{file}',
    ]) {
      expect([path, Object.keys(doc.paths[path].get.responses)]).toEqual([
        path,
        expect.arrayContaining(['200', '400', '405']),
      ]);
    }
    expect(Object.keys(doc.paths['/api/v1/token'].post.responses)).toContain('405');
  });

  it('REST responses of every kind conform (checked at close): 200s, 400, 401, 404, OAuth errors (405s are undocumented on purpose)', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const title = [...s.app.catalogue.charts()].find(
      (c) => c.playStyle === 'SP' && c.difficulty === 'ANOTHER' && c.definition,
    )!.title;
    const calls: [string, number][] = [
      [`/api/v1/bpi/calc?title=${encodeURIComponent(title)}&difficulty=ANOTHER&exScore=1500&includeRank=true`, 200],
      ['/api/v1/bpi/calc?title=x&difficulty=NOPE&exScore=-1', 400],
      [`/api/v1/bpi/calc?title=${encodeURIComponent('No such song')}&difficulty=ANOTHER&exScore=10`, 404],
      [`/api/v1/users/${u.id}/profile?compare=false`, 200],
      [`/api/v1/users/${u.id}/stats/recommended`, 200],
      ['/api/v1/songs/notes/recent?sort=upvotes', 200],
      ['/.well-known/oauth-authorization-server', 200],
      ['/api/oauth/client', 400],
    ];
    for (const [path, status] of calls) expect([path, (await s.get(path)).status]).toEqual([path, status]);
    expect((await fetch(`${s.url}/api/v1/token`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${s.url}/api/v1/token`)).status).toBe(405);
    expect(
      (
        await fetch(`${s.url}/api/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"grant_type":"password","client_id":"nope"}',
        })
      ).status,
    ).toBe(401); // invalid_client
    expect((await fetch(`${s.url}/api/oauth/authorize?client_id=x`)).status).toBe(400);
  }, 120_000);
});
