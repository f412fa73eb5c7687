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
  ['/api/v1/token', 'post'],
  ['/.well-known/oauth-authorization-server', 'get'],
  ['/api/oauth/authorization-server-metadata', 'get'],
  ['/.well-known/oauth-protected-resource', 'get'],
  ['/.well-known/oauth-protected-resource/mcp', 'get'],
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
    const listed = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => [p, m]));
    expect(listed.sort()).toEqual([...REST_PATHS].sort());
    expect(doc.servers).toEqual([{ url: `http://localhost:${new URL(s.url).port}` }]);
    // parameters come from the routes' zod schemas: the calculator's query
    const calc = doc.paths['/api/v1/bpi/calc'].get;
    expect(calc.parameters.map((p: any) => [p.name, p.in, p.required ?? false]).sort()).toEqual([
      ['difficulty', 'query', true],
      ['exScore', 'query', true],
      ['includeRank', 'query', false],
      ['title', 'query', true],
      ['version', 'query', false],
    ]);
    expect(calc.responses['200'].content['application/json'].schema.required).toEqual(['song', 'bpi', 'rank', 'metadata']);
  });

  it('REST responses of every kind conform (checked at close): 200s, 400, 401, 404, OAuth errors (405s are undocumented on purpose)', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const title = [...s.app.catalogue.charts()].find((c) => c.playStyle === 'SP' && c.difficulty === 'ANOTHER' && c.definition)!.title;
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
    expect((await fetch(`${s.url}/api/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"password","client_id":"nope"}' })).status).toBe(401); // invalid_client
    expect((await fetch(`${s.url}/api/oauth/authorize?client_id=x`)).status).toBe(400);
  }, 120_000);
});
