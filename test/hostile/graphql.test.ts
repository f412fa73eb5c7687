/**
 * Hostile GraphQL requests of issue #21 (H1, H2, H4, H5, M1, L): each is refused before it runs,
 * quickly, with BAD_USER_INPUT (or RATE_LIMITED) naming the limit — never run, never a 500 — and
 * /healthz stays responsive meanwhile.
 */
import { getIntrospectionQuery } from 'graphql';
import { aPublicPlayer, follows } from '../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../helpers/server';
import { codeOf, cursor, post, underAttack, warmUp } from './hostile';

let s: TestServer;
let userId: string;
let token: string;
beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '10' } });
  await warmUp(s.url);
  const u = await aPublicPlayer(s.db.prisma);
  userId = u.id;
  token = await s.tokenFor(u.id);
  // a follower, so that followers pages have a row
  await follows(s.db.prisma, await aPublicPlayer(s.db.prisma), u);
});
afterAll(() => s.close());

/** Costs far more than GRAPHQL_MAX_COMPLEXITY (5000): 100 songs × 10 charts × 100 notes. */
const EXPENSIVE = `query($t: String!) { songs(first: 100, filter: { title: $t }) { edges { node { charts { songNotes(first: 100) { edges { node { body } } } } } } } }`;

describe('H1: a failed cost check is never cached as 0', () => {
  it('refuses the expensive document on every path after a first request without its variable', async () => {
    // Apollo's path: a non-JSON Accept type (graphql-response+json), no variables, then GET, then with variables.
    const accept = { accept: 'application/graphql-response+json', 'apollo-require-preflight': 'true' };
    await underAttack(s.url, 2000, async () => {
      const first = await post(s.url, { query: EXPENSIVE }, accept);
      expect(first.status).toBe(400);
      const withVars = await post(s.url, { query: EXPENSIVE, variables: { t: 'a' } }, accept);
      expect(withVars.status).toBe(400);
      expect(withVars.json.errors[0].message).toMatch(/complexity \d+ exceeds the maximum of 5000/);
      const get = await fetch(
        `${s.url}/graphql?${new URLSearchParams({ query: EXPENSIVE, variables: JSON.stringify({ t: 'a' }) })}`,
        { headers: { 'apollo-require-preflight': 'true' } },
      );
      const body = await get.json();
      expect(get.status).toBe(400);
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      // the compiled executor's path (JSON POST) too
      const compiled = await post(s.url, { query: EXPENSIVE, variables: { t: 'a' } });
      expect(codeOf(compiled)).toBe('BAD_USER_INPUT');
    });
  });

  it('a persisted (APQ) hash of the expensive document is refused as well', async () => {
    const { createHash } = await import('node:crypto');
    const sha256Hash = createHash('sha256').update(EXPENSIVE).digest('hex');
    const ext = { persistedQuery: { version: 1, sha256Hash } };
    const reg = await post(s.url, { query: EXPENSIVE, extensions: ext });
    expect(reg.status).toBe(400);
    const byHash = await post(s.url, { extensions: ext, variables: { t: 'a' } });
    expect(codeOf(byHash)).not.toBe(undefined);
    expect(byHash.json.data).toBeUndefined();
  });
});

describe('H2: introspection is counted', () => {
  it('refuses many aliased __schema fields before resolving any', async () => {
    // 25 aliased copies of a deep introspection (the review's 700 KB of them held the server 69 s)
    const full =
      'fragment Full on __Schema { types { name kind description fields(includeDeprecated: true) { name description args { name type { name kind ofType { name kind ofType { name kind } } } } type { name kind ofType { name kind ofType { name kind } } } } } }';
    const query = `{ ${Array.from({ length: 25 }, (_, i) => `s${i}: __schema { ...Full }`).join(' ')} } ${full}`;
    const r = await underAttack(s.url, 2000, () => post(s.url, { query }));
    expect(r.result.status).toBe(400);
    expect(codeOf(r.result)).toBe('BAD_USER_INPUT');
    expect(r.result.json.data).toBeUndefined();
  });

  it('still answers one full introspection query (GraphiQL)', async () => {
    const res = await post(s.url, { query: getIntrospectionQuery() });
    expect(res.status).toBe(200);
    expect(res.json.data.__schema.queryType.name).toBe('Query');
  });
});

describe('H4: lists cost by their bound; aliases are capped', () => {
  it('refuses 100 aliases of bestEver (aliases cap)', async () => {
    const query = `{ user(id: ${JSON.stringify(userId)}) { ${Array.from({ length: 100 }, (_, i) => `b${i}: bestEver(currentVersion: "33") { chartId bestExScore }`).join(' ')} } }`;
    const r = await underAttack(s.url, 2000, () => post(s.url, { query }));
    expect(codeOf(r.result)).toBe('BAD_USER_INPUT');
    expect(r.result.json.errors[0].message).toMatch(/aliases 100 exceeds the maximum of 30 \(GRAPHQL_MAX_ALIASES\)/);
  });

  it('refuses an unpaged list under a 100-row page: followers(first: 100) × bestEver', async () => {
    // 100 followers × bestEver (declared bound 100) × 5 fields ≈ 50,000 > 5000
    const query = `query($id: ID!) { user(id: $id) { followers(first: 100) { edges { node { bestEver(currentVersion: "33") { chartId title bestExScore bestVersion bestBpi } } } } } }`;
    const r = await underAttack(s.url, 2000, () => post(s.url, { query, variables: { id: userId } }));
    expect(codeOf(r.result)).toBe('BAD_USER_INPUT');
    expect(r.result.json.errors[0].message).toMatch(/complexity/);
  });
});

describe('H4: fragments that double at each level', () => {
  it('are measured in linear time and refused (2^31 − 1 aliases from a 2 KB document)', async () => {
    const chain = ['fragment S0 on ServerInfo { a: name }'];
    for (let k = 1; k <= 30; k++)
      chain.push(`fragment S${k} on ServerInfo { ...S${k - 1} b${k}: version ...S${k - 1} }`);
    const r = await underAttack(s.url, 3000, () =>
      post(s.url, { query: `{ serverInfo { ...S30 } } ${chain.join(' ')}` }),
    );
    expect(r.result.status).toBe(400);
    expect(codeOf(r.result)).toBe('BAD_USER_INPUT');
  });
});

describe('H5: string arguments have a maximum length', () => {
  const big = 'あ'.repeat(300_000);
  it('refuses a 300,000-character songs title filter and timeline search', async () => {
    const r = await underAttack(s.url, 3000, async () => [
      await post(s.url, {
        query: 'query($t: String) { songs(filter: { title: $t }) { totalCount } }',
        variables: { t: big },
      }),
      await post(
        s.url,
        {
          query: 'query($u: ID!, $q: String) { timeline(userId: $u, search: $q) { totalCount } }',
          variables: { u: userId, q: big },
        },
        { authorization: `Bearer ${token}` },
      ),
      await post(s.url, { query: `{ songs(filter: { title: ${JSON.stringify(big)} }) { totalCount } }` }),
    ]);
    for (const res of r.result) {
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('BAD_USER_INPUT');
    }
    expect(r.result[0].json.errors[0].message).toBe(
      'Argument SongFilter.title is 300000 characters long; the maximum is 256',
    );
    expect(r.result[1].json.errors[0].message).toBe(
      'Argument Query.timeline.search is 300000 characters long; the maximum is 256',
    );
    expect(r.result[2].json.errors[0].message).toMatch(/Query length 3000\d\d exceeds the maximum of 32768 characters/); // a literal: the whole text is too long
  });
});

describe('M1: aliased mutations count one write each', () => {
  it('11 aliased postSongNote against a limit of 10 writes a minute: 429 RATE_LIMITED with Retry-After, nothing written', async () => {
    const chart = await s.db.prisma.chart.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const u = await aPublicPlayer(s.db.prisma);
    const query = `mutation($c: ID!, $b: String!) { ${Array.from({ length: 11 }, (_, i) => `n${i}: postSongNote(chartId: $c, body: $b) { note { id: databaseId } }`).join(' ')} }`;
    const auth = { authorization: `Bearer ${await s.tokenFor(u.id)}` };
    const r = await underAttack(s.url, 2000, () =>
      post(s.url, { query, variables: { c: String(chart.id), b: 'memo' } }, auth),
    );
    expect(r.result.status).toBe(429);
    expect(r.result.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(codeOf(r.result)).toBe('RATE_LIMITED');
    expect(await s.db.prisma.songNote.count({ where: { authorId: u.id } })).toBe(0);
  });
});

describe('M1: aliases reusing one big variable', () => {
  it('two aliased uploads of one 3 MB variable are refused before either is parsed', async () => {
    const csv = 'x'.repeat(3 * 1024 * 1024);
    const query = `mutation($u: ID!, $c: String!) { a: importScoresCsv(userId: $u, version: "33", csv: $c) { rowCount } b: importScoresCsv(userId: $u, version: "33", csv: $c) { rowCount } }`;
    const r = await underAttack(s.url, 3000, () =>
      post(s.url, { query, variables: { u: userId, c: csv } }, { authorization: `Bearer ${token}` }),
    );
    expect(r.result.status).toBe(400);
    expect(r.result.json.errors[0]).toMatchObject({
      message: expect.stringMatching(/^At most one upload .* per request \(found 2\)$/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(await s.db.prisma.importBatch.count({ where: { userId } })).toBe(0);
  });
});

describe('L: documents, cursors, suggestions, compilation', () => {
  it('refuses a query text over GRAPHQL_MAX_QUERY_LENGTH and one over GRAPHQL_MAX_TOKENS before parsing it', async () => {
    const long = `{ serverInfo { name } } # ${'x'.repeat(40_000)}`;
    const tokens = `{ serverInfo { ${'name '.repeat(6000)} } }`;
    const r = await underAttack(s.url, 2000, async () => [
      await post(s.url, { query: long }),
      await post(s.url, { query: tokens }),
    ]);
    expect(r.result[0].status).toBe(400);
    expect(r.result[0].json.errors[0].message).toMatch(/GRAPHQL_MAX_QUERY_LENGTH/);
    expect(r.result[1].status).toBe(400);
    expect(r.result[1].json.errors[0].message).toMatch(/more that 5000 tokens/); // graphql-js' wording
  });

  it('a cursor holding 1e300 or 2^40 is BAD_USER_INPUT, never a 500', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['query($a: String) { globalRanking(after: $a) { totalCount } }', {}],
      ['query($a: String) { songs(after: $a) { totalCount } }', {}],
      ['query($a: String) { recentSongNotes(after: $a) { totalCount } }', {}],
      ['query($a: String, $u: ID!) { user(id: $u) { followers(after: $a) { totalCount } } }', { u: userId }],
    ];
    for (const [query, vars] of cases) {
      for (const parts of [
        [1e300],
        [2 ** 40],
        ['x', 1e300],
        [1e300, 'x', 1e300],
        ['2024-01-01T00:00:00.000Z', 2 ** 40],
      ]) {
        const res = await post(s.url, { query, variables: { ...vars, a: cursor(parts) } });
        // a resolver's BAD_USER_INPUT (HTTP 200 with errors, as any field error), never INTERNAL_SERVER_ERROR / 500
        expect({ query, parts, code: codeOf(res), data: res.json.data === undefined ? 'none' : 'some' }).toMatchObject({
          query,
          parts,
          code: 'BAD_USER_INPUT',
        });
        expect(res.status).toBeLessThan(500);
      }
    }
  });

  it('ids above the 32-bit range (or 1e300) are never a 500: lookups answer null, writes and chart reads BAD_USER_INPUT', async () => {
    // its own server: this file's 10 writes a minute would otherwise answer RATE_LIMITED first
    const t = await startTestServer();
    const auth = { authorization: `Bearer ${await t.tokenFor((await aPublicPlayer(t.db.prisma)).id)}` };
    try {
      for (const id of ['99999999999', '2147483648', '1e300', '-99999999999']) {
        // lookups: an id that cannot exist is simply not found
        for (const query of [
          'query($id: ID!) { song(id: $id) { id: databaseId } }',
          'query($id: ID!) { chart(id: $id) { id: databaseId } }',
        ]) {
          const res = await post(t.url, { query, variables: { id } });
          expect({ query, id, status: res.status, errors: res.json.errors }).toMatchObject({
            query,
            id,
            status: 200,
            errors: undefined,
          });
        }
        // an id argument of an operation: BAD_USER_INPUT naming it
        const cases: [string, Record<string, unknown>][] = [
          ['query($id: ID!) { songNotes(chartId: $id) { totalCount } }', { id }],
          ['mutation($id: ID!) { postSongNote(chartId: $id, body: "x") { note { id: databaseId } } }', { id }],
          ['mutation($id: ID!) { editSongNote(id: $id, body: "x") { note { id: databaseId } } }', { id }],
          ['mutation($id: ID!) { deleteSongNote(id: $id) { deleted } }', { id }],
          ['mutation($id: ID!) { upvoteSongNote(id: $id) { changed } }', { id }],
          ['mutation($id: ID!) { cancelSongNoteUpvote(id: $id) { changed } }', { id }],
        ];
        for (const [query, variables] of cases) {
          const res = await post(t.url, { query, variables }, auth);
          expect({ query, id, code: codeOf(res) }).toEqual({ query, id, code: 'BAD_USER_INPUT' });
          expect(res.status).toBeLessThan(500);
        }
      }
    } finally {
      await t.close();
    }
  });

  it('an over-limit document is never compiled by graphql-jit', async () => {
    const before = s.executor!.stats.jit;
    expect(typeof before).toBe('number'); // the executor counts its graphql-jit compilations
    const res = await post(s.url, { query: EXPENSIVE, variables: { t: 'b' } });
    expect(codeOf(res)).toBe('BAD_USER_INPUT');
    expect(s.executor!.stats.jit).toBe(before);
  });

  it('resolver-level rate limits answer 429 with Retry-After (resolveFollowInvite: 30 a minute)', async () => {
    let last: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 31; i++)
      last = await post(s.url, {
        query: '{ resolveFollowInvite(token: "0123456789abcdef0123456789abcdef") { inviterId } }',
      });
    expect(codeOf(last!)).toBe('RATE_LIMITED');
    expect(last!.status).toBe(429);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('L: with introspection off, no schema details in errors', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { GRAPHQL_INTROSPECTION: 'false' } });
  });
  afterAll(() => t.close());

  it('a misspelt field gets no "Did you mean" suggestion', async () => {
    const res = await post(t.url, { query: '{ serverInf { name } }' });
    expect(res.status).toBe(400);
    expect(res.text).not.toMatch(/Did you mean/);
    expectNoErrors(await t.gql('{ serverInfo { name } }'));
  });
});
