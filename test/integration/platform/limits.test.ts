/**
 * Abuse limits: depth / complexity (BAD_USER_INPUT naming the limit), a maximum page size on every
 * connection (walked from the schema), body size (413), rate limits (429 + Retry-After on REST,
 * RATE_LIMITED on GraphQL), automatic persisted queries, introspection / explorer off by config.
 */
import { createHash } from 'node:crypto';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { getSchema } from '../../../src/schema';
import { MAX_PAGE_SIZE } from '../../../src/graphql/connection';
import { aPublicPlayer } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

const isConnection = (f: GraphQLField<unknown, unknown>) => {
  const t = getNamedType(f.type);
  return isObjectType(t) && t.name.endsWith('Connection') && 'edges' in t.getFields();
};

/** Every connection field of the schema as [typeName, field]. */
function connectionFields(schema: GraphQLSchema): [string, GraphQLField<unknown, unknown>][] {
  const out: [string, GraphQLField<unknown, unknown>][] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const f of Object.values(type.getFields())) if (isConnection(f)) out.push([type.name, f]);
  }
  return out;
}

interface Ids {
  userId: string;
  chartId: string;
  songId: string;
}

/** A literal for a required argument, or undefined when none can be made generically. */
function literalFor(arg: GraphQLArgument, ids: Ids, parentReturn?: string): string | undefined {
  const t = getNamedType(arg.type);
  if (isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type)) return undefined;
  if (isEnumType(t)) return t.getValues()[0].name;
  if (isInputObjectType(t)) return undefined;
  if (!isScalarType(t)) return undefined;
  const name = arg.name;
  if (t.name === 'ID' || name.endsWith('Id') || name === 'id') {
    if (name === 'userId' || (name === 'id' && parentReturn === 'User')) return JSON.stringify(ids.userId);
    if (name === 'chartId' || (name === 'id' && parentReturn === 'Chart')) return JSON.stringify(ids.chartId);
    if (name === 'songId' || (name === 'id' && parentReturn === 'Song')) return JSON.stringify(ids.songId);
    return JSON.stringify(ids.userId);
  }
  if (t.name === 'Int') return '1';
  if (t.name === 'Float') return '1.5';
  if (t.name === 'Boolean') return 'false';
  if (t.name === 'String') return name === 'version' ? '"33"' : '"x"';
  return undefined;
}

function argList(field: GraphQLField<unknown, unknown>, ids: Ids, extra: string[] = []): string | undefined {
  const parts = [...extra];
  for (const a of field.args) {
    if (!isNonNullType(a.type) || a.defaultValue !== undefined) continue;
    const lit = literalFor(a, ids, getNamedType(field.type).name);
    if (lit === undefined) return undefined;
    parts.push(`${a.name}: ${lit}`);
  }
  return parts.length ? `(${parts.join(', ')})` : '';
}

/** A root path (`user(id: …) {`…) reaching an object type, found breadth-first through single objects. */
function pathTo(schema: GraphQLSchema, target: string, ids: Ids): { open: string; close: string } | undefined {
  const queue: { type: GraphQLObjectType; open: string; close: string; depth: number }[] = [
    { type: schema.getQueryType()!, open: '', close: '', depth: 0 },
  ];
  const seen = new Set<string>(['Query']);
  while (queue.length) {
    const cur = queue.shift()!;
    if (cur.type.name === target) return { open: cur.open, close: cur.close };
    if (cur.depth >= 3) continue;
    for (const f of Object.values(cur.type.getFields())) {
      const t = getNamedType(f.type);
      const unwrapped = isNonNullType(f.type) ? f.type.ofType : f.type;
      if (!isObjectType(t) || isListType(unwrapped) || isConnection(f) || seen.has(t.name)) continue;
      const args = argList(f, ids);
      if (args === undefined) continue;
      seen.add(t.name);
      queue.push({ type: t, open: `${cur.open} ${f.name}${args} {`, close: `} ${cur.close}`, depth: cur.depth + 1 });
    }
  }
  return undefined;
}

describe('abuse limits (GRAPHQL_MAX_DEPTH=6, GRAPHQL_MAX_COMPLEXITY=800)', () => {
  let s: TestServer;
  let schema: GraphQLSchema;
  let ids: Ids;
  let token: string;

  beforeAll(async () => {
    s = await startTestServer({
      env: {
        GRAPHQL_MAX_DEPTH: '6',
        GRAPHQL_MAX_COMPLEXITY: '800',
        GRAPHQL_EXPENSIVE_COMPLEXITY: '300',
        RATE_LIMIT_WRITES_PER_MINUTE: '0',
        RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
      },
    });
    schema = await getSchema();
    const user = await aPublicPlayer(s.db.prisma);
    token = await s.tokenFor(user.id);
    const chart = await s.db.prisma.chart.findFirstOrThrow({ where: { level: 12 } });
    ids = { userId: user.id, chartId: String(chart.id), songId: String(chart.songId) };
  });
  afterAll(() => s.close());

  it('refuses an operation deeper than the limit with BAD_USER_INPUT naming GRAPHQL_MAX_DEPTH', async () => {
    const ok = await s.gql('{ songs(first: 1) { edges { node { charts { definition { notes } } } } } }');
    expectNoErrors(ok); // depth 6
    const deep = await s.gql(
      '{ songs(first: 1) { edges { node { charts { song { charts { id: databaseId } } } } } } }',
    ); // depth 7
    expect(deep.status).toBe(400);
    expect(deep.body.data).toBeUndefined();
    expect(deep.body.errors).toEqual([
      expect.objectContaining({
        message: 'Query depth 7 exceeds the maximum of 6 (GRAPHQL_MAX_DEPTH)',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
    // Fragments count where they are spread.
    const viaFragment = await s.gql(
      'query { songs(first: 1) { edges { node { ...S } } } } fragment S on Song { charts { song { charts { id: databaseId } } } }',
    );
    expect(viaFragment.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(viaFragment.body.errors?.[0].message).toContain('GRAPHQL_MAX_DEPTH');
  });

  it('refuses an operation over the complexity limit, counting page sizes from variables', async () => {
    const q =
      'query($n: Int) { songs(first: $n) { edges { node { id title artist genre charts { id: databaseId level notes bpm } } } } }';
    expectNoErrors(await s.gql(q, { n: 5 }));
    const big = await s.gql(q, { n: 100 });
    expect(big.status).toBe(400);
    expect(big.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect(big.body.errors![0].message).toMatch(
      /^Query complexity \d+ exceeds the maximum of 800 \(GRAPHQL_MAX_COMPLEXITY\)$/,
    );
    expect(big.body.errors![0].extensions.issues[0].code).toBe('max_complexity');
  });

  it('every connection field has a `first` argument; first: 1000 is refused with BAD_USER_INPUT', async () => {
    const fields = connectionFields(schema);
    expect(fields.length).toBeGreaterThan(3);
    // A page whose size the parent field's own `first` sets (≤ 50, checked by its service, and
    // counted by the cost model on the parent): User.ticketRecommendation(s) { charts }.
    const PAGED_BY_PARENT = new Set(['TicketRecommendation.charts']);
    const missing = fields
      .filter(([t, f]) => !f.args.some((a) => a.name === 'first') && !PAGED_BY_PARENT.has(`${t}.${f.name}`))
      .map(([t, f]) => `${t}.${f.name}`);
    expect(missing).toEqual([]);

    const refused: string[] = [];
    const problems: string[] = [];
    for (const [typeName, f] of fields.filter(([t, fl]) => !PAGED_BY_PARENT.has(`${t}.${fl.name}`))) {
      const path = typeName === 'Query' ? { open: '', close: '' } : pathTo(schema, typeName, ids);
      const args = argList(f, ids, [`first: ${MAX_PAGE_SIZE * 10}`]);
      if (!path || args === undefined) continue;
      const res = await s.gql(`{ ${path.open} ${f.name}${args} { totalCount } ${path.close} }`, {}, token);
      const codes = (res.body.errors ?? []).map((e: any) => e.extensions?.code);
      if (codes.includes('BAD_USER_INPUT')) refused.push(`${typeName}.${f.name}`);
      // Accepted: the connection answered a page of 1000 (parents that resolve to null are not reached).
      else if (JSON.stringify(res.body.data ?? {}).includes('"totalCount"')) problems.push(`${typeName}.${f.name}`);
    }
    // Every root connection is reachable generically; nested ones where a parent path exists.
    const rootConnections = fields.filter(([t]) => t === 'Query').map(([t, f]) => `${t}.${f.name}`);
    expect(refused).toEqual(expect.arrayContaining(rootConnections));
    expect(problems).toEqual([]);
    expect(refused.length).toBeGreaterThan(rootConnections.length); // some nested ones too (User.followers …)
    // And within the limit, first: 100 passes the page-size check on every root connection.
    for (const [, f] of fields.filter(([t]) => t === 'Query')) {
      const res = await s.gql(`{ ${f.name}${argList(f, ids, [`first: ${MAX_PAGE_SIZE}`])} { totalCount } }`, {}, token);
      const messages = (res.body.errors ?? []).map((e: any) => e.message).join(' ');
      expect(messages).not.toMatch(/first must be between/);
    }
  });

  it('supports automatic persisted queries: PersistedQueryNotFound, then register, then hash only', async () => {
    const query = '{ serverInfo { name } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const ext = { persistedQuery: { version: 1, sha256Hash } };
    const post = (body: unknown) =>
      fetch(`${s.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const miss = await post({ extensions: ext });
    expect(miss.body.errors[0]).toMatchObject({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
    expect(await post({ query, extensions: ext })).toMatchObject({
      status: 200,
      body: { data: { serverInfo: { name: 'bpigraph' } } },
    });
    expect(await post({ extensions: ext })).toMatchObject({
      status: 200,
      body: { data: { serverInfo: { name: 'bpigraph' } } },
    });
    // GET with the hash only (what CDNs cache).
    const get = await fetch(`${s.url}/graphql?extensions=${encodeURIComponent(JSON.stringify(ext))}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(await get.json()).toEqual({ data: { serverInfo: { name: 'bpigraph' } } });
    // A wrong hash for a query is refused, not stored.
    // (Apollo's 'provided sha does not match query' carries no extensions.code, so formatError masks its message.)
    const bad = await post({ query, extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toBeUndefined();
    expect(await post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } })).toMatchObject({
      body: { errors: [{ extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] },
    });
  });
});

describe('rate limits (3 writes, 2 expensive reads per minute) and production switches (introspection, explorer off)', () => {
  let s: TestServer;
  let ids: Ids;
  beforeAll(async () => {
    s = await startTestServer({
      env: {
        GRAPHQL_INTROSPECTION: 'false',
        GRAPHQL_EXPLORER: 'false',
        GRAPHQL_EXPENSIVE_COMPLEXITY: '300',
        RATE_LIMIT_WRITES_PER_MINUTE: '3',
        RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '2',
      },
    });
    const user = await aPublicPlayer(s.db.prisma);
    ids = { userId: user.id, chartId: '0', songId: '0' };
  });
  afterAll(() => s.close());

  it('rate-limits mutations per viewer: RATE_LIMITED with retryAfter and HTTP 429 + Retry-After', async () => {
    const other = await aPublicPlayer(s.db.prisma);
    const t = await s.tokenFor(other.id);
    const m = 'mutation { deleteSongNote(id: "0") { __typename } }';
    const codes: string[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${s.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t}` },
        body: JSON.stringify({ query: m }),
      });
      const body = await res.json();
      codes.push(body.errors?.[0]?.extensions?.code ?? 'OK');
      if (i === 3) limited = res;
      if (i === 3) {
        expect(body.errors[0]).toMatchObject({
          message: 'Too Many Requests',
          extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) },
        });
      }
    }
    expect(codes.slice(0, 3)).not.toContain('RATE_LIMITED');
    expect(limited!.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Reads are not writes: a cheap query still passes for the same viewer.
    expectNoErrors(await s.gql('{ serverInfo { name } }', {}, t));
  });

  it('rate-limits expensive REST reads with 429, Retry-After and a JSON {message}', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestServer['get']>> | undefined;
    for (let i = 0; i < 3; i++) {
      last = await s.get(`/api/v1/users/${ids.userId}/profile`);
      statuses.push(last.status);
    }
    expect(statuses[0]).not.toBe(429);
    expect(statuses[2]).toBe(429);
    expect(last!.body).toEqual({ message: 'Too Many Requests' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The cheap calculator path is not limited.
    const calc = await s.get('/api/v1/bpi/calc?title=x&difficulty=ANOTHER&exScore=1');
    expect(calc.status).not.toBe(429);
  });

  it('rate-limits expensive GraphQL reads (complexity ≥ GRAPHQL_EXPENSIVE_COMPLEXITY)', async () => {
    const q = '{ songs(first: 50) { edges { node { id title artist genre charts { id: databaseId } } } } }'; // ≈ 50 × 7
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) codes.push((await s.gql(q)).body.errors?.[0]?.extensions?.code ?? 'OK');
    expect(codes).toEqual(['OK', 'OK', 'RATE_LIMITED']);
    expectNoErrors(await s.gql('{ songs(first: 2) { edges { node { id } } } }'));
  });

  it('refuses introspection but serves ordinary queries', async () => {
    const res = await s.gql('{ __schema { queryType { name } } }');
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(res.body.errors![0].message).toMatch(/introspection/i);
    expect((await s.gql('{ __type(name: "Query") { name } }')).body.errors![0].extensions.code).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
    expectNoErrors(await s.gql('{ serverInfo { name } }'));
  });

  it('does not serve the explorer page', async () => {
    const res = await fetch(`${s.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'The explorer is disabled' });
    // a GET query from a browser-like Accept is still answered by GraphQL
    const query = await fetch(`${s.url}/graphql?query=${encodeURIComponent('{ serverInfo { name } }')}`, {
      headers: { accept: 'text/html, application/json', 'apollo-require-preflight': 'true' },
    });
    expect(query.status).toBe(200);
    expect(await query.json()).toEqual({ data: { serverInfo: { name: 'bpigraph' } } });
  });
});
