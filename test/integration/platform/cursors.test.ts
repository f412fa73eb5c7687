/**
 * Keyset cursors on every paged connection (issue #13 item 3): for each family, (a) first/after
 * gives every row once in order, (b) a row inserted ahead of the cursor between two fetches
 * neither repeats nor skips a row on the next page, (c) last/before gives the same rows backwards
 * (rankings, timelines), (d) a garbage or foreign cursor is BAD_USER_INPUT naming the argument.
 */
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import {
  anAdmin,
  aPrivatePlayer,
  aPublicPlayer,
  aScoreImport,
  aSongBestScore,
  aVersionStatus,
  follows,
} from '../../helpers/factories';
import type { Chart, User } from '../../../src/generated/prisma/client';
import { dropPopularityCounts } from '../../../src/modules/rankings/rankings.service';

let s: TestServer;
let chart: Chart;
let adminToken: string;
let A: User, B: User, C: User, D: User, E: User, F: User;
/** the two tied players in user-id order (ties are listed by user id) */
let t1: User, t2: User;

const decode = (c: string) => Buffer.from(c, 'base64url').toString('utf8');
const codeAndPath = (r: any) => [
  r.body.errors?.[0]?.extensions?.code,
  r.body.errors?.[0]?.extensions?.issues?.[0]?.path?.[0],
];

beforeAll(async () => {
  s = await startTestServer();
  const db = s.db.prisma;
  chart = await db.chart.findFirstOrThrow({ where: { level: 12 }, orderBy: { id: 'asc' } });
  adminToken = await s.tokenFor((await anAdmin(db)).id);
  [A, B, C, D, E, F] = [
    await aPublicPlayer(db),
    await aPrivatePlayer(db),
    await aPublicPlayer(db),
    await aPublicPlayer(db),
    await aPrivatePlayer(db),
    await aPublicPlayer(db),
  ];
  [t1, t2] = [B, C].sort((x, y) => (x.id < y.id ? -1 : 1));
});
afterAll(() => s.close());

/**
 * The ranking families, each with the same shape of fixture: A best, B and C tied second, D, E
 * last — so the order is A, t1, t2, D, E and the competition ranks 1, 2, 2, 4, 5. F is the row
 * inserted ahead of everyone (value above A's) between two page fetches.
 */
interface Family {
  name: string;
  field: string;
  /** the query, `$first $after $last $before` declared */
  query: string;
  seed(): Promise<void>;
  insertAhead(): Promise<void>;
  idOf(node: any): string;
}

const PAGE_VARS = '$first: Int, $after: String, $last: Int, $before: String';
const PAGE_ARGS = 'first: $first, after: $after, last: $last, before: $before';
const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

const families: Family[] = [
  {
    name: 'songRanking',
    field: 'songRanking',
    query: `query($c: ID!, ${PAGE_VARS}) { songRanking(chartId: $c, ${PAGE_ARGS}) { totalCount ${PAGE_INFO} edges { cursor node { rank exScore player { databaseId } } } } }`,
    async seed() {
      // EX 1900 > 1800 = 1800 > 1700 > 1600
      for (const [u, ex] of [
        [A, 1900],
        [B, 1800],
        [C, 1800],
        [D, 1700],
        [E, 1600],
      ] as const)
        await aSongBestScore(s.db.prisma, u, chart.id, ex);
    },
    insertAhead: async () => void (await aSongBestScore(s.db.prisma, F, chart.id, 1950)),
    idOf: (n) => n.player.databaseId,
  },
  {
    name: 'globalRanking',
    field: 'globalRanking',
    query: `query(${PAGE_VARS}) { globalRanking(version: "33", ${PAGE_ARGS}) { totalCount ${PAGE_INFO} edges { cursor node { rank totalBpi player { databaseId } } } } }`,
    async seed() {
      // total BPI 50.5 > 40.25 = 40.25 > 10 > -3.125
      for (const [u, bpi] of [
        [A, 50.5],
        [B, 40.25],
        [C, 40.25],
        [D, 10],
        [E, -3.125],
      ] as const)
        await aVersionStatus(s.db.prisma, u, '33', { totalBpi: bpi });
    },
    insertAhead: async () => void (await aVersionStatus(s.db.prisma, F, '33', { totalBpi: 60 })),
    idOf: (n) => n.player.databaseId,
  },
  {
    name: 'towerRanking',
    field: 'towerRanking',
    query: `query(${PAGE_VARS}) { towerRanking(version: "33", period: DAY, date: "2026-01-10", ${PAGE_ARGS}) { totalCount ${PAGE_INFO} edges { cursor node { rank value userId } } } }`,
    async seed() {
      // keys + scratches: 900 + 100 = 1000 > 800 + 0 = 700 + 100 = 800 > 500 > 100
      const rows = [
        [A, 900, 100],
        [B, 800, 0],
        [C, 700, 100],
        [D, 500, 0],
        [E, 100, 0],
      ] as const;
      for (const [u, keyCount, scratchCount] of rows) {
        await s.db.prisma.towerEntry.create({
          data: { userId: u.id, version: '33', playDate: new Date('2026-01-10T00:00:00Z'), keyCount, scratchCount },
        });
      }
    },
    insertAhead: async () =>
      void (await s.db.prisma.towerEntry.create({
        data: { userId: F.id, version: '33', playDate: new Date('2026-01-10T00:00:00Z'), keyCount: 2000 },
      })),
    idOf: (n) => n.userId,
  },
  {
    name: 'radarRanking',
    field: 'radarRanking',
    query: `query(${PAGE_VARS}) { radarRanking(version: "33", category: NOTES, ${PAGE_ARGS}) { totalCount ${PAGE_INFO} edges { cursor node { rank value userId } } } }`,
    async seed() {
      // NOTES 90.5 > 80.25 = 80.25 > 50 > 10
      for (const [u, notes] of [
        [A, 90.5],
        [B, 80.25],
        [C, 80.25],
        [D, 50],
        [E, 10],
      ] as const)
        await s.db.prisma.radarCache.create({ data: { userId: u.id, version: '33', notes } });
    },
    insertAhead: async () =>
      void (await s.db.prisma.radarCache.create({ data: { userId: F.id, version: '33', notes: 99.5 } })),
    idOf: (n) => n.userId,
  },
];

describe.each(families)('$name', (f) => {
  const run = async (vars: Record<string, unknown>, token: string | null = adminToken) => {
    const r = await s.gql<any>(f.query, { c: String(chart.id), ...vars }, token ?? undefined);
    return { raw: r, conn: r.body.data?.[f.field] };
  };
  const page = async (vars: Record<string, unknown>) => {
    const { raw } = await run(vars);
    const c = (expectNoErrors(raw) as any)[f.field];
    return { c, rows: c.edges.map((e: any) => [f.idOf(e.node), e.node.rank]), info: c.pageInfo };
  };

  beforeAll(() => f.seed());

  it('(a) first/after: every row once, in order, ranks continuing across pages', async () => {
    const p1 = await page({ first: 2 });
    expect(p1.rows).toEqual([
      [A.id, 1],
      [t1.id, 2],
    ]);
    expect([p1.info.hasPreviousPage, p1.info.hasNextPage, p1.c.totalCount]).toEqual([false, true, 5]);
    const p2 = await page({ first: 2, after: p1.info.endCursor });
    expect(p2.rows).toEqual([
      [t2.id, 2],
      [D.id, 4],
    ]);
    expect([p2.info.hasPreviousPage, p2.info.hasNextPage]).toEqual([true, true]);
    const p3 = await page({ first: 2, after: p2.info.endCursor });
    expect(p3.rows).toEqual([[E.id, 5]]);
    expect([p3.info.hasPreviousPage, p3.info.hasNextPage]).toEqual([true, false]);
  });

  it('(c) last/before: the same rows backwards, with Relay page info', async () => {
    const b1 = await page({ last: 2 });
    expect(b1.rows).toEqual([
      [D.id, 4],
      [E.id, 5],
    ]);
    expect([b1.info.hasPreviousPage, b1.info.hasNextPage]).toEqual([true, false]);
    const b2 = await page({ last: 2, before: b1.info.startCursor });
    expect(b2.rows).toEqual([
      [t1.id, 2],
      [t2.id, 2],
    ]);
    expect([b2.info.hasPreviousPage, b2.info.hasNextPage]).toEqual([true, true]);
    const b3 = await page({ last: 2, before: b2.info.startCursor });
    expect(b3.rows).toEqual([[A.id, 1]]);
    expect([b3.info.hasPreviousPage, b3.info.hasNextPage]).toEqual([false, true]);
    // a forward cursor pages backwards too: before t2 (the end of the first forward page of 3) → A, t1
    const f1 = await page({ first: 3 });
    const back = await page({ last: 5, before: f1.c.edges[2].cursor });
    expect(back.rows).toEqual([
      [A.id, 1],
      [t1.id, 2],
    ]);
  });

  it('(d) a garbage, foreign or mixed-direction cursor is BAD_USER_INPUT naming the argument', async () => {
    expect(codeAndPath((await run({ after: 'garbage' })).raw)).toEqual(['BAD_USER_INPUT', 'after']);
    expect(codeAndPath((await run({ last: 1, before: 'Zm9v' })).raw)).toEqual(['BAD_USER_INPUT', 'before']);
    // an offset cursor of the old format ([20]) and a cursor of another list
    expect(codeAndPath((await run({ after: Buffer.from('[20]').toString('base64url') })).raw)).toEqual([
      'BAD_USER_INPUT',
      'after',
    ]);
    const foreign = Buffer.from(JSON.stringify(['otherList', 5, 'x'])).toString('base64url');
    expect(codeAndPath((await run({ after: foreign })).raw)).toEqual(['BAD_USER_INPUT', 'after']);
    // a cursor whose sealed user id was tampered with
    const p1 = await page({ first: 1 });
    const parts = JSON.parse(decode(p1.info.endCursor));
    parts[2] = parts[2].slice(0, -2) + (parts[2].endsWith('AA') ? 'BB' : 'AA');
    expect(codeAndPath((await run({ after: Buffer.from(JSON.stringify(parts)).toString('base64url') })).raw)).toEqual([
      'BAD_USER_INPUT',
      'after',
    ]);
    expect(codeAndPath((await run({ first: 1, last: 1 })).raw)).toEqual(['BAD_USER_INPUT', 'last']);
    expect(codeAndPath((await run({ last: 1, after: p1.info.endCursor })).raw)).toEqual(['BAD_USER_INPUT', 'after']);
    expect(codeAndPath((await run({ last: 0 })).raw)).toEqual(['BAD_USER_INPUT', 'last']);
  });

  it('cursors of anonymous rows do not name the player (the tie-break user id is sealed)', async () => {
    const { raw } = await run({ first: 5 }, null); // anonymous caller: B and E (private) are masked
    const body = JSON.stringify(expectNoErrors(raw));
    const cursors = (raw.body.data[f.field].edges as any[]).map((e) => decode(e.cursor)).join(' ');
    for (const u of [A, B, C, D, E]) expect(cursors).not.toContain(u.id);
    for (const u of [B, E]) expect(body).not.toContain(u.id);
  });

  it('(b) a row inserted ahead of the cursor between two fetches: the next page neither repeats nor skips', async () => {
    const p1 = await page({ first: 2 });
    expect(p1.rows).toEqual([
      [A.id, 1],
      [t1.id, 2],
    ]);
    await f.insertAhead(); // F above A: every later rank moves down one (A 2, ties 3, D 5, E 6)
    const p2 = await page({ first: 2, after: p1.info.endCursor });
    expect(p2.rows).toEqual([
      [t2.id, 3],
      [D.id, 5],
    ]);
    const p3 = await page({ first: 2, after: p2.info.endCursor });
    expect(p3.rows).toEqual([[E.id, 6]]);
    expect(p3.c.totalCount).toBe(6);
    // and backwards from E: D, t2 (rank 3)
    const b = await page({ last: 2, before: p3.info.startCursor });
    expect(b.rows).toEqual([
      [t2.id, 3],
      [D.id, 5],
    ]);
  });
});

// ───────────── timelines and other lists: a shared check ─────────────

/** A list under test: `fetch(vars)` runs its query with first/after/last/before and returns the node ids in page order. */
interface ListUnderTest {
  fetch(vars: Record<string, unknown>): Promise<{ ids: string[]; info: any; totalCount?: number; raw: any }>;
}

/** (a): pages of 2 through the list give `expected` once, in order. */
async function forwardAll(l: ListUnderTest, expected: string[]) {
  const seen: string[] = [];
  let after: string | null = null;
  for (let i = 0; i < 10; i++) {
    const p = await l.fetch({ first: 2, after });
    seen.push(...p.ids);
    expect(p.info.hasPreviousPage).toBe(after !== null);
    if (!p.info.hasNextPage) break;
    after = p.info.endCursor;
  }
  expect(seen).toEqual(expected);
}

/** (c): pages of 2 backwards from the end give `expected` too. */
async function backwardAll(l: ListUnderTest, expected: string[]) {
  const seen: string[][] = [];
  let before: string | null = null;
  for (let i = 0; i < 10; i++) {
    const p = await l.fetch({ last: 2, before });
    seen.unshift(p.ids);
    expect(p.info.hasNextPage).toBe(before !== null);
    if (!p.info.hasPreviousPage) break;
    before = p.info.startCursor;
  }
  expect(seen.flat()).toEqual(expected);
}

/** (b): after a first page of 2, `insert()` puts a row at the head; the next pages hold the rest exactly. */
async function insertAhead(l: ListUnderTest, expected: string[], insert: () => Promise<void>) {
  const p1 = await l.fetch({ first: 2 });
  expect(p1.ids).toEqual(expected.slice(0, 2));
  await insert();
  const rest: string[] = [];
  let after = p1.info.endCursor;
  for (let i = 0; i < 10; i++) {
    const p = await l.fetch({ first: 2, after });
    rest.push(...p.ids);
    if (!p.info.hasNextPage) break;
    after = p.info.endCursor;
  }
  expect(rest).toEqual(expected.slice(2));
}

/** (d): garbage and foreign cursors, and mixed directions, are BAD_USER_INPUT naming the argument. */
async function refusesBadCursors(l: ListUnderTest, opts: { backward: boolean }) {
  expect(codeAndPath((await l.fetch({ after: 'garbage' })).raw)).toEqual(['BAD_USER_INPUT', 'after']);
  expect(codeAndPath((await l.fetch({ after: Buffer.from('[2]').toString('base64url') })).raw)).toEqual([
    'BAD_USER_INPUT',
    'after',
  ]);
  const foreign = Buffer.from(JSON.stringify(['songRanking:1:33', 1800, 'x'])).toString('base64url');
  expect(codeAndPath((await l.fetch({ after: foreign })).raw)).toEqual(['BAD_USER_INPUT', 'after']);
  if (opts.backward) {
    expect(codeAndPath((await l.fetch({ last: 1, before: 'garbage' })).raw)).toEqual(['BAD_USER_INPUT', 'before']);
    expect(codeAndPath((await l.fetch({ first: 1, last: 1 })).raw)).toEqual(['BAD_USER_INPUT', 'last']);
  }
}

function list(
  query: string,
  vars: () => Record<string, unknown>,
  path: (d: any) => any,
  idOf: (n: any) => string,
  token: () => string | undefined,
): ListUnderTest {
  return {
    async fetch(v) {
      const raw = await s.gql<any>(query, { ...vars(), ...v }, token());
      let conn: any = null;
      try {
        conn = raw.body.data ? path(raw.body.data) : null;
      } catch {
        /* an error answer: no connection */
      }
      return {
        raw,
        ids: conn ? conn.edges.map((e: any) => idOf(e.node)) : [],
        info: conn?.pageInfo,
        totalCount: conn?.totalCount,
      };
    },
  };
}

describe('User.batches (timeline, newest first by createdAt then id)', () => {
  let owner: User;
  let token: string;
  const ids: Record<string, string> = {};
  const Q = `query($u: ID!, ${PAGE_VARS}) { user(id: $u) { batches(version: "33", ${PAGE_ARGS}) { totalCount ${PAGE_INFO} edges { cursor node { databaseId } } } } }`;
  const l = list(
    Q,
    () => ({ u: owner.id }),
    (d) => d.user.batches,
    (n) => n.databaseId,
    () => token,
  );
  const expected = () => [ids.b4, ...[ids.b2, ids.b3].sort().reverse(), ids.b1]; // 01-03, then the two of 01-02 by id descending, then 01-01

  beforeAll(async () => {
    owner = await aPublicPlayer(s.db.prisma);
    token = await s.tokenFor(owner.id);
    for (const [k, at] of [
      ['b1', '2026-01-01T00:00:00Z'],
      ['b2', '2026-01-02T00:00:00Z'],
      ['b3', '2026-01-02T00:00:00Z'],
      ['b4', '2026-01-03T00:00:00Z'],
    ] as const) {
      ids[k] = (
        await s.db.prisma.importBatch.create({
          data: { userId: owner.id, version: '33', source: 'ROWS', createdAt: new Date(at) },
        })
      ).id;
    }
  });

  it('(a) forward', () => forwardAll(l, expected()));
  it('(c) backward', () => backwardAll(l, expected()));
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: true }));
  it('(b) a newer batch between two fetches', () =>
    insertAhead(
      l,
      expected(),
      async () =>
        void (await s.db.prisma.importBatch.create({
          data: { userId: owner.id, version: '33', source: 'ROWS', createdAt: new Date('2026-01-04T00:00:00Z') },
        })),
    ));
});

describe("timeline (followed players' plays, newest first by playedAt then id)", () => {
  let viewer: User;
  let player: User;
  let token: string;
  const Q = `query(${PAGE_VARS}) { timeline(version: "33", ${PAGE_ARGS}) { ${PAGE_INFO} edges { cursor node { databaseId playedAt } } } }`;
  const l = list(
    Q,
    () => ({}),
    (d) => d.timeline,
    (n) => String(n.databaseId),
    () => token,
  );
  let expected: string[] = [];

  beforeAll(async () => {
    viewer = await aPublicPlayer(s.db.prisma);
    player = await aPublicPlayer(s.db.prisma);
    await follows(s.db.prisma, viewer, player);
    token = await s.tokenFor(viewer.id);
    // five plays, on 2026-02-01 … 02-05: newest first they are the plays in reverse order
    const { scores } = await aScoreImport(
      s.db.prisma,
      player,
      [1, 2, 3, 4, 5].map((d) => ({
        chartId: chart.id,
        exScore: 1000 + d,
        playedAt: new Date(`2026-02-0${d}T03:00:00Z`),
      })),
    );
    expected = scores.map((x) => String(x.id)).reverse();
  });

  it('(a) forward', () => forwardAll(l, expected));
  it('(c) backward', () => backwardAll(l, expected));
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: true }));
  it('(b) a newer play between two fetches', async () => {
    const before = [...expected];
    await insertAhead(
      l,
      before,
      async () =>
        void (await aScoreImport(s.db.prisma, player, [
          { chartId: chart.id, exScore: 1010, playedAt: new Date('2026-02-09T03:00:00Z') },
        ])),
    );
  });
});

describe('User.playDays (timeline, newest JST date first)', () => {
  let owner: User;
  let token: string;
  const Q = `query($u: ID!, ${PAGE_VARS}) { user(id: $u) { playDays(version: "33", ${PAGE_ARGS}) { totalCount ${PAGE_INFO} edges { cursor node { date } } } } }`;
  const l = list(
    Q,
    () => ({ u: owner.id }),
    (d) => d.user.playDays,
    (n) => n.date,
    () => token,
  );
  // plays at 2026-01-0{1,2,3,5} 03:00 UTC = 12:00 JST the same day
  const expected = ['2026-01-05', '2026-01-03', '2026-01-02', '2026-01-01'];

  beforeAll(async () => {
    owner = await aPublicPlayer(s.db.prisma);
    token = await s.tokenFor(owner.id);
    const plays = ['01', '02', '03', '05'].map((d, i) => ({
      chartId: chart.id,
      exScore: 1000 + i * 10,
      playedAt: new Date(`2026-01-${d}T03:00:00Z`),
    }));
    await aScoreImport(s.db.prisma, owner, plays);
  });

  it('(a) forward', () => forwardAll(l, expected));
  it('(c) backward', () => backwardAll(l, expected));
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: true }));
  it('(b) a play on a newer day between two fetches', () =>
    insertAhead(l, expected, () =>
      aScoreImport(s.db.prisma, owner, [
        { chartId: chart.id, exScore: 1100, playedAt: new Date('2026-01-06T03:00:00Z') },
      ]).then(() => undefined),
    ));
});

// ───────────── social lists ─────────────

const day = (d: string) => new Date(`${d}T00:00:00Z`);

describe('User.followers (newest follow first; the member id in the cursor is sealed)', () => {
  let P: User;
  const F: User[] = [];
  const Q = `query($u: ID!, $first: Int, $after: String) { user(id: $u) { followers(first: $first, after: $after) { totalCount ${PAGE_INFO} edges { cursor node { databaseId } } } } }`;
  const l = list(
    Q,
    () => ({ u: P.id }),
    (d) => d.user.followers,
    (n) => n.databaseId,
    () => undefined,
  );

  beforeAll(async () => {
    P = await aPublicPlayer(s.db.prisma);
    for (const d of ['2026-01-01', '2026-01-02', '2026-01-03']) {
      const f = await aPublicPlayer(s.db.prisma);
      F.push(f);
      await s.db.prisma.follow.create({
        data: { followerId: f.id, followingId: P.id, approvedAt: day(d), createdAt: day(d) },
      });
    }
  });

  it('(a) forward: F3 (01-03), F2, F1', async () => {
    await forwardAll(l, [F[2].id, F[1].id, F[0].id]);
    const p = await l.fetch({ first: 3 });
    const cursors = p.raw.body.data.user.followers.edges.map((e: any) => decode(e.cursor)).join(' ');
    for (const f of F) expect(cursors).not.toContain(f.id);
  });
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: false }));
  it('(b) a newer follower between two fetches', () =>
    insertAhead(l, [F[2].id, F[1].id, F[0].id], async () => {
      const f4 = await aPublicPlayer(s.db.prisma);
      await s.db.prisma.follow.create({
        data: { followerId: f4.id, followingId: P.id, approvedAt: day('2026-01-04'), createdAt: day('2026-01-04') },
      });
    }));
});

describe('outgoingFollowRequests (newest first)', () => {
  let O: User;
  let token: string;
  const T: User[] = [];
  const Q = `query($u: ID!, $first: Int, $after: String) { outgoingFollowRequests(userId: $u, first: $first, after: $after) { totalCount ${PAGE_INFO} edges { cursor node { targetId } } } }`;
  const l = list(
    Q,
    () => ({ u: O.id }),
    (d) => d.outgoingFollowRequests,
    (n) => n.targetId,
    () => token,
  );

  beforeAll(async () => {
    O = await aPublicPlayer(s.db.prisma);
    token = await s.tokenFor(O.id);
    for (const d of ['2026-01-01', '2026-01-02', '2026-01-03']) {
      const t = await aPrivatePlayer(s.db.prisma);
      T.push(t);
      await s.db.prisma.followRequest.create({ data: { requesterId: O.id, targetId: t.id, createdAt: day(d) } });
    }
  });

  it('(a) forward: T3 (01-03), T2, T1', () => forwardAll(l, [T[2].id, T[1].id, T[0].id]));
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: false }));
  it('(b) a newer request between two fetches', () =>
    insertAhead(l, [T[2].id, T[1].id, T[0].id], async () => {
      const t4 = await aPrivatePlayer(s.db.prisma);
      await s.db.prisma.followRequest.create({
        data: { requesterId: O.id, targetId: t4.id, createdAt: day('2026-01-04') },
      });
    }));
});

describe('incomingFollowRequests (requests oldest first, then legacy follows without approval)', () => {
  let O: User;
  let token: string;
  const R: User[] = [];
  const L: User[] = [];
  const Q = `query($u: ID!, $first: Int, $after: String) { incomingFollowRequests(userId: $u, first: $first, after: $after) { totalCount ${PAGE_INFO} edges { cursor node { kind requesterId } } } }`;
  const l = list(
    Q,
    () => ({ u: O.id }),
    (d) => d.incomingFollowRequests,
    (n) => `${n.kind}:${n.requesterId}`,
    () => token,
  );
  const expected = () => [`REQUEST:${R[0].id}`, `REQUEST:${R[1].id}`, `LEGACY:${L[0].id}`, `LEGACY:${L[1].id}`];

  beforeAll(async () => {
    O = await aPrivatePlayer(s.db.prisma);
    token = await s.tokenFor(O.id);
    for (const d of ['2026-01-01', '2026-01-02']) {
      const r = await aPublicPlayer(s.db.prisma);
      R.push(r);
      await s.db.prisma.followRequest.create({ data: { requesterId: r.id, targetId: O.id, createdAt: day(d) } });
    }
    for (const d of ['2026-01-01', '2026-01-03']) {
      const f = await aPublicPlayer(s.db.prisma);
      L.push(f);
      await s.db.prisma.follow.create({
        data: { followerId: f.id, followingId: O.id, approvedAt: null, createdAt: day(d) },
      });
    }
  });

  it('(a) forward: R1, R2, then L1 (01-01), L2 (01-03)', () => forwardAll(l, expected()));
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: false }));
  it('(b) an older request (ahead of the cursor) between two fetches', () =>
    insertAhead(l, expected(), async () => {
      const r0 = await aPublicPlayer(s.db.prisma);
      await s.db.prisma.followRequest.create({
        data: { requesterId: r0.id, targetId: O.id, createdAt: day('2025-12-31') },
      });
    }));
});

describe('followingWithLists (by name)', () => {
  let O: User;
  let token: string;
  const U: Record<string, User> = {};
  const Q = `query($u: ID!, $first: Int, $after: String) { followingWithLists(userId: $u, first: $first, after: $after) { totalCount ${PAGE_INFO} edges { cursor node { userId } } } }`;
  const l = list(
    Q,
    () => ({ u: O.id }),
    (d) => d.followingWithLists,
    (n) => n.userId,
    () => token,
  );
  const expected = () => [U.amy.id, U.bob.id, U.Cat.id, U.zed.id]; // name keys amy < bob < cat < zed (case-insensitive)

  beforeAll(async () => {
    O = await aPublicPlayer(s.db.prisma);
    token = await s.tokenFor(O.id);
    for (const name of ['zed', 'amy', 'Cat', 'bob']) {
      U[name] = await aPublicPlayer(s.db.prisma, { name: `cursors_${name}` });
      await s.db.prisma.follow.create({ data: { followerId: O.id, followingId: U[name].id, approvedAt: new Date() } });
    }
  });

  it('(a) forward: amy, bob, Cat, zed', () => forwardAll(l, expected()));
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: false }));
  it('(b) a user sorting first followed between two fetches', () =>
    insertAhead(l, expected(), async () => {
      const aaa = await aPublicPlayer(s.db.prisma, { name: 'cursors_aaa' });
      await s.db.prisma.follow.create({ data: { followerId: O.id, followingId: aaa.id, approvedAt: new Date() } });
    }));
});

// ───────────── patterns, optimizer, notes ─────────────

describe('fingeringPatterns (score DESC, pattern; or upvotes DESC, score DESC, pattern)', () => {
  const Q = `query($c: ID!, $sort: FingeringPatternSort, $first: Int, $after: String) { fingeringPatterns(chartId: $c, sort: $sort, first: $first, after: $after) { totalCount ${PAGE_INFO} edges { cursor node { pattern } } } }`;
  let chartId: number;
  const byScore = list(
    Q,
    () => ({ c: String(chartId), sort: 'SCORE' }),
    (d) => d.fingeringPatterns,
    (n) => n.pattern,
    () => undefined,
  );
  const byVotes = list(
    Q,
    () => ({ c: String(chartId), sort: 'UPVOTES' }),
    (d) => d.fingeringPatterns,
    (n) => n.pattern,
    () => undefined,
  );

  beforeAll(async () => {
    chartId = (await s.db.prisma.chart.findFirstOrThrow({ where: { level: 11 }, orderBy: { id: 'asc' } })).id;
    // (pattern, score, upvotes)
    const rows = [
      ['1234567', 5, 1],
      ['2345671', 3, 4],
      ['3456712', 3, 0],
      ['4567123', 1, 2],
    ] as const;
    for (const [pattern, score, upvotes] of rows)
      await s.db.prisma.fingeringPattern.create({ data: { chartId, pattern, score, upvotes } });
  });

  // SCORE: 5 (1234567), then the two 3s by pattern (2345671, 3456712), then 1 (4567123)
  it('(a) forward by score', () => forwardAll(byScore, ['1234567', '2345671', '3456712', '4567123']));
  // UPVOTES: 4 (2345671), 2 (4567123), 1 (1234567), 0 (3456712)
  it('(a) forward by upvotes', () => forwardAll(byVotes, ['2345671', '4567123', '1234567', '3456712']));
  it('(d) bad cursors; a SCORE cursor is foreign to UPVOTES', async () => {
    await refusesBadCursors(byScore, { backward: false });
    const p = await byScore.fetch({ first: 1 });
    expect(codeAndPath((await byVotes.fetch({ first: 1, after: p.info.endCursor })).raw)).toEqual([
      'BAD_USER_INPUT',
      'after',
    ]);
  });
  it('(b) a higher-scored pattern between two fetches', () =>
    insertAhead(byScore, ['1234567', '2345671', '3456712', '4567123'], async () => {
      await s.db.prisma.fingeringPattern.create({ data: { chartId, pattern: '7654321', score: 9, upvotes: 0 } });
    }));
});

describe('User.optimizeMemos (newest first, then id)', () => {
  let owner: User;
  let token: string;
  const ids: string[] = [];
  const Q = `query($u: ID!, $first: Int, $after: String) { user(id: $u) { optimizeMemos(first: $first, after: $after) { totalCount ${PAGE_INFO} edges { cursor node { databaseId } } } } }`;
  const l = list(
    Q,
    () => ({ u: owner.id }),
    (d) => d.user.optimizeMemos,
    (n) => n.databaseId,
    () => token,
  );

  beforeAll(async () => {
    owner = await aPublicPlayer(s.db.prisma);
    token = await s.tokenFor(owner.id);
    for (const d of ['2026-01-01', '2026-01-02', '2026-01-03']) {
      ids.push(
        (
          await s.db.prisma.optimizeMemo.create({
            data: { userId: owner.id, version: '33', report: {}, createdAt: day(d) },
          })
        ).id,
      );
    }
  });

  it('(a) forward: 01-03, 01-02, 01-01', () => forwardAll(l, [ids[2], ids[1], ids[0]]));
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: false }));
  it('(b) a newer memo between two fetches', () =>
    insertAhead(l, [ids[2], ids[1], ids[0]], async () => {
      await s.db.prisma.optimizeMemo.create({
        data: { userId: owner.id, version: '33', report: {}, createdAt: day('2026-01-04') },
      });
    }));
});

describe('User.ticketRecommendation charts (RAW: pattern score DESC, chart id)', () => {
  let owner: User;
  let token: string;
  let charts: number[];
  const Q = `query($u: ID!, $first: Int, $after: String) { user(id: $u) { ticketRecommendation(ticketId: "2641753", scoreMode: RAW, first: $first, after: $after) { charts { totalCount ${PAGE_INFO} edges { cursor node { chartId } } } } } }`;
  const l = list(
    Q,
    () => ({ u: owner.id }),
    (d) => d.user.ticketRecommendation.charts,
    (n) => String(n.chartId),
    () => token,
  );
  const expected = () => [charts[1], charts[0], charts[2], charts[3]].map(String);

  beforeAll(async () => {
    owner = await aPublicPlayer(s.db.prisma);
    token = await s.tokenFor(owner.id);
    charts = (await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 5, select: { id: true } })).map(
      (c) => c.id,
    );
    // scores 80, 90, 80, 10 on charts 0..3 → 90 (chart 1), the two 80s by chart id (0, 2), 10 (chart 3)
    for (const [i, score] of [80, 90, 80, 10].entries())
      await s.db.prisma.arrangementScore.create({
        data: { chartId: charts[i], pattern: '2641753', score, chartMax: 100 },
      });
  });

  it('(a) forward', () => forwardAll(l, expected()));
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: false }));
  it('(b) a higher-scored chart between two fetches', () =>
    insertAhead(
      l,
      expected(),
      async () =>
        void (await s.db.prisma.arrangementScore.create({
          data: { chartId: charts[4], pattern: '2641753', score: 99, chartMax: 100 },
        })),
    ));
});

describe('recentSongNotes (LATEST: createdAt DESC, id DESC)', () => {
  const Q = `query($first: Int, $after: String) { recentSongNotes(first: $first, after: $after) { totalCount ${PAGE_INFO} edges { cursor node { body } } } }`;
  const l = list(
    Q,
    () => ({}),
    (d) => d.recentSongNotes,
    (n) => n.body,
    () => undefined,
  );
  let author: User;

  beforeAll(async () => {
    author = await aPublicPlayer(s.db.prisma);
    for (const d of ['01', '02', '03'])
      await s.db.prisma.songNote.create({
        data: { chartId: chart.id, authorId: author.id, body: `note ${d}`, createdAt: day(`2026-01-${d}`) },
      });
  });

  it('(a) forward: 03, 02, 01', () => forwardAll(l, ['note 03', 'note 02', 'note 01']));
  it('(a) AUTHOR_BPI: a fractional author total round-trips in the cursor (one author: by createdAt)', async () => {
    await aVersionStatus(s.db.prisma, author, '33', { totalBpi: 12.375 });
    const byBpi = list(
      Q.replace('recentSongNotes(first', 'recentSongNotes(sort: AUTHOR_BPI, first'),
      () => ({}),
      (d) => d.recentSongNotes,
      (n) => n.body,
      () => undefined,
    );
    await forwardAll(byBpi, ['note 03', 'note 02', 'note 01']);
    // a forged key far beyond the integer range (a float in the cursor's number part) is compared, never a 500
    const byVotes = list(
      Q.replace('recentSongNotes(first', 'recentSongNotes(sort: UPVOTES, first'),
      () => ({}),
      (d) => d.recentSongNotes,
      (n) => n.body,
      () => undefined,
    );
    const forged = Buffer.from(JSON.stringify(['songNotes:UPVOTES', '1e300', '2026-01-09T00:00:00.000Z', 1])).toString(
      'base64url',
    );
    const r = await byVotes.fetch({ first: 5, after: forged });
    expect(r.ids).toEqual(['note 03', 'note 02', 'note 01']); // every note has fewer than 1e300 upvotes
  });
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: false }));
  it('(b) a newer note between two fetches', () =>
    insertAhead(l, ['note 03', 'note 02', 'note 01'], async () => {
      await s.db.prisma.songNote.create({
        data: { chartId: chart.id, authorId: author.id, body: 'note 04', createdAt: day('2026-01-04') },
      });
    }));
});

// ───────────── popular charts, the song master list ─────────────

describe('popularCharts (level 11: player count DESC, chart id; FEWEST: ASC, chart id)', () => {
  let c: number[];
  const Q = `query($order: ChartPopularityOrder, ${PAGE_VARS}) { popularCharts(level: 11, order: $order, ${PAGE_ARGS}) { totalCount ${PAGE_INFO} edges { cursor node { playerCount chart { databaseId } } } } }`;
  const most = list(
    Q,
    () => ({ order: 'MOST' }),
    (d) => d.popularCharts,
    (n) => `${n.chart.databaseId}:${n.playerCount}`,
    () => undefined,
  );
  const fewest = list(
    Q,
    () => ({ order: 'FEWEST' }),
    (d) => d.popularCharts,
    (n) => `${n.chart.databaseId}:${n.playerCount}`,
    () => undefined,
  );

  beforeAll(async () => {
    c = (
      await s.db.prisma.chart.findMany({ where: { level: 11 }, orderBy: { id: 'asc' }, take: 3, select: { id: true } })
    ).map((x) => x.id);
    // players: c0 2, c1 3, c2 2 (no other level-11 bests in this file before this block runs)
    const players = await Promise.all([0, 1, 2].map(() => aPublicPlayer(s.db.prisma)));
    for (const [chartId, n] of [
      [c[0], 2],
      [c[1], 3],
      [c[2], 2],
    ] as const)
      for (const p of players.slice(0, n)) await aSongBestScore(s.db.prisma, p, chartId, 1000);
  });

  // MOST: c1 (3), then the two 2s by chart id: c0, c2. FEWEST: c0 (2), c2 (2), c1 (3)
  it('(a) forward, both orders', async () => {
    await forwardAll(most, [`${c[1]}:3`, `${c[0]}:2`, `${c[2]}:2`]);
    await forwardAll(fewest, [`${c[0]}:2`, `${c[2]}:2`, `${c[1]}:3`]);
  });
  it('(c) backward', () => backwardAll(most, [`${c[1]}:3`, `${c[0]}:2`, `${c[2]}:2`]));
  it('(b) a chart with more players (ahead) between two fetches (the per-process counts dropped)', async () => {
    const c3 = (
      await s.db.prisma.chart.findMany({
        where: { level: 11 },
        orderBy: { id: 'asc' },
        skip: 3,
        take: 1,
        select: { id: true },
      })
    )[0].id;
    await insertAhead(most, [`${c[1]}:3`, `${c[0]}:2`, `${c[2]}:2`], async () => {
      for (let k = 0; k < 4; k++) await aSongBestScore(s.db.prisma, await aPublicPlayer(s.db.prisma), c3, 1000); // 4 players: first now
      dropPopularityCounts(s.app.catalogue);
    });
    expect((await most.fetch({ first: 1 })).ids).toEqual([`${c3}:4`]);
  });
  it('(d) bad cursors; a MOST cursor is foreign to FEWEST', async () => {
    await refusesBadCursors(most, { backward: true });
    const p = await most.fetch({ first: 1 });
    expect(codeAndPath((await fewest.fetch({ first: 1, after: p.info.endCursor })).raw)).toEqual([
      'BAD_USER_INPUT',
      'after',
    ]);
  });
});

describe('userSongs (the BPI master list: title, SP before DP, difficulty, id)', () => {
  let u: User;
  const Q = `query($u: ID!, $first: Int, $after: String) { userSongs(userId: $u, first: $first, after: $after) { totalCount ${PAGE_INFO} edges { cursor node { chart { databaseId level song { title } } } } } }`;
  const l = list(
    Q,
    () => ({ u: u.id }),
    (d) => d.userSongs,
    (n) => n.chart.databaseId,
    () => undefined,
  );

  beforeAll(async () => {
    u = await aPublicPlayer(s.db.prisma);
  });

  it('(a) pages of 50 give every level 11/12 chart once, titles in order', async () => {
    const seen: any[] = [];
    let after: string | null = null;
    let total = 0;
    for (let i = 0; i < 100; i++) {
      const r: any = await s.gql<any>(Q, { u: u.id, first: 50, after });
      const c: any = (expectNoErrors(r) as any).userSongs;
      total = c.totalCount;
      seen.push(...c.edges.map((e: any) => e.node.chart));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(total).toBeGreaterThan(0);
    expect(seen.length).toBe(total);
    expect(new Set(seen.map((x) => x.databaseId)).size).toBe(total);
    expect(seen.every((x) => x.level === 11 || x.level === 12)).toBe(true);
    const titles = seen.map((x) => x.song.title);
    expect(titles.every((t, i) => i === 0 || titles[i - 1] <= t)).toBe(true);
  });
  it('(d) bad cursors', () => refusesBadCursors(l, { backward: false }));
});
