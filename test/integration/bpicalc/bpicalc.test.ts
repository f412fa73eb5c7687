import { startTestServer, type TestServer } from '../../helpers/server';
import { describeWithShared, readSharedJson } from '../../helpers/shared-data';
import { aPlayer, withBestScore } from '../../helpers/factories';
import { updateDefinitions } from '../../../src/modules/catalogue/definitions.service';
import { importOfficialArena, recomputeArenaAverages } from '../../../src/modules/arena/arena.service';

/** The formula of ../shared/spec/bpi.md, written out again independently of src/domain/bpi. */
function referenceBpi(
  s: number,
  notes: number,
  k: number | null,
  z: number | null,
  coef: number | null,
): number | null {
  const m = notes * 2;
  if (!k || !z || k <= 0 || z <= 0 || s < 0) return -15;
  const p = coef && coef > 0 ? coef : 1.175;
  const f = (x: number) => (x === m ? m * 0.8 : 0.5 / (1 - x / m));
  const S = f(s) / f(k);
  const Z = f(z) / f(k);
  if (Math.abs(Math.log(Z)) < 1e-5) return 0;
  // step 4 as corrected: the power of the absolute value, the sign from s ≥ k alone (charts whose average is above the record)
  const b = (s >= k ? 100 : -100) * Math.pow(Math.abs(Math.log(S) / Math.log(Z)), p);
  if (Number.isNaN(b)) return null; // "no value", never a number
  return Math.max(-15, Math.round(b * 100) / 100);
}

const calc = (s: TestServer, q: Record<string, string | number | undefined>) =>
  s.get(
    `/api/v1/bpi/calc?${new URLSearchParams(Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString()}`,
  );

const CODES: Record<string, string> = { '3': 'HYPER', '4': 'ANOTHER', '10': 'LEGGENDARIA' };

describeWithShared(
  'data/definitions/definitions-202509156.json',
  'REST /api/v1/bpi/calc on the real 202509156 definitions',
  (file) => {
    let s: TestServer;
    let doc: any;
    beforeAll(async () => {
      s = await startTestServer({ seedDemo: false });
      doc = readSharedJson(file);
      await updateDefinitions(s.app, doc, undefined, { startRecompute: false });
    }, 120_000);
    afterAll(() => s.close());

    it('returns the formula’s BPI for every SP chart (three scores each)', async () => {
      const num = (v: unknown) => (v === undefined || v === null || Number(v) <= 0 ? null : Number(v));
      const seen = new Set<string>();
      const cases: {
        title: string;
        difficulty: string;
        level: number;
        notes: number;
        ex: number;
        k: number | null;
        z: number | null;
        coef: number | null;
      }[] = [];
      for (const e of doc.body) {
        const difficulty = CODES[e.difficulty];
        if (!difficulty || e.removed || seen.has(`${e.title}|${difficulty}`)) continue;
        seen.add(`${e.title}|${difficulty}`);
        const notes = Number(e.notes);
        const [k, z, coef] = [num(e.avg), num(e.wr), num(e.coef)];
        for (const ex of [Math.floor(notes * 1.6), k ?? notes, z ?? notes * 2]) {
          cases.push({ title: e.title, difficulty, level: Number(e.difficultyLevel), notes, ex, k, z, coef });
        }
      }
      let checked = 0;
      for (let i = 0; i < cases.length; i += 16) {
        await Promise.all(
          cases.slice(i, i + 16).map(async (c) => {
            const res = await calc(s, { title: c.title, difficulty: c.difficulty, exScore: c.ex });
            if (c.ex > c.notes * 2) {
              // the data has world records above the maximum (e.g. MENTAL MELTDOWN [A]): that score is invalid
              expect(res).toMatchObject({ status: 400, body: { message: `exScore exceeds maximum (${c.notes * 2})` } });
              return;
            }
            expect({ title: c.title, status: res.status }).toEqual({ title: c.title, status: 200 });
            expect({ title: c.title, ex: c.ex, bpi: res.body.bpi }).toEqual({
              title: c.title,
              ex: c.ex,
              bpi: referenceBpi(c.ex, c.notes, c.k, c.z, c.coef),
            });
            expect(res.body.song).toEqual({
              title: c.title,
              difficulty: c.difficulty,
              difficultyLevel: c.level,
              notes: c.notes,
            });
            checked++;
          }),
        );
      }
      expect(checked).toBeGreaterThan(3 * 1150);
    }, 300_000);

    it('has the seed’s exact shape, with includeRank off by default', async () => {
      const res = await calc(s, {
        title: "灼熱Beach Side Bunny (かめりあ's \"Summertime D'n'B\" Remix)",
        difficulty: 'ANOTHER',
        exScore: 3000,
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['song', 'bpi', 'rank', 'metadata']);
      expect(res.body.rank).toEqual({
        estimatedRank: Math.ceil(Math.pow(2699, (100 - res.body.bpi) / 100)),
        bpimRank: null,
        bpimTotal: null,
      });
      expect(res.body.metadata).toEqual({ version: '33', arenaAverages: null });
    });

    it('answers removed charts with 404', async () => {
      expect(await calc(s, { title: 'Skreaming for Salvation', difficulty: 'ANOTHER', exScore: 3000 })).toMatchObject({
        status: 404,
        body: { message: 'Song not found' },
      });
    });
  },
);

describe('BPI calculator: errors, ranks, arena averages, GraphQL parity', () => {
  let s: TestServer;
  let chart: { id: number; title: string; difficulty: string; notes: number; level: number };
  beforeAll(async () => {
    s = await startTestServer();
    const c = [...s.app.catalogue.charts()].find(
      (x) => x.playStyle === 'SP' && x.difficulty === 'ANOTHER' && x.level === 12,
    )!;
    chart = { id: c.id, title: c.title, difficulty: c.difficulty, notes: c.notes, level: c.level };
  });
  afterAll(() => s.close());

  it('validates parameters: 400 Invalid parameters with issues', async () => {
    const missing = await calc(s, { difficulty: 'ANOTHER' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Invalid parameters');
    expect(missing.body.errors.map((e: any) => e.path[0]).sort()).toEqual(['exScore', 'title']);
    for (const e of missing.body.errors) expect(Object.keys(e).sort()).toEqual(['code', 'message', 'path']);
    for (const bad of [
      { exScore: -1 },
      { exScore: 'abc' },
      { exScore: 1.5 },
      { difficulty: 'NORMAL' },
      { difficulty: 'another' },
      { version: '99' },
    ]) {
      const res = await calc(s, { title: chart.title, difficulty: 'ANOTHER', exScore: 100, ...bad });
      expect({ bad, status: res.status, message: res.body.message }).toEqual({
        bad,
        status: 400,
        message: 'Invalid parameters',
      });
    }
  });

  it('rejects a score above the maximum, unknown songs and other methods', async () => {
    expect(
      await calc(s, { title: chart.title, difficulty: chart.difficulty, exScore: chart.notes * 2 + 1 }),
    ).toMatchObject({
      status: 400,
      body: { message: `exScore exceeds maximum (${chart.notes * 2})` },
    });
    expect(await calc(s, { title: 'No Such Song', difficulty: 'ANOTHER', exScore: 1 })).toMatchObject({
      status: 404,
      body: { message: 'Song not found' },
    });
    const post = await fetch(`${s.url}/api/v1/bpi/calc`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await post.json()).toEqual({ message: 'Method not allowed' });
  });

  it('ranks among this server’s players with includeRank=true (ties share a rank)', async () => {
    const scores = [2000, 2500, 2500, 2800];
    for (const ex of scores) await withBestScore(s.db.prisma, await aPlayer(s.db.prisma), chart.id, ex);
    await withBestScore(s.db.prisma, await aPlayer(s.db.prisma), chart.id, 2900, { version: '32' });
    const q = { title: chart.title, difficulty: chart.difficulty, includeRank: 'true' };
    expect((await calc(s, { ...q, exScore: 2500 })).body.rank).toMatchObject({ bpimRank: 2, bpimTotal: 4 });
    expect((await calc(s, { ...q, exScore: 2900 })).body.rank).toMatchObject({ bpimRank: 1, bpimTotal: 4 });
    expect((await calc(s, { ...q, exScore: 100 })).body.rank).toMatchObject({ bpimRank: 5, bpimTotal: 4 });
    expect((await calc(s, { ...q, exScore: 100, version: '32' })).body.rank).toMatchObject({
      bpimRank: 2,
      bpimTotal: 1,
    });
    expect((await calc(s, { ...q, exScore: 100, includeRank: 'yes' })).body.rank).toMatchObject({
      bpimRank: null,
      bpimTotal: null,
    });
  });

  it('includeRank on a chart nobody has played in the version: no rank (bpimRank null) of 0 players, not "1 of 0"', async () => {
    // the bests above are in 33 and 32 only; version 31 has none on this chart: total 0, so there is no rank
    const res = await calc(s, {
      title: chart.title,
      difficulty: chart.difficulty,
      exScore: 100,
      version: '31',
      includeRank: 'true',
    });
    expect(res.status).toBe(200);
    expect(res.body.rank).toMatchObject({ bpimRank: null, bpimTotal: 0 });
  });

  it('reports arena-class averages computed from stored bests and imported arena classes, only for classes of at least 5 players', async () => {
    // five A1 players (EX 3001…3005) and one A3 player (EX 2600)
    const a1 = [];
    for (let i = 1; i <= 5; i++) {
      const p = await aPlayer(s.db.prisma, { gameId: `1111000${i}` });
      await withBestScore(s.db.prisma, p, chart.id, 3000 + i);
      a1.push(p);
    }
    const a3 = await aPlayer(s.db.prisma, { gameId: '11110009' });
    await withBestScore(s.db.prisma, a3, chart.id, 2600);
    const snapshot = [
      ...a1.map((_, i) => ({
        id: `1111-000${i + 1}`,
        name: `P${i + 1}`,
        arena_class: 'a1',
        area: '東京都',
        rank: i + 1,
        win: '10勝',
        grade_sp: '皆伝',
        grade_dp: '---',
      })),
      {
        id: '1111-0009',
        name: 'THREE',
        arena_class: 'a3',
        area: '大阪府',
        rank: 1,
        win: '3勝',
        grade_sp: '中伝',
        grade_dp: '---',
      },
      {
        id: '9999-0000',
        name: 'STRANGER',
        arena_class: 'b2',
        area: '大阪府',
        rank: 1,
        win: '1勝',
        grade_sp: '---',
        grade_dp: '---',
      },
    ];
    const report = await importOfficialArena(s.db.prisma, snapshot, '33');
    expect(report).toMatchObject({ players: 7, matchedUsers: 6 });
    expect(
      await s.db.prisma.playerVersionStatus.findUnique({ where: { userId_version: { userId: a3.id, version: '33' } } }),
    ).toMatchObject({
      arenaClass: 'A3',
      bestArenaClass: 'A3',
      area: '大阪府',
      gradeSp: '中伝',
      gradeDp: null,
      arenaRank: 1,
    });
    await recomputeArenaAverages(s.db.prisma, s.app.catalogue, '33');
    s.app.arenaAverages.invalidate('33');
    const res = await calc(s, { title: chart.title, difficulty: chart.difficulty, exScore: 2000 });
    const def = s.app.catalogue.chart(chart.id)!.definition!;
    const max = chart.notes * 2;
    // A1: (3001 + 3002 + 3003 + 3004 + 3005) / 5 = 3003 over 5 players; A3 has one player: no
    // average (it would be that player's score).
    expect(res.body.metadata.arenaAverages).toEqual({
      A1: {
        avgExScore: 3003,
        rate: Math.round((3003 / max) * 10000) / 100,
        count: 5,
        avgBpi: referenceBpi(3003, chart.notes, def.kaidenAvg, def.wr, def.coef),
      },
    });
    const official = await s.gql(`{ officialArena { totalPlayers totalMatched distribution { arenaClass count } } }`);
    expect(official.body.data.officialArena).toMatchObject({ totalPlayers: 7, totalMatched: 6 });
    expect(official.body.data.officialArena.distribution.filter((d: any) => d.count > 0)).toEqual([
      { arenaClass: 'A1', count: 5 },
      { arenaClass: 'A3', count: 1 },
      { arenaClass: 'B2', count: 1 },
    ]);
  });

  it('GraphQL bpiCalc returns the same data as the REST path', async () => {
    const rest = await calc(s, {
      title: chart.title,
      difficulty: chart.difficulty,
      exScore: 2750,
      includeRank: 'true',
    });
    const gql = await s.gql(
      `query($t: String!, $d: Difficulty!, $e: Int!) { bpiCalc(title: $t, difficulty: $d, exScore: $e, includeRank: true) {
        song { title difficulty difficultyLevel notes } bpi rank { estimatedRank bpimRank bpimTotal }
        metadata { version arenaAverages { arenaClass avgExScore rate count avgBpi } } } }`,
      { t: chart.title, d: chart.difficulty, e: 2750 },
    );
    const g = gql.body.data.bpiCalc;
    expect(g.song).toEqual(rest.body.song);
    expect(g.bpi).toBe(rest.body.bpi);
    expect(g.rank).toEqual(rest.body.rank);
    const asObject = Object.fromEntries(g.metadata.arenaAverages.map(({ arenaClass, ...v }: any) => [arenaClass, v]));
    expect(asObject).toEqual(rest.body.metadata.arenaAverages);
    const bad = await s.gql(`{ bpiCalc(title: "x", difficulty: NORMAL, exScore: 1) { bpi } }`);
    expect(bad.body.errors![0]).toMatchObject({
      message: 'Invalid parameters',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const over = await s.gql(`query($t: String!) { bpiCalc(title: $t, difficulty: ANOTHER, exScore: 99999) { bpi } }`, {
      t: chart.title,
    });
    expect(over.body.errors![0]).toMatchObject({
      message: `exScore exceeds maximum (${chart.notes * 2})`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('Chart.arenaAverages exposes the same cached averages', async () => {
    const res = await s.gql(`query($id: ID!) { chart(id: $id) { arenaAverages { arenaClass count } } }`, {
      id: String(chart.id),
    });
    expect(res.body.data.chart.arenaAverages).toEqual([{ arenaClass: 'A1', count: 5 }]); // A3 has one player: no average
  });
});

describe('arena import input errors', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('a document that is not a ranking array is BAD_USER_INPUT and writes nothing', async () => {
    const { anAdmin } = await import('../../helpers/factories');
    const token = await s.tokenFor((await anAdmin(s.db.prisma)).id);
    for (const json of ['33', '{"a":1}', 'null']) {
      const res = await s.gql(
        `mutation($j: String!) { importOfficialArena(json: $j) { players } }`,
        { j: json },
        token,
      );
      expect(res.body.errors[0]).toMatchObject({
        message: 'Not an arena ranking: expected a JSON array of players',
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    expect(await s.db.prisma.arenaSnapshot.count()).toBe(0);
  });
});
