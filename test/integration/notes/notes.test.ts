import { toGlobalId } from '../../../src/graphql/global-id';
import Ajv from 'ajv';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { aPublicPlayer } from '../../helpers/factories';
import type { User } from '../../../src/generated/prisma/client';

let s: TestServer;
let chartA: number;
let chartB: number;
let alice: User;
let bob: User;
let carol: User;
let aliceToken: string;
let bobToken: string;

const POST = `mutation($chartId: ID!, $body: String!) { postSongNote(chartId: $chartId, body: $body) { note { id: databaseId body authorTotalBpi upvoteCount upvoted editable createdAt updatedAt chartId } } }`;
const LIST = `query($chartId: ID!, $sort: SongNoteSort, $first: Int, $after: String) {
  songNotes(chartId: $chartId, sort: $sort, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
    edges { cursor node { id: databaseId body upvoteCount upvoted editable authorTotalBpi } }
  } }`;
const UPVOTE = `mutation($id: ID!) { upvoteSongNote(id: $id) { upvoteCount upvoted changed note { id: databaseId upvoteCount upvoted } } }`;
const CANCEL = `mutation($id: ID!) { cancelSongNoteUpvote(id: $id) { upvoteCount upvoted changed } }`;

async function post(token: string, chartId: number, body: string): Promise<number> {
  const d = expectNoErrors(await s.gql(POST, { chartId: String(chartId), body }, token)) as any;
  return Number(d.postSongNote.note.id);
}

beforeAll(async () => {
  s = await startTestServer();
  const charts = await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 2 });
  [chartA, chartB] = charts.map((c) => c.id);
  alice = await aPublicPlayer(s.db.prisma);
  bob = await aPublicPlayer(s.db.prisma);
  carol = await aPublicPlayer(s.db.prisma);
  await s.db.prisma.playerVersionStatus.create({ data: { userId: alice.id, version: '33', totalBpi: 42.5 } });
  await s.db.prisma.playerVersionStatus.create({ data: { userId: bob.id, version: '32', totalBpi: 10 } });
  aliceToken = await s.tokenFor(alice.id);
  bobToken = await s.tokenFor(bob.id);
});
afterAll(() => s.close());

describe('song notes: posting', () => {
  it('trims the body and records the author’s latest-version total BPI (null without one)', async () => {
    const a = expectNoErrors(
      await s.gql(POST, { chartId: String(chartA), body: '  use R-RANDOM  ' }, aliceToken),
    ) as any;
    expect(a.postSongNote.note).toMatchObject({
      body: 'use R-RANDOM',
      authorTotalBpi: 42.5,
      upvoteCount: 0,
      upvoted: false,
      editable: true,
      chartId: chartA,
    });
    expect(a.postSongNote.note.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // bob has a status only for an older version: null, not the old value
    const b = expectNoErrors(await s.gql(POST, { chartId: String(chartA), body: 'x' }, bobToken)) as any;
    expect(b.postSongNote.note.authorTotalBpi).toBeNull();
  });

  it('rejects empty, whitespace-only and over-long bodies; accepts exactly 2000 characters', async () => {
    for (const body of ['', '   \n\t ']) {
      const r = await s.gql(POST, { chartId: String(chartA), body }, aliceToken);
      expect(r.body.errors![0]).toMatchObject({ message: 'body is required', extensions: { code: 'BAD_USER_INPUT' } });
    }
    const long = await s.gql(POST, { chartId: String(chartA), body: 'x'.repeat(2001) }, aliceToken);
    expect(long.body.errors![0]).toMatchObject({
      message: 'body too long (max 2000)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const ok = expectNoErrors(
      await s.gql(POST, { chartId: String(chartA), body: ` ${'y'.repeat(2000)} ` }, aliceToken),
    ) as any;
    expect(ok.postSongNote.note.body).toHaveLength(2000);
  });

  it('needs a signed-in caller and an existing chart', async () => {
    const anon = await s.gql(POST, { chartId: String(chartA), body: 'hi' });
    expect(anon.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    const missing = await s.gql(POST, { chartId: '99999999', body: 'hi' }, aliceToken);
    expect(missing.body.errors![0].extensions.code).toBe('NOT_FOUND');
    const bad = await s.gql(POST, { chartId: 'abc', body: 'hi' }, aliceToken);
    expect(bad.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('never exposes the author (no author field on SongNote)', async () => {
    const r = await s.gql(`{ songNotes(chartId: "${chartA}") { edges { node { id author { id } } } } }`);
    expect(r.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const r2 = await s.gql(`{ songNotes(chartId: "${chartA}") { edges { node { authorId } } } }`);
    expect(r2.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('song notes: authorship', () => {
  it('lets only the author edit or delete (FORBIDDEN otherwise), NOT_FOUND for unknown notes', async () => {
    const id = await post(aliceToken, chartB, 'original');
    const EDIT = `mutation($id: ID!, $body: String!) { editSongNote(id: $id, body: $body) { note { id: databaseId body editable updatedAt createdAt } } }`;
    const DEL = `mutation($id: ID!) { deleteSongNote(id: $id) { id deleted } }`;
    const byBob = await s.gql(EDIT, { id: String(id), body: 'hacked' }, bobToken);
    expect(byBob.body.errors![0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    const delByBob = await s.gql(DEL, { id: String(id) }, bobToken);
    expect(delByBob.body.errors![0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    const anon = await s.gql(EDIT, { id: String(id), body: 'anon' });
    expect(anon.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    // body rules apply before the existence check
    const emptyEdit = await s.gql(EDIT, { id: '99999999', body: ' ' }, aliceToken);
    expect(emptyEdit.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const unknown = await s.gql(EDIT, { id: '99999999', body: 'x' }, aliceToken);
    expect(unknown.body.errors![0].extensions.code).toBe('NOT_FOUND');

    const edited = expectNoErrors(await s.gql(EDIT, { id: String(id), body: '  better  ' }, aliceToken)) as any;
    expect(edited.editSongNote.note).toMatchObject({ body: 'better', editable: true });
    expect(new Date(edited.editSongNote.note.updatedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(edited.editSongNote.note.createdAt).getTime(),
    );
    const stored = await s.db.prisma.songNote.findUniqueOrThrow({ where: { id } });
    expect(stored.body).toBe('better');

    // editable is per viewer
    const list = expectNoErrors(await s.gql(LIST, { chartId: String(chartB) }, bobToken)) as any;
    expect(list.songNotes.edges.find((e: any) => Number(e.node.id) === id).node.editable).toBe(false);

    await s.db.prisma.songNoteUpvote.create({ data: { noteId: id, userId: bob.id } });
    expect(expectNoErrors(await s.gql(DEL, { id: String(id) }, aliceToken))).toEqual({
      deleteSongNote: { id: toGlobalId('SongNote', id), deleted: true },
    });
    expect(await s.db.prisma.songNote.count({ where: { id } })).toBe(0);
    expect(await s.db.prisma.songNoteUpvote.count({ where: { noteId: id } })).toBe(0);
    const again = await s.gql(DEL, { id: String(id) }, aliceToken);
    expect(again.body.errors![0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('song notes: upvotes', () => {
  it('counts one upvote per user; a double upvote is an idempotent no-op; cancel works once', async () => {
    const id = await post(aliceToken, chartB, 'upvote me');
    const first = expectNoErrors(await s.gql(UPVOTE, { id: String(id) }, bobToken)) as any;
    expect(first.upvoteSongNote).toMatchObject({
      upvoteCount: 1,
      upvoted: true,
      changed: true,
      note: { upvoteCount: 1, upvoted: true },
    });
    const second = expectNoErrors(await s.gql(UPVOTE, { id: String(id) }, bobToken)) as any;
    expect(second.upvoteSongNote).toMatchObject({ upvoteCount: 1, upvoted: true, changed: false });
    // self-upvote is allowed (as the reference)
    const self = expectNoErrors(await s.gql(UPVOTE, { id: String(id) }, aliceToken)) as any;
    expect(self.upvoteSongNote.upvoteCount).toBe(2);
    const cancel = expectNoErrors(await s.gql(CANCEL, { id: String(id) }, bobToken)) as any;
    expect(cancel.cancelSongNoteUpvote).toEqual({ upvoteCount: 1, upvoted: false, changed: true });
    const cancel2 = expectNoErrors(await s.gql(CANCEL, { id: String(id) }, bobToken)) as any;
    expect(cancel2.cancelSongNoteUpvote).toEqual({ upvoteCount: 1, upvoted: false, changed: false });
    const note = await s.db.prisma.songNote.findUniqueOrThrow({ where: { id } });
    expect(note.upvoteCount).toBe(await s.db.prisma.songNoteUpvote.count({ where: { noteId: id } }));
    // upvoted per viewer in lists
    const list = expectNoErrors(await s.gql(LIST, { chartId: String(chartB) }, aliceToken)) as any;
    expect(list.songNotes.edges.find((e: any) => Number(e.node.id) === id).node.upvoted).toBe(true);
    const anonList = expectNoErrors(await s.gql(LIST, { chartId: String(chartB) })) as any;
    expect(anonList.songNotes.edges.every((e: any) => e.node.upvoted === false && e.node.editable === false)).toBe(
      true,
    );
    const unknown = await s.gql(UPVOTE, { id: '99999999' }, bobToken);
    expect(unknown.body.errors![0].extensions.code).toBe('NOT_FOUND');
    const anon = await s.gql(UPVOTE, { id: String(id) });
    expect(anon.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('an upvote does not move updatedAt (it is the body’s edit time)', async () => {
    const id = await post(aliceToken, chartB, 'timestamps');
    const before = await s.db.prisma.songNote.findUniqueOrThrow({ where: { id } });
    expectNoErrors(await s.gql(UPVOTE, { id: String(id) }, bobToken));
    const after = await s.db.prisma.songNote.findUniqueOrThrow({ where: { id } });
    expect(after.updatedAt.toISOString()).toBe(before.updatedAt.toISOString());
    expect(after.upvoteCount).toBe(1);
  });

  it('N concurrent upvotes from N users give exactly N; concurrent double upvotes by one user give 1', async () => {
    const id = await post(aliceToken, chartA, 'popular');
    const N = 12;
    const users = await Promise.all(Array.from({ length: N }, () => aPublicPlayer(s.db.prisma)));
    const tokens = await Promise.all(users.map((u) => s.tokenFor(u.id)));
    const results = await Promise.all(tokens.map((t) => s.gql(UPVOTE, { id: String(id) }, t)));
    results.forEach((r) => expectNoErrors(r));
    expect((await s.db.prisma.songNote.findUniqueOrThrow({ where: { id } })).upvoteCount).toBe(N);
    // the same user racing with itself
    const dup = await Promise.all(Array.from({ length: 5 }, () => s.gql(UPVOTE, { id: String(id) }, bobToken)));
    dup.forEach((r) => expectNoErrors(r));
    expect(dup.filter((r) => r.body.data.upvoteSongNote.changed)).toHaveLength(1);
    expect((await s.db.prisma.songNote.findUniqueOrThrow({ where: { id } })).upvoteCount).toBe(N + 1);
    // concurrent cancels: back to exactly 1 (bob's)
    const cancels = await Promise.all(tokens.map((t) => s.gql(CANCEL, { id: String(id) }, t)));
    cancels.forEach((r) => expectNoErrors(r));
    expect((await s.db.prisma.songNote.findUniqueOrThrow({ where: { id } })).upvoteCount).toBe(1);
  });
});

describe('song notes: ordering and pagination', () => {
  let chart: number;
  let ids: number[];
  beforeAll(async () => {
    chart = (await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, skip: 5, take: 1 }))[0].id;
    // five notes with distinct, known times; upvotes 0, 2, 1, 2, 0
    const base = Date.UTC(2026, 0, 1);
    ids = [];
    for (let i = 0; i < 5; i++) {
      const n = await s.db.prisma.songNote.create({
        data: {
          chartId: chart,
          authorId: carol.id,
          body: `note ${i}`,
          createdAt: new Date(base + i * 60_000),
          upvoteCount: [0, 2, 1, 2, 0][i],
        },
      });
      ids.push(n.id);
    }
  });

  it('LATEST: newest first, with keyset pages and exact edges', async () => {
    const p1 = expectNoErrors(await s.gql(LIST, { chartId: String(chart), first: 2 })) as any;
    expect(p1.songNotes.totalCount).toBe(5);
    expect(p1.songNotes.edges.map((e: any) => Number(e.node.id))).toEqual([ids[4], ids[3]]);
    expect(p1.songNotes.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const p2 = expectNoErrors(
      await s.gql(LIST, { chartId: String(chart), first: 2, after: p1.songNotes.pageInfo.endCursor }),
    ) as any;
    expect(p2.songNotes.edges.map((e: any) => Number(e.node.id))).toEqual([ids[2], ids[1]]);
    const p3 = expectNoErrors(
      await s.gql(LIST, { chartId: String(chart), first: 2, after: p2.songNotes.pageInfo.endCursor }),
    ) as any;
    expect(p3.songNotes.edges.map((e: any) => Number(e.node.id))).toEqual([ids[0]]);
    expect(p3.songNotes.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    // exactly full last page: no phantom next page
    const exact = expectNoErrors(await s.gql(LIST, { chartId: String(chart), first: 5 })) as any;
    expect(exact.songNotes.edges).toHaveLength(5);
    expect(exact.songNotes.pageInfo.hasNextPage).toBe(false);
  });

  it('UPVOTES: most upvoted first, ties newest first, pages without gaps or repeats', async () => {
    const want = [ids[3], ids[1], ids[2], ids[4], ids[0]];
    const got: number[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const p = expectNoErrors(await s.gql(LIST, { chartId: String(chart), sort: 'UPVOTES', first: 2, after })) as any;
      got.push(...p.songNotes.edges.map((e: any) => Number(e.node.id)));
      if (!p.songNotes.pageInfo.hasNextPage) break;
      after = p.songNotes.pageInfo.endCursor;
    }
    expect(got).toEqual(want);
  });

  it('refuses page sizes outside 1–100 and garbage cursors', async () => {
    for (const first of [0, 101, -1]) {
      const r = await s.gql(LIST, { chartId: String(chart), first });
      expect(r.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    }
    const r = await s.gql(LIST, { chartId: String(chart), after: 'nope' });
    expect(r.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const cross = expectNoErrors(await s.gql(LIST, { chartId: String(chart), first: 1 })) as any;
    const wrongSort = await s.gql(LIST, {
      chartId: String(chart),
      sort: 'UPVOTES',
      after: cross.songNotes.pageInfo.endCursor,
    });
    expect(wrongSort.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const unknownChart = await s.gql(LIST, { chartId: '99999999' });
    expect(unknownChart.body.errors![0].extensions.code).toBe('NOT_FOUND');
  });

  it('loads upvoted flags and charts through loaders (statement count does not grow with the page)', async () => {
    const Q = `query($first: Int) { recentSongNotes(first: $first) { edges { node { id: databaseId upvoted editable chart { id: databaseId level song { title } } } } } }`;
    s.sql.reset();
    expectNoErrors(await s.gql(Q, { first: 2 }, bobToken));
    const small = s.sql.count;
    s.sql.reset();
    expectNoErrors(await s.gql(Q, { first: 20 }, bobToken));
    expect(s.sql.count).toBe(small);
  });
});

describe('Chart.songNotes (batched across charts)', () => {
  const Q = `query($first: Int, $n: Int, $sort: SongNoteSort) { songs(first: $first) { edges { node { charts {
    id songNotes(first: $n, sort: $sort) { totalCount pageInfo { hasNextPage } edges { node { id: databaseId upvoted } } } } } } } }`;

  it('matches songNotes for every chart, in a constant number of statements', async () => {
    // notes on several charts of the first songs
    const songs = await s.db.prisma.song.findMany({
      orderBy: [{ title: 'asc' }, { id: 'asc' }],
      take: 6,
      include: { charts: true },
    });
    let k = 0;
    for (const song of songs)
      for (const c of song.charts.slice(0, 2))
        for (let i = 0; i <= k % 3; i++) {
          await s.db.prisma.songNote.create({
            data: { chartId: c.id, authorId: carol.id, body: `c${c.id} n${i}`, upvoteCount: (k + i) % 4 },
          });
          k++;
        }
    s.sql.reset();
    const small = expectNoErrors(await s.gql(Q, { first: 2, n: 2, sort: 'UPVOTES' }, bobToken)) as any;
    const smallCount = s.sql.count;
    s.sql.reset();
    const big = expectNoErrors(await s.gql(Q, { first: 6, n: 2, sort: 'UPVOTES' }, bobToken)) as any;
    expect(s.sql.count).toBe(smallCount);
    expect(big.songs.edges.slice(0, 2)).toEqual(small.songs.edges);
    for (const e of big.songs.edges) {
      for (const c of e.node.charts) {
        const one = expectNoErrors(await s.gql(LIST, { chartId: c.id, sort: 'UPVOTES', first: 2 }, bobToken)) as any;
        expect(c.songNotes.totalCount).toBe(one.songNotes.totalCount);
        expect(c.songNotes.pageInfo.hasNextPage).toBe(one.songNotes.pageInfo.hasNextPage);
        expect(c.songNotes.edges.map((x: any) => x.node.id)).toEqual(one.songNotes.edges.map((x: any) => x.node.id));
      }
    }
    expect(big.songs.edges.some((e: any) => e.node.charts.some((c: any) => c.songNotes.totalCount > 0))).toBe(true);
    const bad = await s.gql(Q, { first: 1, n: 101 });
    expect(bad.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('recent song notes (GraphQL and REST)', () => {
  const schema = {
    type: 'array',
    items: {
      type: 'object',
      additionalProperties: false,
      required: [
        'id',
        'body',
        'authorTotalBpi',
        'upvoteCount',
        'upvoted',
        'editable',
        'createdAt',
        'updatedAt',
        'songId',
        'songTitle',
        'difficulty',
        'difficultyLevel',
      ],
      properties: {
        id: { type: 'integer' },
        body: { type: 'string' },
        authorTotalBpi: { type: ['number', 'null'] },
        upvoteCount: { type: 'integer', minimum: 0 },
        upvoted: { type: 'boolean' },
        editable: { type: 'boolean' },
        createdAt: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' },
        updatedAt: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' },
        songId: { type: 'integer' },
        songTitle: { type: 'string' },
        difficulty: { type: 'string', enum: ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'] },
        difficultyLevel: { type: 'integer', minimum: 1, maximum: 12 },
      },
    },
  };
  const validate = new Ajv({ allErrors: true }).compile(schema);

  beforeAll(async () => {
    // enough notes for two full REST pages and a partial third
    const rows = Array.from({ length: 45 }, (_, i) => ({
      chartId: chartA,
      authorId: carol.id,
      body: `bulk ${i}`,
      createdAt: new Date(Date.UTC(2025, 0, 1) + i * 1000),
    }));
    await s.db.prisma.songNote.createMany({ data: rows });
  });

  it('REST: the reference shape (JSON schema), 20 per page, page 0-based, newest first', async () => {
    await post(aliceToken, chartB, 'the newest note');
    const total = await s.db.prisma.songNote.count();
    const p0 = await s.get('/api/v1/songs/notes/recent', aliceToken);
    expect(p0.status).toBe(200);
    expect(p0.headers.get('content-type')).toContain('application/json');
    expect(validate(p0.body)).toBe(true);
    expect(validate.errors ?? null).toBeNull();
    expect(p0.body).toHaveLength(20);
    const times = p0.body.map((n: any) => Date.parse(n.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // editable / upvoted per caller; the chart's names are the catalogue's
    const mine = p0.body.find((n: any) => n.editable);
    expect(mine).toBeDefined();
    const note = await s.db.prisma.songNote.findUniqueOrThrow({
      where: { id: mine.id },
      include: { chart: { include: { song: true } } },
    });
    expect(note.authorId).toBe(alice.id);
    expect(mine).toMatchObject({
      songId: note.chartId,
      songTitle: note.chart.song.title,
      difficulty: note.chart.difficulty,
      difficultyLevel: note.chart.level,
    });
    const explicit = await s.get('/api/v1/songs/notes/recent?sort=latest&page=0', aliceToken);
    expect(explicit.body).toEqual(p0.body);
    const p1 = await s.get('/api/v1/songs/notes/recent?page=1');
    expect(p1.body).toHaveLength(20);
    expect(p1.body[0].id).not.toBe(p0.body[0].id);
    expect(new Set([...p0.body, ...p1.body].map((n: any) => n.id)).size).toBe(40);
    const last = await s.get(`/api/v1/songs/notes/recent?page=${Math.floor(total / 20)}`);
    expect(last.body).toHaveLength(total % 20);
    const beyond = await s.get('/api/v1/songs/notes/recent?page=999');
    expect(beyond).toMatchObject({ status: 200, body: [] });
    // anonymous caller: nothing is editable or upvoted, and no author is named anywhere
    expect(p1.body.every((n: any) => n.editable === false && n.upvoted === false)).toBe(true);
    expect(JSON.stringify(p0.body)).not.toContain(alice.id);
    expect(JSON.stringify(p0.body)).not.toContain(alice.name);
  });

  it('REST: sort=upvotes matches GraphQL UPVOTES order', async () => {
    const rest = await s.get('/api/v1/songs/notes/recent?sort=upvotes&page=0');
    expect(validate(rest.body)).toBe(true);
    const counts = rest.body.map((n: any) => n.upvoteCount);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    const gql = expectNoErrors(
      await s.gql(`{ recentSongNotes(sort: UPVOTES, page: 0) { edges { node { id: databaseId } } } }`),
    ) as any;
    expect(gql.recentSongNotes.edges.map((e: any) => Number(e.node.id))).toEqual(rest.body.map((n: any) => n.id));
  });

  it('REST: bad sort or page → 400 {message, errors}; other methods → 405', async () => {
    for (const q of ['sort=best', 'page=-1', 'page=abc', 'page=1.5', 'sort=latest&page=x']) {
      const r = await s.get(`/api/v1/songs/notes/recent?${q}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        message: 'Invalid parameters',
        errors: [expect.objectContaining({ path: expect.any(Array), message: expect.any(String) })],
      });
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await fetch(`${s.url}/api/v1/songs/notes/recent`, { method });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toContain('GET');
    }
  });

  it('GraphQL: page and after agree; negative pages are refused', async () => {
    const byPage = expectNoErrors(
      await s.gql(`{ recentSongNotes(page: 1, first: 20) { edges { node { id: databaseId } } } }`),
    ) as any;
    const p0 = expectNoErrors(await s.gql(`{ recentSongNotes(first: 20) { pageInfo { endCursor } } }`)) as any;
    const byCursor = expectNoErrors(
      await s.gql(`query($a: String) { recentSongNotes(first: 20, after: $a) { edges { node { id: databaseId } } } }`, {
        a: p0.recentSongNotes.pageInfo.endCursor,
      }),
    ) as any;
    expect(byPage.recentSongNotes.edges).toEqual(byCursor.recentSongNotes.edges);
    const neg = await s.gql(`{ recentSongNotes(page: -1) { totalCount } }`);
    expect(neg.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe("song notes: the author's total BPI is live, and AUTHOR_BPI sorts by it", () => {
  it('orders by the current total (none last, then newest), shows it live, pages with a keyset cursor', async () => {
    // a chart of its own: notes by dave (total 30), erin (60), frank (no total), gina (30, newer than dave's)
    const chart = (
      await s.db.prisma.chart.findFirstOrThrow({ where: { notesList: { none: {} } }, orderBy: { id: 'desc' } })
    ).id;
    const [dave, erin, frank, gina] = await Promise.all([1, 2, 3, 4].map(() => aPublicPlayer(s.db.prisma)));
    await s.db.prisma.playerVersionStatus.createMany({
      data: [
        { userId: dave.id, version: '33', totalBpi: 30 },
        { userId: erin.id, version: '33', totalBpi: 60 },
        { userId: gina.id, version: '33', totalBpi: 30 },
      ],
    });
    const t = Date.now();
    const note = async (u: User, body: string, ageMs: number) =>
      (
        await s.db.prisma.songNote.create({
          data: { chartId: chart, authorId: u.id, body, authorTotalBpi: -15, createdAt: new Date(t - ageMs) },
        })
      ).id;
    const dn = await note(dave, 'dave', 4000);
    const en = await note(erin, 'erin', 3000);
    const fn = await note(frank, 'frank', 2000);
    const gn = await note(gina, 'gina', 1000);
    const Q = `query($c: ID!, $first: Int, $after: String) { songNotes(chartId: $c, sort: AUTHOR_BPI, first: $first, after: $after) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { id: databaseId authorTotalBpi authorTotalBpiAtPosting } } } }`;
    const all = (expectNoErrors(await s.gql(Q, { c: String(chart), first: 10 })) as any).songNotes;
    // erin 60 > gina 30 (newer) > dave 30 (older) > frank (none: last)
    expect(
      all.edges.map((e: any) => [Number(e.node.id), e.node.authorTotalBpi, e.node.authorTotalBpiAtPosting]),
    ).toEqual([
      [en, 60, -15],
      [gn, 30, -15],
      [dn, 30, -15],
      [fn, null, -15],
    ]);
    // pages of 2 walk the same order
    const p1 = (expectNoErrors(await s.gql(Q, { c: String(chart), first: 2 })) as any).songNotes;
    const p2 = (expectNoErrors(await s.gql(Q, { c: String(chart), first: 2, after: p1.pageInfo.endCursor })) as any)
      .songNotes;
    expect([...p1.edges, ...p2.edges].map((e: any) => Number(e.node.id))).toEqual([en, gn, dn, fn]);
    expect(p2.pageInfo.hasNextPage).toBe(false);
    // live: frank's total appears, dave's rises above erin's — the next read shows and sorts by it
    await s.db.prisma.playerVersionStatus.create({ data: { userId: frank.id, version: '33', totalBpi: 45 } });
    await s.db.prisma.playerVersionStatus.update({
      where: { userId_version: { userId: dave.id, version: '33' } },
      data: { totalBpi: 70 },
    });
    const live = (expectNoErrors(await s.gql(Q, { c: String(chart), first: 10 })) as any).songNotes;
    expect(live.edges.map((e: any) => [Number(e.node.id), e.node.authorTotalBpi])).toEqual([
      [dn, 70],
      [en, 60],
      [fn, 45],
      [gn, 30],
    ]);
    // the site-wide feed sorts the same way: these four authors' totals (70, 60, 45) lead, then alice's 42.5
    // (the other authors of this file have none in the latest version)
    const feed = (
      expectNoErrors(
        await s.gql(
          '{ recentSongNotes(sort: AUTHOR_BPI, first: 4) { edges { node { id: databaseId authorTotalBpi } } } }',
        ),
      ) as any
    ).recentSongNotes;
    expect(feed.edges.map((e: any) => [Number(e.node.id), e.node.authorTotalBpi])).toEqual([
      [dn, 70],
      [en, 60],
      [fn, 45],
      [expect.any(Number), 42.5],
    ]);
    // REST keeps its shape and shows the live total
    const rest = await s.get('/api/v1/songs/notes/recent?sort=latest&page=0');
    const restDave = (rest.body as any[]).find((n) => n.id === dn);
    if (restDave) expect(restDave.authorTotalBpi).toBe(70);
    // a cursor of another sort is refused
    const bad = await s.gql(Q, { c: String(chart), after: Buffer.from('x').toString('base64url') });
    expect(bad.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
