/**
 * The MCP endpoint (POST /mcp, src/rest/mcp.ts) driven by the SDK's own client over real HTTP:
 * the tool list, each tool's answer on a small catalogue worked out by hand, and the refusals
 * (no token, a read-only token writing, another player's private data). PGlite and PostgreSQL.
 *
 * Catalogue (SP, coef 1, so BPI = 100·ln(S)/ln(Z) with S = pgf(ex)/pgf(k), Z = pgf(wr)/pgf(k),
 * pgf(x) = 1 + (x/m − 0.5)/(1 − x/m), m = 2·notes):
 *   Alpha   ANOTHER ☆12  notes 1000  WR 1900 kaiden 1600
 *   Beta    ANOTHER ☆12  notes 1000  WR 1900 kaiden 1600
 *   Gamma   HYPER   ☆11  notes  900  WR 1700 kaiden 1500
 *   Delta   LEGG.   ☆12  notes 1000  WR 1900 kaiden 1600
 *   Epsilon ANOTHER ☆12  notes 1000  WR 1900 kaiden 1600
 * On the ☆12 charts: pgf(1600) = 1 + 0.3/0.2 = 2.5, pgf(1900) = 1 + 0.45/0.05 = 10 → Z = 4.
 *   EX 1900 → BPI 100; EX 1600 → 0; EX 1800: pgf = 1 + 0.4/0.1 = 5, S = 2 → 100·ln2/ln4 = 50;
 *   EX 1700: pgf = 1 + 0.35/0.15 = 10/3, S = 4/3 → 100·0.287682/1.386294 = 20.75.
 * Gamma: EX 1500 = its kaiden average → BPI 0.
 *
 * Players (version 33):
 *   P  public   mcp_p  Alpha 1900 (100), Beta 1600 (0), Gamma 1500 (0); status total 48.86
 *   Q  private  mcp_q  Alpha 1700 — P's follow of Q is not approved (P may not see Q)
 *   R  public   mcp_r  Alpha 1800 (50), Beta 1900
 *   S  private  mcp_s  Alpha 1700 (20.75) — P's follow of S is approved (P may see S)
 * P follows R (2026-01-01), S (2026-01-02), Q (2026-01-03).
 * P's total: the set is the SP ☆12 charts with a definition (Alpha, Beta, Delta, Epsilon), N = 4,
 * k = log2 4 = 2, unplayed = −15: s = (100² + 0² − 15² − 15²)/4 = 9550/4 = 2387.5, √ = 48.86.
 */
import { discoverOAuthProtectedResourceMetadata, selectResourceURL } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { importDefinitions } from '../../../src/db/definitions';
import type { User } from '../../../src/generated/prisma/client';
import { MASKED_USER_NAME } from '../../../src/domain/profile';
import type { DomainEvents } from '../../../src/events';
import { aPrivatePlayer, aPublicPlayer, aScoreImport, aVersionStatus, follows } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';
import { pkceChallenge } from '../../../src/modules/auth/secrets';
import { MemoryStore, RateLimiter } from '../../../src/ratelimit';

let s: TestServer;
const u = {} as Record<'p' | 'q' | 'r' | 's', User>;
const tokens = {} as Record<'p' | 'pRead', string>;
const imported: DomainEvents['scores.imported'][] = [];
const ids: Record<string, number> = {};

const def = (title: string, difficulty: string, level: number, notes: number, wr: number, avg: number) => ({
  title,
  difficulty,
  wr,
  avg,
  notes,
  bpm: '150',
  textage: `20/${title}.html`,
  difficultyLevel: String(level),
  dpLevel: '0',
  coef: 1,
});

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const db = s.db.prisma;
  await importDefinitions(db, {
    version: 'mcp-test',
    requireVersion: '0',
    body: [
      def('Alpha', '4', 12, 1000, 1900, 1600),
      def('Beta', '4', 12, 1000, 1900, 1600),
      def('Gamma', '3', 11, 900, 1700, 1500),
      def('Delta', '10', 12, 1000, 1900, 1600),
      def('Epsilon', '4', 12, 1000, 1900, 1600),
    ],
  });
  for (const c of await db.chart.findMany({ include: { song: true } })) ids[c.song.title] = c.id;
  await s.app.catalogue.load();
  u.p = await aPublicPlayer(db, { name: 'mcp_p' });
  u.q = await aPrivatePlayer(db, { name: 'mcp_q' });
  u.r = await aPublicPlayer(db, { name: 'mcp_r' });
  u.s = await aPrivatePlayer(db, { name: 'mcp_s' });
  await aScoreImport(db, u.p, [
    { chartId: ids.Alpha, exScore: 1900 },
    { chartId: ids.Beta, exScore: 1600 },
    { chartId: ids.Gamma, exScore: 1500 },
  ]);
  await aVersionStatus(db, u.p, '33', { totalBpi: 48.86 });
  await aScoreImport(db, u.q, [{ chartId: ids.Alpha, exScore: 1700 }]);
  await aScoreImport(db, u.r, [
    { chartId: ids.Alpha, exScore: 1800 },
    { chartId: ids.Beta, exScore: 1900 },
  ]);
  await aScoreImport(db, u.s, [{ chartId: ids.Alpha, exScore: 1700 }]);
  const day = (d: number) => new Date(`2026-01-0${d}T00:00:00Z`);
  for (const [who, d, approved] of [
    [u.r, 1, false],
    [u.s, 2, true],
    [u.q, 3, false],
  ] as const) {
    await follows(db, u.p, who, { approved });
    await db.follow.update({
      where: { followerId_followingId: { followerId: u.p.id, followingId: who.id } },
      data: { createdAt: day(d) },
    });
  }
  s.app.events.on('scores.imported', (e) => void imported.push(e));
  tokens.p = await s.tokenFor(u.p.id);
  tokens.pRead = await oauthReadToken(tokens.p);
}, 120_000);

afterAll(async () => s?.close());

/** A third-party app's OAuth access token with the read scope only (registration, consent by P, code + PKCE exchange). */
async function oauthReadToken(userToken: string): Promise<string> {
  const redirect = 'https://mcp-client.example/cb';
  const json = async (path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    (
      await fetch(`${s.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    ).json();
  const { client_id } = await json('/api/oauth/register', {
    redirect_uris: [redirect],
    client_name: 'MCP test client',
  });
  const verifier = 'v'.repeat(43);
  const consent = await json(
    '/api/oauth/authorize/consent',
    {
      client_id,
      redirect_uri: redirect,
      code_challenge: pkceChallenge(verifier),
      code_challenge_method: 'S256',
      scope: 'read',
      state: 's',
      approve: true,
    },
    { authorization: `Bearer ${userToken}` },
  );
  const code = new URL(consent.redirectUrl).searchParams.get('code');
  const token = await json('/api/oauth/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirect,
    client_id,
    code_verifier: verifier,
  });
  expect(token.scope).toBe('read');
  expect(token.access_token).toMatch(/^bpat_/);
  return token.access_token;
}

/** An SDK client connected to /mcp with a bearer token. */
async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'bpigraph-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** Calls a tool; fails with the whole result when it is an error. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) throw new Error(`${name} failed: ${JSON.stringify(res)}`);
  expect(JSON.parse((res.content as { type: string; text: string }[])[0].text)).toEqual(res.structuredContent);
  return res.structuredContent;
}

/** Calls a tool that must fail; returns the error text and code. */
async function refused(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; code: unknown }> {
  const res = await client.callTool({ name, arguments: args });
  expect(res.isError).toBe(true);
  expect(res.structuredContent).toBeUndefined();
  return { text: (res.content as { text: string }[])[0].text, code: res._meta?.code };
}

describe('POST /mcp: authentication', () => {
  it('without a token: 401 with WWW-Authenticate naming the protected-resource metadata of /mcp', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBeTruthy(); // mounted like the REST routes: request ids, metrics
    // No PUBLIC_URL (development): the metadata names the loopback host the client used (s.url is http://127.0.0.1:<port>).
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    const meta = await s.get('/.well-known/oauth-protected-resource/mcp');
    expect(meta.body).toMatchObject({
      resource: `${s.url}/mcp`,
      authorization_servers: [s.url],
      scopes_supported: ['read', 'write'],
    });
  });

  it("discovery from 127.0.0.1 and from localhost passes the SDK's resource check (selectResourceURL)", async () => {
    const port = new URL(s.url).port;
    const provider = {} as Parameters<typeof selectResourceURL>[1]; // no validateResourceURL: the SDK's own check
    for (const host of ['127.0.0.1', 'localhost']) {
      const server = `http://${host}:${port}/mcp`;
      const meta = await discoverOAuthProtectedResourceMetadata(server);
      expect(meta.resource).toBe(server);
      expect(meta.authorization_servers).toEqual([`http://${host}:${port}`]);
      expect(String(await selectResourceURL(server, provider, meta))).toBe(server);
    }
  });

  it('with a bad token: 401 invalid_token; the SDK client fails to connect', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer not-a-token',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", error="invalid_token"/,
    );
    await expect(connect('not-a-token')).rejects.toThrow();
  });

  it('GET /mcp answers the information page (JSON, or HTML for a browser); GET for an event stream is 405', async () => {
    const info = await s.get('/mcp');
    expect(info.status).toBe(200);
    expect(info.body.url).toBe(`${s.url}/mcp`);
    expect(info.body.tools.map((t: { name: string }) => t.name)).toContain('my_dashboard');
    const html = await fetch(`${s.url}/mcp`, { headers: { accept: 'text/html' } });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await html.text()).toContain('<code>update_my_score</code>');
    const sse = await fetch(`${s.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(sse.status).toBe(405);
    expect((await fetch(`${s.url}/mcp`, { method: 'DELETE' })).status).toBe(405); // stateless: no session to end
    const metrics = (await s.get('/metrics')).body as string;
    expect(metrics).toMatch(/bpigraph_requests_total\{kind="rest",route="\/mcp",operation="",status="401"\} [1-9]/);
  });
});

describe('tools (hand-worked values)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(tokens.p);
  });
  afterAll(async () => client?.close());

  it('lists the tools, each with a JSON-schema input and output', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'chart_rivals',
      'my_dashboard',
      'my_follows',
      'my_scores',
      'search_songs',
      'search_users',
      'update_my_score',
      'user_scores',
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
    }
    const scores = tools.find((t) => t.name === 'my_scores')!;
    expect(Object.keys(scores.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['version', 'levels', 'difficulties', 'clearLamps', 'sort', 'order', 'first', 'after']),
    );
  });

  it('my_dashboard: total 48.86 (see the header), rank ceil(2699^0.5114) = ceil(56.8) = 57, 2 of 4 played; BPIs 100, 0, 0; ranks MAX-, AA, AA', async () => {
    // estimated rank: 2699^((100 − 48.86)/100) = e^(7.90064 · 0.5114) = e^4.04039 = 56.83 → 57
    // DJ ranks: 1900/2000 = 0.95 ≥ 17/18 → MAX-; 1600/2000 = 0.8 and 1500/1800 = 0.833: ≥ 7/9, < 8/9 → AA
    const d = await call(client, 'my_dashboard');
    expect(d).toMatchObject({
      userId: u.p.id,
      name: 'mcp_p',
      version: '33',
      totalBpi: 48.86,
      estimatedRank: 57,
      playedCount: 2,
      chartCount: 4,
    });
    expect(d.bpiDistribution.total).toBe(3);
    expect(d.bpiDistribution.buckets.filter((b: { count: number }) => b.count > 0)).toEqual([
      { label: '0', count: 2 },
      { label: '100+', count: 1 },
    ]);
    expect(d.djRankDistribution.buckets.filter((b: { count: number }) => b.count > 0)).toEqual([
      { label: 'AA', count: 2 },
      { label: 'MAX-', count: 1 },
    ]);
  });

  it('my_scores: the GraphQL filters, sort and paging (level ☆12 by BPI desc, pages of 1)', async () => {
    const page1 = await call(client, 'my_scores', { levels: [12], sort: 'BPI', order: 'DESC', first: 1 });
    expect(page1).toMatchObject({ userId: u.p.id, version: '33', totalCount: 2, hasNextPage: true });
    expect(page1.scores).toEqual([
      expect.objectContaining({
        chartId: ids.Alpha,
        title: 'Alpha',
        playStyle: 'SP',
        difficulty: 'ANOTHER',
        level: 12,
        notes: 1000,
        exScore: 1900,
        bpi: 100,
      }),
    ]);
    const page2 = await call(client, 'my_scores', {
      levels: [12],
      sort: 'BPI',
      order: 'DESC',
      first: 1,
      after: page1.endCursor,
    });
    expect(page2.scores.map((x: { title: string; bpi: number }) => [x.title, x.bpi])).toEqual([['Beta', 0]]);
    expect(page2.hasNextPage).toBe(false);
    const all = await call(client, 'my_scores', {});
    expect(all.scores.map((x: { title: string }) => x.title)).toEqual(['Alpha', 'Beta', 'Gamma']); // level desc, then title
  });

  it('my_scores: bad input is refused naming the argument (schema and the args parser)', async () => {
    const schema = await refused(client, 'my_scores', { first: 0 });
    expect(schema.text).toMatch(/first/);
    const parser = await refused(client, 'my_scores', { version: '99' });
    expect(parser.code).toBe('BAD_USER_INPUT');
    expect(parser.text).toMatch(/version/);
  });

  it('user_scores: a public player by name, a private one who approved the follow by id', async () => {
    const r = await call(client, 'user_scores', { name: 'mcp_r' });
    expect(r.scores.map((x: { title: string; exScore: number; bpi: number }) => [x.title, x.exScore, x.bpi])).toEqual([
      ['Alpha', 1800, 50],
      ['Beta', 1900, 100],
    ]);
    const sp = await call(client, 'user_scores', { userId: u.s.id });
    expect(sp.scores.map((x: { title: string; exScore: number; bpi: number }) => [x.title, x.exScore, x.bpi])).toEqual([
      ['Alpha', 1700, 20.75],
    ]);
  });

  it("user_scores: another player's private data is refused (FORBIDDEN), an unknown player NOT_FOUND", async () => {
    const q = await refused(client, 'user_scores', { name: 'mcp_q' });
    expect(q).toEqual({ code: 'FORBIDDEN', text: 'FORBIDDEN: This profile is set as a private.' });
    expect((await refused(client, 'user_scores', { userId: u.q.id })).code).toBe('FORBIDDEN');
    expect((await refused(client, 'user_scores', { userId: 'no-such-user' })).code).toBe('NOT_FOUND');
    expect((await refused(client, 'user_scores', {})).code).toBe('BAD_USER_INPUT');
  });

  it('my_follows: newest first; Q (private, not approved) masked; followers of P: none', async () => {
    const f = await call(client, 'my_follows');
    expect(f).toMatchObject({ direction: 'following', totalCount: 3, hasNextPage: false });
    expect(f.users).toEqual([
      { userId: null, name: MASKED_USER_NAME, isPublic: false, masked: true, followedAt: '2026-01-03T00:00:00.000Z' },
      { userId: u.s.id, name: 'mcp_s', isPublic: false, masked: false, followedAt: '2026-01-02T00:00:00.000Z' },
      { userId: u.r.id, name: 'mcp_r', isPublic: true, masked: false, followedAt: '2026-01-01T00:00:00.000Z' },
    ]);
    const page = await call(client, 'my_follows', { first: 2 });
    expect(page.hasNextPage).toBe(true);
    expect(
      (await call(client, 'my_follows', { first: 2, after: page.endCursor })).users.map(
        (x: { name: string }) => x.name,
      ),
    ).toEqual(['mcp_r']);
    expect(await call(client, 'my_follows', { direction: 'followers' })).toMatchObject({ totalCount: 0, users: [] });
  });

  it('chart_rivals on Alpha: R 1800 (BPI 50, −100), S 1700 (20.75, −200); Q hidden; me 1900 (100)', async () => {
    const r = await call(client, 'chart_rivals', { chartId: ids.Alpha });
    expect(r.chart).toEqual({
      chartId: ids.Alpha,
      title: 'Alpha',
      playStyle: 'SP',
      difficulty: 'ANOTHER',
      level: 12,
      notes: 1000,
    });
    expect(r.me).toEqual({ exScore: 1900, bpi: 100, clearLamp: null });
    expect(r.rivals.map((x: any) => [x.name, x.exScore, x.bpi, x.exDiff])).toEqual([
      ['mcp_r', 1800, 50, -100],
      ['mcp_s', 1700, 20.75, -200],
    ]);
    expect((await refused(client, 'chart_rivals', { chartId: 999999 })).code).toBe('NOT_FOUND');
  });

  it('search_songs: "ta" → Beta, Delta (by title) with their charts and definitions', async () => {
    const r = await call(client, 'search_songs', { title: 'ta' });
    expect(r.totalCount).toBe(2);
    expect(r.songs).toEqual([
      {
        songId: expect.any(Number),
        title: 'Beta',
        charts: [
          {
            chartId: ids.Beta,
            playStyle: 'SP',
            difficulty: 'ANOTHER',
            level: 12,
            notes: 1000,
            worldRecord: 1900,
            kaidenAverage: 1600,
          },
        ],
      },
      {
        songId: expect.any(Number),
        title: 'Delta',
        charts: [
          {
            chartId: ids.Delta,
            playStyle: 'SP',
            difficulty: 'LEGGENDARIA',
            level: 12,
            notes: 1000,
            worldRecord: 1900,
            kaidenAverage: 1600,
          },
        ],
      },
    ]);
    expect((await call(client, 'search_songs', { level: 11 })).songs.map((x: { title: string }) => x.title)).toEqual([
      'Gamma',
    ]);
    expect((await refused(client, 'search_songs', { level: 13 })).code).toBe('BAD_USER_INPUT');
  });

  it('an unknown argument is refused naming it (strict schemas): search_songs { titel } does not list every song', async () => {
    const res = await client.callTool({ name: 'search_songs', arguments: { titel: 'ta' } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toBeUndefined();
    expect((res.content as { text: string }[])[0].text).toMatch(/titel/);
    const { tools } = await client.listTools();
    for (const t of tools) expect([t.name, t.inputSchema.additionalProperties]).toEqual([t.name, false]);
  });

  it('search_users: "MCP_" → mcp_p, mcp_r, mcp_s (Q is private and did not approve P)', async () => {
    const r = await call(client, 'search_users', { prefix: 'MCP_' });
    expect(r.users).toEqual([
      { userId: u.p.id, name: 'mcp_p', isPublic: true },
      { userId: u.r.id, name: 'mcp_r', isPublic: true },
      { userId: u.s.id, name: 'mcp_s', isPublic: false },
    ]);
    // issue #33 item 5: a substring of the name ("CP_" is inside every mcp_ name) finds the same three
    const sub = await call(client, 'search_users', { search: 'CP_' });
    expect(sub.users.map((x: any) => x.name)).toEqual(['mcp_p', 'mcp_r', 'mcp_s']);
  });
});

describe('update_my_score: the import path (batch, totals, events)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(tokens.p);
  });
  afterAll(async () => client?.close());

  it('an OAuth token with the read scope only is refused (FORBIDDEN, the write scope), nothing written', async () => {
    const ro = await connect(tokens.pRead);
    try {
      expect(await refused(ro, 'update_my_score', { chartId: ids.Epsilon, exScore: 1800 })).toEqual({
        code: 'FORBIDDEN',
        text: "FORBIDDEN: This token lacks the 'write' scope",
      });
      expect((await call(ro, 'my_dashboard')).totalBpi).toBe(48.86); // reads are allowed
    } finally {
      await ro.close();
    }
    expect(await s.db.prisma.bestScore.count({ where: { userId: u.p.id, chartId: ids.Epsilon } })).toBe(0);
  });

  it('EX 1800 on Epsilon: one batch; total (100² + 0 − 15² + 50²)/4 = 12275/4 = 3068.75, √ = 55.40; the scores.imported event', async () => {
    const batches = await s.db.prisma.importBatch.count({ where: { userId: u.p.id } });
    const r = await call(client, 'update_my_score', { chartId: ids.Epsilon, exScore: 1800 });
    expect(r).toMatchObject({
      chartId: ids.Epsilon,
      title: 'Epsilon',
      version: '33',
      updated: true,
      previousTotalBpi: 48.86,
      newTotalBpi: 55.4,
      best: { exScore: 1800, bpi: 50, clearLamp: null, missCount: null },
    });
    expect(await s.db.prisma.importBatch.count({ where: { userId: u.p.id } })).toBe(batches + 1);
    const batch = await s.db.prisma.importBatch.findUniqueOrThrow({ where: { id: r.batchId } });
    expect(batch).toMatchObject({ source: 'ROWS', rowCount: 1, updatedCount: 1 });
    expect(
      (
        await s.db.prisma.playerVersionStatus.findUniqueOrThrow({
          where: { userId_version: { userId: u.p.id, version: '33' } },
        })
      ).totalBpi,
    ).toBe(55.4);
    // no best on Epsilon before (−1), 1800 after: one EX step
    expect(imported).toContainEqual({
      userId: u.p.id,
      version: '33',
      batchId: r.batchId,
      chartIds: [ids.Epsilon],
      exSteps: [{ chartId: ids.Epsilon, before: -1, after: 1800 }],
    });
    expect((await call(client, 'my_dashboard')).totalBpi).toBe(55.4);
  });

  it('a lamp alone keeps the best EX (1800) and raises the lamp; the same again changes nothing', async () => {
    const r = await call(client, 'update_my_score', { chartId: ids.Epsilon, clearLamp: 'HARD_CLEAR' });
    expect(r).toMatchObject({
      updated: true,
      previousTotalBpi: 55.4,
      newTotalBpi: 55.4,
      best: { exScore: 1800, bpi: 50, clearLamp: 'HARD_CLEAR' },
    });
    const again = await call(client, 'update_my_score', { chartId: ids.Epsilon, clearLamp: 'HARD_CLEAR' });
    expect(again).toMatchObject({ updated: false, batchId: null, best: { exScore: 1800, clearLamp: 'HARD_CLEAR' } });
    const mine = await call(client, 'my_scores', { clearLamps: ['HARD_CLEAR'] });
    expect(mine.scores.map((x: any) => [x.title, x.exScore, x.clearLamp])).toEqual([['Epsilon', 1800, 'HARD_CLEAR']]);
  });

  it('bad input is refused naming the argument, nothing written', async () => {
    const before = await s.db.prisma.score.count({ where: { userId: u.p.id } });
    const over = await refused(client, 'update_my_score', { chartId: ids.Delta, exScore: 2001 }); // max 2 × 1000 = 2000
    expect(over.code).toBe('BAD_USER_INPUT');
    expect(over.text).toMatch(/exScore/);
    expect((await refused(client, 'update_my_score', { chartId: ids.Delta })).text).toMatch(/exScore/);
    expect((await refused(client, 'update_my_score', { chartId: ids.Delta, clearLamp: 'CLEAR' })).text).toMatch(
      /exScore is required/,
    ); // no score on Delta yet
    expect((await refused(client, 'update_my_score', { chartId: ids.Delta, clearLamp: 'PERFECT' })).text).toMatch(
      /clearLamp/,
    );
    expect((await refused(client, 'update_my_score', { chartId: 999999, exScore: 1 })).code).toBe('NOT_FOUND');
    expect(await s.db.prisma.score.count({ where: { userId: u.p.id } })).toBe(before);
  });
});

describe('rate limits: a read tool is one expensive read, the update one write (GraphQL buckets)', () => {
  it('with 2 expensive reads a minute: the third read call is RATE_LIMITED with retryAfter; tools/list is not counted', async () => {
    const { config } = s.app;
    const saved = {
      limiter: s.app.rateLimiter,
      reads: config.limits.expensiveReadsPerMinute,
      writes: config.limits.writesPerMinute,
    };
    s.app.rateLimiter = new RateLimiter(new MemoryStore());
    Object.assign(config.limits, { expensiveReadsPerMinute: 2, writesPerMinute: 1 });
    const client = await connect(tokens.p);
    try {
      await client.listTools();
      await call(client, 'search_users', { prefix: 'mcp' });
      await call(client, 'my_follows');
      const third = await client.callTool({ name: 'my_dashboard', arguments: {} });
      expect(third.isError).toBe(true);
      expect(third._meta).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
      // writes have their own bucket: one allowed, the second refused
      await call(client, 'update_my_score', { chartId: ids.Epsilon, exScore: 1850 });
      expect((await refused(client, 'update_my_score', { chartId: ids.Epsilon, exScore: 1860 })).code).toBe(
        'RATE_LIMITED',
      );
    } finally {
      await client.close();
      s.app.rateLimiter = saved.limiter;
      Object.assign(config.limits, { expensiveReadsPerMinute: saved.reads, writesPerMinute: saved.writes });
    }
  });
});
