/**
 * The guest AAA table (issue #33 item 9): `Query.aaaTable(version, level)` with no token — every chart
 * of the level, the EX of AAA / AA / A / MAX- and the BPI each is worth, worked out by hand below.
 *
 * Catalogue (SP, released in 20, so available in 33; coef p = 1):
 *   Alpha ANOTHER ☆12     notes 1000 (m = 2000)  WR z = 1900  kaiden k = 1600
 *   Beta  LEGGENDARIA ☆12 notes  900 (m = 1800)  WR z = 1700  kaiden k = 1500
 *   Gamma HYPER ☆11       notes 1000 (m = 2000)  WR 1900 kaiden 1600   (another level: not listed for 12)
 * With g(x) = 0.5 / (1 − x/m): BPI(x) = 100 · ln(g(x)/g(k)) / ln(g(z)/g(k)), floored at −15.
 */
import { importDefinitions } from '../../../src/db/definitions';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
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
  await importDefinitions(s.db.prisma, {
    version: 'guest-aaa-test',
    requireVersion: '0',
    body: [
      def('Alpha', '4', 12, 1000, 1900, 1600),
      def('Beta', '10', 12, 900, 1700, 1500),
      def('Gamma', '3', 11, 1000, 1900, 1600),
    ],
  });
  await s.app.catalogue.load();
}, 120_000);
afterAll(() => s.close());

const Q = `query($v: GameVersion!, $l: Int!) { aaaTable(version: $v, level: $l) {
  summary { charts aaa maxMinus custom }
  rows { title difficulty level maxScore exScore bpi custom { exScore }
    aaa { exScore bpi diff reached } aa { exScore bpi } a { exScore bpi } maxMinus { exScore bpi } } } }`;

describe('guest AAA table (issue #33 item 9)', () => {
  it('lists every chart of the level with the EX and BPI of AAA, AA, A and MAX-, with no token', async () => {
    const t = expectNoErrors<any>(await s.gql(Q, { v: '33', l: 12 })).aaaTable;
    // level 12 only (Gamma is ☆11), level desc then title
    expect(t.rows.map((r: any) => [r.title, r.difficulty, r.level, r.maxScore])).toEqual([
      ['Alpha', 'ANOTHER', 12, 2000],
      ['Beta', 'LEGGENDARIA', 12, 1800],
    ]);
    const [alpha, beta] = t.rows;
    // Alpha, m = 2000, g(k = 1600) = 2.5, g(z = 1900) = 10, ln 4 = 1.38629:
    //   AAA = ceil(2000·8/9) = ceil(1777.8) = 1778: g = 0.5/0.111 = 4.5045, 100·ln(1.8018)/ln 4 = 100·0.58879/1.38629 = 42.47
    //   AA  = ceil(2000·7/9) = ceil(1555.6) = 1556: g = 0.5/0.222 = 2.2523, 100·ln(0.90090)/ln 4 = −10.436/1.38629 = −7.53
    //   A   = ceil(2000·6/9) = ceil(1333.3) = 1334: g = 0.5/0.333 = 1.5015, 100·ln(0.60060)/ln 4 = −50.98/1.38629 = −36.78 → floor −15
    //   MAX- = ceil(2000·17/18) = ceil(1888.9) = 1889: g = 9.009, 100·ln(3.6036)/ln 4 = 128.19/1.38629 = 92.47
    expect(alpha.aaa).toEqual({ exScore: 1778, bpi: 42.47, diff: 0 - 1778, reached: false });
    expect([alpha.aa, alpha.a, alpha.maxMinus]).toEqual([
      { exScore: 1556, bpi: -7.53 },
      { exScore: 1334, bpi: -15 },
      { exScore: 1889, bpi: 92.47 },
    ]);
    // Beta, m = 1800, g(k = 1500) = 3, g(z = 1700) = 9, ln 3 = 1.09861:
    //   AAA = 1600: g = 4.5, 100·ln 1.5/ln 3 = 40.547/1.09861 = 36.91
    //   AA  = 1400: g = 2.25, 100·ln 0.75/ln 3 = −28.768/1.09861 = −26.19 → floor −15
    //   A   = 1200: g = 1.5, below the floor too → −15
    //   MAX- = 1700 = z → 100
    expect([beta.aaa.exScore, beta.aaa.bpi, beta.aa, beta.a, beta.maxMinus]).toEqual([
      1600,
      36.91,
      { exScore: 1400, bpi: -15 },
      { exScore: 1200, bpi: -15 },
      { exScore: 1700, bpi: 100 },
    ]);
    // no player: no best, no custom goal, nothing reached
    expect(t.rows.map((r: any) => [r.exScore, r.bpi, r.custom])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    expect(t.summary).toEqual({ charts: 2, aaa: 0, maxMinus: 0, custom: null });
  });

  it('level 11 lists Gamma alone (m = 2000: AA 1556, A 1334)', async () => {
    const t = expectNoErrors<any>(await s.gql(Q, { v: '33', l: 11 })).aaaTable;
    // Gamma m = 2000 as Alpha: AA 1556, A 1334
    expect(t.rows.map((r: any) => [r.title, r.aa.exScore, r.a.exScore])).toEqual([['Gamma', 1556, 1334]]);
  });

  it('a level without BPI charts or an unknown version is BAD_USER_INPUT naming the argument', async () => {
    for (const [vars, arg] of [
      [{ v: '33', l: 10 }, 'level'],
      [{ v: 'XX', l: 12 }, 'version'],
    ] as const) {
      const err = (await s.gql<any>(Q, vars)).body.errors?.[0];
      expect([arg, err?.extensions?.code]).toEqual([arg, 'BAD_USER_INPUT']);
      expect(JSON.stringify(err.extensions)).toContain(`"${arg}"`);
    }
  });
});
