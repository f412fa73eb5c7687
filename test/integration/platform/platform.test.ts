import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { aPlayer } from '../../helpers/factories';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('HTTP platform', () => {
  it('answers /healthz and /readyz', async () => {
    expect(await s.get('/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await s.get('/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('serves introspection and queries at POST /graphql', async () => {
    const data = expectNoErrors(
      await s.gql('{ __schema { queryType { name } } serverInfo { name chartCount definitionsVersion } }'),
    );
    expect(data).toMatchObject({
      __schema: { queryType: { name: 'Query' } },
      serverInfo: { name: 'bpigraph', definitionsVersion: 'demo-1' },
    });
    expect((data as any).serverInfo.chartCount).toBeGreaterThan(50);
  });

  it('answers GET /graphql queries (with a CSRF-safe header)', async () => {
    const res = await fetch(`${s.url}/graphql?query=${encodeURIComponent('{ serverInfo { name } }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { serverInfo: { name: 'bpigraph' } } });
  });

  it('serves the self-hosted explorer to browsers, with no external script URL', async () => {
    const res = await fetch(`${s.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('graphiql');
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/i);
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/i);
  });

  it('serves the explorer compressed (br, else gzip), cacheable with an ETag (304), never framed', async () => {
    const zlib = await import('node:zlib');
    const get = (headers: Record<string, string>, path = '/graphql') =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
        (resolve, reject) => {
          // node:http, so that the body arrives as sent (fetch would decode it)
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:http loaded where it is used
          const http = require('node:http') as typeof import('node:http');
          http
            .get(`${s.url}${path}`, { headers: { accept: 'text/html', ...headers } }, (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () =>
                resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
              );
            })
            .on('error', reject);
        },
      );
    const plain = await get({});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers['vary']).toContain('Accept-Encoding');
    expect(plain.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(plain.headers['content-security-policy']).toContain("connect-src 'self'");
    const html = plain.body.toString();
    expect(html).toContain('graphqlWs'); // the graphql-ws browser client, inlined
    expect(html).toContain('query Dashboard');

    const gz = await get({ 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.body.length).toBeLessThan(plain.body.length / 2);
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect((await get({ 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');

    // each encoding has its own ETag; a matching If-None-Match gets 304 without a body
    const tags = new Set([plain.headers.etag, gz.headers.etag, br.headers.etag]);
    expect(tags.size).toBe(3);
    const again = await get({ 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(gz.headers.etag);
    expect((await get({ 'accept-encoding': 'gzip', 'if-none-match': '"stale"' })).status).toBe(200);

    // a link with ?query=… opens the explorer in a browser (it used to be a CSRF error there)
    const link = await get({}, `/graphql?query=${encodeURIComponent('{ serverInfo { name } }')}`);
    expect(link.status).toBe(200);
    expect(link.body.equals(plain.body)).toBe(true);
  });

  it('gives clear codes for bad GraphQL: parse, validation, bad arguments', async () => {
    const parse = await s.gql('{ serverInfo { ');
    expect(parse.status).toBe(400);
    expect(parse.body.errors![0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const invalid = await s.gql('{ nope }');
    expect(invalid.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const badPage = await s.gql('{ songs(first: 1000) { totalCount } }');
    expect(badPage.body.errors![0]).toMatchObject({
      message: 'first must be between 1 and 100',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const badCursor = await s.gql('{ songs(after: "garbage") { totalCount } }');
    expect(badCursor.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('answers a malformed or forged bearer token with 401, never 500', async () => {
    const malformed = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Basic abc' },
      body: JSON.stringify({ query: '{ serverInfo { name } }' }),
    });
    expect(malformed.status).toBe(401);
    expect((await malformed.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const forged = await s.gql('{ serverInfo { name } }', {}, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad');
    expect(forged.status).toBe(401);
    expect(forged.body.errors![0]).toMatchObject({
      message: 'Invalid access token',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('accepts a valid token of an existing user', async () => {
    const u = await aPlayer(s.db.prisma);
    const res = await s.gql('{ serverInfo { name } }', {}, await s.tokenFor(u.id));
    expect(res.status).toBe(200);
  });

  it('refuses oversized bodies with 413 and a JSON message', async () => {
    const res = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ serverInfo { name } } # ${'x'.repeat(5 * 1024 * 1024)}` }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: expect.stringContaining('Request body too large') });
  });

  it('answers unknown paths with 404 JSON', async () => {
    expect(await s.get('/nope')).toMatchObject({ status: 404, body: { message: 'Not found' } });
  });
});

describe('catalogue reads', () => {
  it('pages through songs with opaque cursors and stable order', async () => {
    const q = `query($after: String) { songs(first: 10, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id title } } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    let total = 0;
    for (let i = 0; i < 10; i++) {
      const d: any = expectNoErrors(await s.gql(q, { after }));
      total = d.songs.totalCount;
      seen.push(...d.songs.edges.map((e: any) => e.node.title));
      if (!d.songs.pageInfo.hasNextPage) break;
      after = d.songs.pageInfo.endCursor;
    }
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
    expect([...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(seen);
  });

  it('filters by level, difficulty and title and resolves charts and definitions', async () => {
    // 10 songs: every chart's definition history is a list costed at its bound (10 charts × 10
    // entries per song), so 100 songs of it would exceed GRAPHQL_MAX_COMPLEXITY.
    const d: any = expectNoErrors(
      await s.gql(
        `{ songs(first: 10, filter: { level: 12, difficulty: LEGGENDARIA }) { totalCount edges { node { title charts { difficulty level definition { wr kaidenAvg } definitionHistory { definitionsVersion isCurrent } } } } } }`,
      ),
    );
    expect(d.songs.totalCount).toBeGreaterThan(0);
    for (const e of d.songs.edges) {
      expect(e.node.charts.some((c: any) => c.difficulty === 'LEGGENDARIA' && c.level === 12)).toBe(true);
      for (const c of e.node.charts)
        expect(c.definitionHistory).toEqual([{ definitionsVersion: 'demo-1', isCurrent: true }]);
    }
    const byTitle: any = expectNoErrors(
      await s.gql(`{ songs(filter: { title: "aurora" }) { edges { node { title } } } }`),
    );
    expect(byTitle.songs.edges.length).toBeGreaterThan(0);
    for (const e of byTitle.songs.edges) expect(e.node.title.toLowerCase()).toContain('aurora');
  });
});

describe('error mapping edges', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('an APQ hash that does not match its query is a 400 BAD_REQUEST, not an internal error', async () => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ serverInfo { name } }',
        extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } },
      }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0]).toMatchObject({
      message: 'provided sha does not match query',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('maps an unreachable database to SERVICE_UNAVAILABLE / 503', async () => {
    const { fromDatabaseError, HTTP_STATUS } = await import('../../../src/errors');
    for (const err of [
      { code: 'P1001' },
      { cause: { kind: 'DatabaseNotReachable' } },
      new Error('connect ECONNREFUSED 127.0.0.1:5432'),
    ]) {
      const e = fromDatabaseError(err)!;
      expect(e.code).toBe('SERVICE_UNAVAILABLE');
      expect(HTTP_STATUS[e.code]).toBe(503);
    }
    expect(fromDatabaseError(new Error('something else'))).toBeUndefined();
  });
});
