/**
 * Hostile data of issue #21 (H4, H7, M3, M4): play dates outside 1999-01-01 … now + 1 day are
 * never stored (import, migration), the legacy migration is capped in size and finishes a file at
 * its cap within a bound, and filtered rankings / arena averages cannot be matched to a player.
 */
import { recomputeArenaAverages } from '../../src/modules/arena/arena.service';
import { aPublicPlayer, aVersionStatus, follows, withBestScore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { HEALTHZ_BOUND_MS, POLL_EVERY_MS, underAttack, warmUp } from './hostile';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { RATE_LIMIT_WRITES_PER_MINUTE: '0', RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0' } });
  await warmUp(s.url);
});
afterAll(() => s.close());

const gql = async (query: string, variables: Record<string, unknown>, token?: string) => s.gql(query, variables, token);
const sp = () => [...s.app.catalogue.charts()].filter((c) => c.playStyle === 'SP' && c.notes > 500);
const MIGRATE =
  'mutation($u: ID!, $d: String!) { migrateLegacyScores(userId: $u, data: $d) { importedVersions totalProcessed batchCount notFound } }';

describe('H4 / M4: play dates within 1999-01-01 … now + 1 day', () => {
  it('an import row dated 9999-12-31 is refused (a problem on its line), the others are stored; totalBpiHistory stays small', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    const [a, b] = sp();
    const rows = [
      { title: a.title, difficulty: a.difficulty, exScore: 100, clearState: 'CLEAR', lastPlayed: '9999-12-31 23:59' },
      { title: b.title, difficulty: b.difficulty, exScore: 100, clearState: 'CLEAR', lastPlayed: '2025-06-01 12:00' },
    ];
    const res = await gql(
      'mutation($u: ID!, $rows: [ScoreRowInput!]!) { importScores(userId: $u, version: "33", rows: $rows) { updatedCount problems { line column reason } } }',
      { u: u.id, rows },
      token,
    );
    expect(res.body.data.importScores.updatedCount).toBe(1);
    expect(res.body.data.importScores.problems).toEqual([
      {
        line: 1,
        column: 'lastPlayed',
        reason: expect.stringMatching(/^play date 9999-12-31T14:59:00\.000Z is outside 1999-01-01 … \d{4}-\d\d-\d\d$/),
      },
    ]);
    expect(await s.db.prisma.score.count({ where: { userId: u.id, playedAt: { gt: new Date('2100-01-01') } } })).toBe(
      0,
    );
    // 128 bytes of anonymous query: one point (2025-06-01), not 8,000 years of days
    const r = await underAttack(s.url, 2000, () =>
      gql('query($id: ID!) { user(id: $id) { totalBpiHistory(version: "33") { date } } }', { id: u.id }),
    );
    expect(r.result.body.data.user.totalBpiHistory).toEqual([{ date: '2025-06-01' }]);
  });

  it('a legacy export with a play in year 200000 (or 1970) is refused whole; the follower timeline answers', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const fan = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, fan, u);
    const [a] = sp();
    for (const when of ['+200000-01-01T00:00:00Z', '1970-01-01T00:00:00Z']) {
      const data = JSON.stringify({
        '33': {
          scoresHistory: [
            { title: a.title, difficulty: a.difficulty, exScore: 100, updatedAt: '2024-01-01T00:00:00Z' },
            { title: a.title, difficulty: a.difficulty, exScore: 200, updatedAt: when },
          ],
        },
      });
      const res = await gql(MIGRATE, { u: u.id, d: data }, await s.tokenFor(u.id));
      expect(res.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/^data\.33\.scoresHistory\[1\]: play date/),
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    expect(await s.db.prisma.score.count({ where: { userId: u.id } })).toBe(0);
    const tl = await gql(
      'query($u: ID!) { timeline(userId: $u) { totalCount } }',
      { u: fan.id },
      await s.tokenFor(fan.id),
    );
    expect(tl.status).toBe(200);
    expect(tl.body.data.timeline.totalCount).toBe(0);
  });
});

describe('H7: the legacy migration is bounded', () => {
  /** An export of `n` history entries over the SP charts, a better EX each time (so every entry is stored). */
  function legacyExport(n: number): string {
    const charts = sp();
    const history = [];
    for (let i = 0; i < n; i++) {
      const c = charts[i % charts.length];
      const round = Math.floor(i / charts.length);
      const day = new Date(Date.UTC(2020, 0, 1) + round * 3600_000).toISOString();
      history.push({
        title: c.title,
        difficulty: c.difficulty,
        exScore: Math.min(1 + round, c.notes * 2),
        updatedAt: day,
      });
    }
    return JSON.stringify({ '33': { scoresHistory: history } });
  }

  it('refuses an export over MIGRATION_MAX_BYTES (2 MiB) at once', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const data = legacyExport(30_000);
    expect(data.length).toBeGreaterThan(2 * 1024 * 1024);
    const r = await underAttack(s.url, 2000, async () => gql(MIGRATE, { u: u.id, d: data }, await s.tokenFor(u.id)));
    expect(r.result.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^data is \d+ characters; the maximum is 2097152 \(MIGRATION_MAX_BYTES\)$/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('migrates an export just under the cap within 30 s (about 10 s here on PGlite; the review saw the connection held about 50 s)', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    let n = 20_000;
    let data = legacyExport(n);
    while (data.length > 2 * 1024 * 1024) data = legacyExport((n -= 1000));
    const token = await s.tokenFor(u.id);
    // Not a hostile request (the owner's own, rate-limited, at the cap): bounded in time, and the
    // process keeps answering within issue #27's bound. The document is read in the worker pool;
    // the matching is sliced; PGlite runs each statement on the main thread, so every statement is
    // small (plays written, read back and bests written in chunks sized to ~30 ms each:
    // src/db/yield.ts ChunkSizer) and the event loop goes through between them. Before, the rebuild read the ~20,000 plays at once
    // (about 1 s on a busy machine) and the whole transaction was one chain of microtasks.
    const r = await underAttack(
      s.url,
      30_000,
      () => gql(MIGRATE, { u: u.id, d: data }, token),
      HEALTHZ_BOUND_MS,
      true,
      POLL_EVERY_MS,
    );
    const res = r.result;
    expect(res.body.data.migrateLegacyScores).toMatchObject({ importedVersions: ['33'], notFound: 0 });
    expect(res.body.data.migrateLegacyScores.totalProcessed).toBeGreaterThan(10_000);
  }, 60_000);
});

describe('M3: no anonymous row matches a named one; arena averages need 5 players', () => {
  it('a player hiding their area is left out of the area-filtered ranking (their total cannot be matched)', async () => {
    const shown = await aPublicPlayer(s.db.prisma);
    const hidden = await aPublicPlayer(s.db.prisma); // showArea defaults to false
    await s.db.prisma.user.update({ where: { id: shown.id }, data: { showArea: true } });
    await aVersionStatus(s.db.prisma, shown, '31', { totalBpi: 11.11, area: '北海道' });
    await aVersionStatus(s.db.prisma, hidden, '31', { totalBpi: 22.22, area: '北海道' });
    const q =
      'query($a: String) { globalRanking(version: "31", area: $a) { totalCount edges { node { totalBpi anonymous player { id: databaseId } } } } }';
    const all = (await gql(q, {})).body.data.globalRanking;
    expect(all.edges.map((e: any) => [e.node.totalBpi, e.node.player?.id])).toEqual([
      [22.22, hidden.id],
      [11.11, shown.id],
    ]);
    const area = (await gql(q, { a: '北海道' })).body.data.globalRanking;
    expect(area.totalCount).toBe(1);
    expect(area.edges.map((e: any) => e.node.totalBpi)).toEqual([11.11]); // no anonymous 22.22 to match with the named row above
  });

  it('an arena class with fewer than 5 players on a chart publishes no average (count = 1 was one player score)', async () => {
    const chart = sp().find((c) => c.level === 12 || c.level === 11)!;
    const lone = await aPublicPlayer(s.db.prisma);
    await aVersionStatus(s.db.prisma, lone, '30', { totalBpi: 1, arenaClass: 'A5' });
    await withBestScore(s.db.prisma, lone, chart.id, 1234, { version: '30' });
    await recomputeArenaAverages(s.db.prisma, s.app.catalogue, '30');
    expect(await s.db.prisma.arenaAverage.count({ where: { version: '30', chartId: chart.id } })).toBe(0);
  });
});
