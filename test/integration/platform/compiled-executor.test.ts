/**
 * The compiled executor (src/graphql/executor.ts) answers POST /graphql exactly as Apollo does.
 * Two HTTP servers over the same app and database — one with the executor, one Apollo only —
 * get the same requests; status, content type, Retry-After and the body bytes must be equal, and
 * the executor must have answered the hot cases itself (not handed everything to Apollo).
 */
import { createHttpServer, type HttpServer } from '../../../src/http';
import type { User } from '../../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, follows, withBestScore } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let apolloOnly: HttpServer;
let apolloUrl: string;
let owner: User;
let hidden: User;
let ownerToken: string;
let chartId: number;

const CALC = `query($t: String!, $d: Difficulty!, $e: Int!) { bpiCalc(title: $t, difficulty: $d, exScore: $e) {
  song { title difficulty difficultyLevel notes } bpi rank { estimatedRank bpimRank bpimTotal }
  metadata { version arenaAverages { arenaClass avgExScore rate count avgBpi } } } }`;

interface Answer {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: string;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    retryAfter: res.headers.get('retry-after'),
    body: await res.text(),
  };
}

/** Sends the same request to both servers; returns the compiled server's answer after checking they are equal. */
async function both(body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const compiled = await post(server.url, body, headers);
  const apollo = await post(apolloUrl, body, headers);
  expect(compiled).toEqual(apollo);
  return compiled;
}

const stats = () => ({ ...server.executor!.stats });

beforeAll(async () => {
  server = await startTestServer();
  // The same app (database, catalogue, auth, rate limiter) behind a second HTTP server without the executor.
  apolloOnly = await createHttpServer({ ...server.app, config: { ...server.app.config, compiledExecutor: false } });
  await apolloOnly.fastify.listen({ port: 0, host: '127.0.0.1' });
  apolloUrl = `http://127.0.0.1:${(apolloOnly.fastify.server.address() as { port: number }).port}`;
  expect(apolloOnly.executor).toBeNull();

  const db = server.db.prisma;
  owner = await aPublicPlayer(db, { name: 'exec_owner' });
  hidden = await aPrivatePlayer(db, { name: 'exec_hidden' });
  const fan = await aPublicPlayer(db, { name: 'exec_fan' });
  await follows(db, fan, owner);
  await follows(db, hidden, owner);
  const chart = await db.chart.findFirstOrThrow({ where: { level: 12, playStyle: 'SP' }, orderBy: { id: 'asc' } });
  chartId = chart.id;
  await withBestScore(db, owner, chartId, 1500);
  await withBestScore(db, fan, chartId, 1200);
  ownerToken = await server.tokenFor(owner.id);
}, 60_000);

afterAll(async () => {
  await apolloOnly.fastify.close();
  await server?.close();
});

describe('compiled executor vs Apollo', () => {
  it('answers a calculator query itself, byte for byte like Apollo', async () => {
    const chart = server.app.catalogue.chart(chartId)!;
    const before = stats();
    const a = await both({ query: CALC, variables: { t: chart.title, d: chart.difficulty, e: 1500 } });
    expect(a.status).toBe(200);
    expect(a.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(a.body).data.bpiCalc.song.title).toBe(chart.title);
    expect(a.body.endsWith('}\n')).toBe(true);
    expect(stats().compiled).toBe(before.compiled + 1);
  });

  it('maps resolver errors through the one formatError (NOT_FOUND, BAD_USER_INPUT), with data null', async () => {
    const chart = server.app.catalogue.chart(chartId)!;
    const notFound = await both({ query: CALC, variables: { t: 'no such song', d: 'ANOTHER', e: 1 } });
    expect(JSON.parse(notFound.body)).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'NOT_FOUND' }, path: ['bpiCalc'] }],
    });
    const over = await both({
      query: CALC,
      variables: { t: chart.title, d: chart.difficulty, e: chart.notes * 2 + 1 },
    });
    expect(JSON.parse(over.body)).toMatchObject({ errors: [{ extensions: { code: 'BAD_USER_INPUT' } }] });
  });

  it('reads nested users with masks and rules applied the same way (anonymous and signed in)', async () => {
    const q = `query($id: ID!) { user(id: $id) { name followers(first: 10) { totalCount edges { node { name isMasked stats { version totalBpi } } } } } }`;
    const before = stats();
    const anon = await both({ query: q, variables: { id: owner.id } });
    const names = JSON.parse(anon.body).data.user.followers.edges.map((e: { node: { name: string } }) => e.node.name);
    expect(names).toContain('exec_fan');
    expect(names).not.toContain('exec_hidden'); // a private follower is masked for strangers
    await both({ query: q, variables: { id: owner.id } }, { authorization: `Bearer ${ownerToken}` });
    const forbidden = await both({ query: q, variables: { id: hidden.id } });
    expect(JSON.parse(forbidden.body).errors[0].extensions.code).toBe('FORBIDDEN');
    expect(stats().compiled).toBe(before.compiled + 3);
  });

  it('runs mutations (same payload, same rules)', async () => {
    const m = `mutation($text: String) { updateProfile(input: { profileText: $text }) { __typename } }`;
    const unauth = await both({ query: m, variables: { text: 'x' } });
    expect(JSON.parse(unauth.body).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('treats string literals in the document as data (quotes, backticks, ${…}, newlines)', async () => {
    const title = 'x\\"`${process.exit(1)}`\\n\\u0027);globalThis.pwned=1;//';
    const q = `{ bpiCalc(title: "${title}", difficulty: ANOTHER, exScore: 1) { bpi } nameAvailability(name: "${title}") { available } }`;
    const before = stats();
    const a = await both({ query: q });
    expect(stats().compiled).toBe(before.compiled + 1);
    expect(JSON.parse(a.body).errors[0].extensions.code).toBe('NOT_FOUND');
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
  });

  it('refuses over-limit operations before execution with the gate’s status', async () => {
    const deep = `query($id: ID!) { user(id: $id) { followers { edges { node { followers { edges { node { followers { edges { node { followers { edges { node { name } } } } } } } } } } } } } }`;
    const before = stats();
    const a = await both({ query: deep, variables: { id: owner.id } });
    expect(a.status).toBe(400);
    expect(JSON.parse(a.body)).toMatchObject({
      errors: [{ extensions: { code: 'BAD_USER_INPUT', issues: [{ code: 'max_depth' }] } }],
    });
    expect(JSON.parse(a.body)).not.toHaveProperty('data');
    expect(stats().compiled).toBe(before.compiled + 1);
    const nul = await both({ query: CALC, variables: { t: 'a\u0000b', d: 'ANOTHER', e: 1 } });
    expect(nul.status).toBe(400);
  });

  it('hands Apollo what it must answer: bad variables, parse and validation errors, introspection, bad tokens, APQ, other Accept headers', async () => {
    const before = stats();
    const badVar = await both({ query: CALC, variables: { t: 'x', d: 'ANOTHER', e: 'many' } });
    expect(badVar.status).toBe(400);
    expect((await both({ query: '{ bpiCalc(' })).status).toBe(400);
    expect((await both({ query: '{ noSuchField }' })).status).toBe(400);
    expect((await both({ query: '{ __schema { queryType { name } } }' })).status).toBe(200);
    expect((await both({ query: '{ me { id: databaseId } }' }, { authorization: 'Bearer not-a-token' })).status).toBe(
      401,
    );
    expect(
      (
        await both({
          query: '{ serverInfo { name } }',
          extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } },
        })
      ).status,
    ).toBe(400);
    const graphqlResponse = await both(
      { query: '{ serverInfo { name } }' },
      { accept: 'application/graphql-response+json' },
    );
    expect(graphqlResponse.contentType).toContain('application/graphql-response+json');
    expect(stats().apollo).toBe(before.apollo + 7);
    expect(stats().compiled).toBe(before.compiled);
  });

  it('answers a document seen before from its cache', async () => {
    const q = '{ serverInfo { name } }';
    await both({ query: q });
    const before = stats();
    await both({ query: q });
    expect(stats().compiled).toBe(before.compiled + 1);
  });
});
