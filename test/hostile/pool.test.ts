/**
 * Issue #27: no request holds the event loop. Each request of the issue is sent while /healthz is
 * probed (HEALTHZ_BOUND_MS = 200 ms for every one of them): plans are capped per request and run
 * in the worker pool, heavy fields count against the caller's CPU budget, MCP batches are refused,
 * a daily history over decades is aggregated.
 */
import { OFFICIAL_HEADER } from '../../src/domain/csv/official-writer';
import { aPublicPlayer } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { codeOf, HEALTHZ_BOUND_MS, POLL_EVERY_MS, post, underAttack, warmUp } from './hostile';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    env: {
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
      CPU_BUDGET_ANONYMOUS_PER_MINUTE: '0',
    },
  });
  await warmUp(s.url);
});
afterAll(() => s.close());

const sp = () => [...s.app.catalogue.charts()].filter((c) => c.playStyle === 'SP' && c.notes > 500);
const IMPORT =
  'mutation($u: ID!, $rows: [ScoreRowInput!]!) { importScores(userId: $u, version: "33", rows: $rows) { updatedCount } }';

async function playerWithScores(dates: string[]) {
  const u = await aPublicPlayer(s.db.prisma);
  const rows = sp()
    .slice(0, dates.length)
    .map((c, i) => ({
      title: c.title,
      difficulty: c.difficulty,
      exScore: Math.floor(c.notes * 1.5),
      clearState: 'CLEAR',
      lastPlayed: dates[i],
    }));
  const res = await s.gql(IMPORT, { u: u.id, rows }, await s.tokenFor(u.id));
  expect(res.body.data.importScores.updatedCount).toBe(dates.length);
  return u;
}

const plans = (n: number, maxSteps: number) =>
  `query($id: ID!) { user(id: $id) { ${Array.from({ length: n }, (_, i) => `p${i}: bpiPlan(input: { targetBpi: 60, maxSteps: ${maxSteps} }) { totalExScoreGap provenOptimal }`).join(' ')} } }`;

describe('bpiPlan', () => {
  it('30 aliased plans with maxSteps 400 (anonymous) are refused before any runs: GRAPHQL_MAX_PLANS', async () => {
    const u = await playerWithScores(['2025-06-01 12:00', '2025-06-02 12:00']);
    const r = await underAttack(s.url, 2000, () => post(s.url, { query: plans(30, 400), variables: { id: u.id } }));
    expect(r.result.status).toBe(400);
    expect(codeOf(r.result)).toBe('BAD_USER_INPUT');
    expect(r.result.json.errors[0].message).toBe(
      'At most 3 plans (bpiPlan, saveOptimizeMemo) per request (GRAPHQL_MAX_PLANS; found 30): ask for fewer',
    );
  });

  it('3 plans with maxSteps 400 run in the worker pool while /healthz answers', async () => {
    const u = await playerWithScores(['2025-06-01 12:00', '2025-06-02 12:00', '2025-06-03 12:00']);
    const before = s.app.pool.stats().completed;
    const r = await underAttack(s.url, 20_000, () => post(s.url, { query: plans(3, 400), variables: { id: u.id } }));
    expect(r.result.json.errors).toBeUndefined();
    expect(Object.keys(r.result.json.data.user)).toEqual(['p0', 'p1', 'p2']);
    // 3 plans a run (a late probe on a busy machine sends the request a second time).
    const ran = s.app.pool.stats().completed - before;
    expect([3, 6]).toContain(ran);
  });

  it('past the anonymous CPU budget: 429 RATE_LIMITED with Retry-After, naming the budget', async () => {
    const u = await playerWithScores(['2025-06-01 12:00']);
    const limits = s.app.config.limits;
    const saved = limits.cpuAnonymousPerMinute;
    // One plan with maxSteps 400 is 400 × 2,000 / 1,000 = 800 units; a budget of 1,000 allows one, not two.
    limits.cpuAnonymousPerMinute = 1000;
    try {
      const first = await post(s.url, { query: plans(1, 400), variables: { id: u.id } });
      expect(first.json.errors).toBeUndefined();
      const r = await underAttack(s.url, 2000, () => post(s.url, { query: plans(1, 400), variables: { id: u.id } }));
      expect(r.result.status).toBe(429);
      expect(r.result.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(r.result.json.errors[0]).toMatchObject({
        message: 'CPU budget spent: 1000 work units a minute (CPU_BUDGET_ANONYMOUS_PER_MINUTE); this request needs 800',
        extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) },
      });
    } finally {
      limits.cpuAnonymousPerMinute = saved;
    }
  });
});

describe('MCP', () => {
  it('a JSON-RPC batch of 100 tools/list is refused at once (400, -32600), before authentication', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
    const r = await underAttack(s.url, 2000, async () => {
      const res = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(batch),
      });
      return { status: res.status, body: (await res.json()) as { error: { code: number; message: string } } };
    });
    expect(r.result.status).toBe(400);
    expect(r.result.body.error.code).toBe(-32600);
    expect(r.result.body.error.message).toMatch(/batches are not supported .* held 100 messages/);
  });
});

describe('totalBpiHistory', () => {
  it('24 aliased daily histories from 1999 are aggregated to months: 318 points each', async () => {
    const u = await playerWithScores(['1999-01-02 12:00', '2025-06-01 12:00']);
    const query = `query($id: ID!) { user(id: $id) { ${Array.from({ length: 24 }, (_, i) => `h${i}: totalBpiHistory(version: "33", period: DAY) { date }`).join(' ')} } }`;
    const r = await underAttack(s.url, 20_000, () => post(s.url, { query, variables: { id: u.id } }));
    expect(r.result.json.errors).toBeUndefined();
    // 1999-01-02 … 2025-06-01 is 9,648 days (> 3,653): months 1999-01 … 2025-06 = 26 × 12 + 6 = 318 points.
    const h0 = r.result.json.data.user.h0 as { date: string }[];
    expect(h0.length).toBe(318);
    expect([h0[0].date, h0[317].date]).toEqual(['1999-01', '2025-06']);
  });
});

describe('uploads at their limits', () => {
  const CSV =
    'mutation($u: ID!, $c: String!) { importScoresCsv(userId: $u, version: "33", csv: $c) { rowCount updatedCount learnedCharts } }';
  /** An official CSV line of an unknown song: `played` difficulty blocks with a play (level 10, EX 1,000, HARD CLEAR), the others NO PLAY. */
  const line = (i: number, played: number) =>
    [
      '33 Sparkle Shower',
      `Hostile Song ${String(i).padStart(5, '0')}`,
      'G',
      'A',
      1,
      ...Array.from({ length: 5 }, (_, d) =>
        d < played ? '10,1000,400,200,5,HARD CLEAR,A' : '0,0,0,0,---,NO PLAY,---',
      ),
      '2025-06-01 12:00',
    ].join(',');
  const official = (lines: number, played: number) =>
    [OFFICIAL_HEADER, ...Array.from({ length: lines }, (_, i) => line(i, played))].join('\r\n') + '\r\n';

  it('an official CSV at the body limit (4 MiB, 21,000 rows) is parsed in the pool and refused whole: At most 10000 rows', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const csv = official(21_000, 1);
    const body = JSON.stringify({ query: CSV, variables: { u: u.id, c: csv } });
    // within BODY_LIMIT_BYTES (4 MiB) by less than 10 %
    expect(Buffer.byteLength(body)).toBeLessThan(4 * 1024 * 1024);
    expect(Buffer.byteLength(body)).toBeGreaterThan(0.9 * 4 * 1024 * 1024);
    const auth = { authorization: `Bearer ${await s.tokenFor(u.id)}` };
    const before = s.app.pool.stats().completed;
    const r = await underAttack(s.url, 20_000, () => post(s.url, body, auth), HEALTHZ_BOUND_MS, true, POLL_EVERY_MS);
    expect(codeOf(r.result)).toBe('BAD_USER_INPUT');
    // one played cell per line: 21,000 rows
    expect(r.result.json.errors[0].message).toBe('At most 10000 rows per import (got 21000)');
    expect(s.app.pool.stats().completed - before).toBeGreaterThanOrEqual(1);
    expect(await s.db.prisma.importBatch.count({ where: { userId: u.id } })).toBe(0);
  }, 60_000);

  it('an official CSV of 9,995 rows of unknown titles (the row cap) imports the first 200 titles while /healthz answers', async () => {
    // 1,999 songs × 5 played blocks = 9,995 rows (≤ MAX_IMPORT_ROWS 10,000); NEW_TITLES_PER_IMPORT
    // (200) songs are learned: 200 × 5 = 1,000 charts and 1,000 plays, the other 1,799 songs' rows are problems.
    const csv = official(1999, 5);
    const r = await underAttack(
      s.url,
      60_000,
      async () => {
        const u = await aPublicPlayer(s.db.prisma); // a fresh player each run (a late probe runs it again)
        return post(
          s.url,
          { query: CSV, variables: { u: u.id, c: csv } },
          { authorization: `Bearer ${await s.tokenFor(u.id)}` },
        );
      },
      HEALTHZ_BOUND_MS,
      true,
      POLL_EVERY_MS,
    );
    expect(r.result.json.errors).toBeUndefined();
    expect(r.result.json.data.importScoresCsv).toEqual({ rowCount: 9995, updatedCount: 1000, learnedCharts: 1000 });
  }, 120_000);
});
