/**
 * Chart.exForBpi: the inverse BPI (../shared/spec/bpi.md "EX score needed for a target BPI") as a
 * GraphQL field, on hand-made definitions whose numbers are worked out below.
 */
import { updateDefinitions } from '../../../src/modules/catalogue/definitions.service';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
const ids: Record<string, number> = {};
beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const entry = (title: string, wr: number, avg: number, coef: number) => ({
    title,
    wr,
    avg,
    difficulty: '4',
    notes: 1000,
    bpm: '150',
    textage: '',
    difficultyLevel: '12',
    dpLevel: '0',
    coef,
  });
  await updateDefinitions(
    s.app,
    {
      version: 202601010,
      requireVersion: '87',
      body: [
        entry('Hand Worked', 1600, 1200, 1), // wr above the average (the usual chart)
        entry('Average Above Record', 1200, 1600, 1), // kaiden average above the world record (issue #17 item 6)
        {
          title: 'No Record',
          wr: -1,
          avg: 1200,
          difficulty: '4',
          notes: 1000,
          bpm: '150',
          textage: '',
          difficultyLevel: '12',
          dpLevel: '0',
          coef: -1,
        },
      ],
    },
    undefined,
    { startRecompute: false },
  );
  for (const c of await s.db.prisma.chart.findMany({ include: { song: true } })) ids[c.song.title] = c.id;
}, 120_000);
afterAll(() => s.close());

const Q =
  'query($id: ID!, $bpi: Float!) { chart(id: $id) { notes exForBpi(bpi: $bpi) { targetBpi exScore bpi rate reachable } } }';
const ask = async (title: string, bpi: number) =>
  expectNoErrors<any>(await s.gql(Q, { id: String(ids[title]), bpi })).chart.exForBpi;

describe('Chart.exForBpi', () => {
  // Hand Worked: notes 1000 → m = 2000; k = 1200, z = 1600, p = 1.
  // pgf(x) = 0.5 / (1 − x/m): pgf(k) = 0.5/0.4 = 1.25, pgf(z) = 0.5/0.2 = 2.5, Z = 2, ln Z = 0.693147.
  // score(t) = m·(S − 0.5)/S = 2000·(1 − 0.5/S) with S = 1.25·e^(t/100 · ln 2) = 1.25·2^(t/100).
  it('answers the inverse formula, rounded up, and the forward BPI of that score', async () => {
    // t = 50: S = 1.25·√2 = 1.767767; 2000·(1 − 0.282843) = 1434.31 → 1435.
    // BPI(1435): pgf = 0.5/0.2825 = 1.769912, S = 1.415929, ln S = 0.347786, / ln 2 = 0.501749 → 50.17
    expect(await ask('Hand Worked', 50)).toEqual({
      targetBpi: 50,
      exScore: 1435,
      bpi: 50.17,
      rate: 1435 / 2000,
      reachable: true,
    });
    // t = 0: S = 1.25 → 2000·(1 − 0.4) = 1200 = k (no ceil of floating-point noise), BPI 0
    expect(await ask('Hand Worked', 0)).toMatchObject({ exScore: 1200, bpi: 0, reachable: true });
    // t = 100: S = 2.5 → 2000·(1 − 0.2) = 1600 = z, BPI 100
    expect(await ask('Hand Worked', 100)).toMatchObject({ exScore: 1600, bpi: 100, reachable: true });
    // t = 200: S = 1.25·4 = 5 → 2000·(1 − 0.1) = 1800; BPI(1800): pgf = 5, S = 4, ln 4 / ln 2 = 2 → 200
    expect(await ask('Hand Worked', 200)).toMatchObject({ exScore: 1800, bpi: 200, rate: 0.9, reachable: true });
    // t = −15: S = 1.25·2^−0.15 = 1.126564; 2000·(1 − 0.443828) = 1112.34 → 1113;
    // BPI(1113): pgf = 0.5/0.4435 = 1.127396, S = 0.901917, ln S = −0.103234, / ln 2 = −0.148935 → −14.89
    expect(await ask('Hand Worked', -15)).toMatchObject({ exScore: 1113, bpi: -14.89, reachable: true });
  });

  it('a chart whose kaiden average is above its world record gets the reference number (|ln Z|), not null', async () => {
    // k = 1600, z = 1200: pgf(k) = 2.5, pgf(z) = 1.25, Z = 0.5, |ln Z| = ln 2.
    // t = 50: S = 2.5·√2 = 3.535534; 2000·(1 − 0.141421) = 1717.16 → 1718.
    // BPI(1718) (s ≥ k: +100·|ln S / ln Z|): pgf = 0.5/0.141 = 3.546099, S = 1.418440, ln S = 0.349557, / 0.693147 = 0.504305 → 50.43
    expect(await ask('Average Above Record', 50)).toEqual({
      targetBpi: 50,
      exScore: 1718,
      bpi: 50.43,
      rate: 1718 / 2000,
      reachable: true,
    });
  });

  it('null without a usable definition; any finite target answers, the EX clamped to 0 … notes × 2 (issue #33 item 12)', async () => {
    expect(await ask('No Record', 50)).toBeNull();
    // Hand Worked, t = 300: S = 1.25·2^3 = 10 → 2000·(1 − 0.05) = 1900; BPI(1900): pgf = 10, S = 8, log2 8 = 3 → 300
    expect(await ask('Hand Worked', 300)).toMatchObject({ targetBpi: 300, exScore: 1900, bpi: 300, reachable: true });
    // t = 1e9: S = 1.25·2^(1e7) overflows → the maximum m = 2000, rate 1; BPI(2000) is pgf(m) = m·0.8 = 1600,
    // S = 1280, ln 1280 / ln 2 = 10.321928 → 1032.19, short of the target: unreachable
    expect(await ask('Hand Worked', 1e9)).toEqual({
      targetBpi: 1e9,
      exScore: 2000,
      bpi: 1032.19,
      rate: 1,
      reachable: false,
    });
    // t = −15.01 (below the floor): S = 1.25·2^−0.1501 = 1.126486; 2000·(1 − 0.443858) = 1112.28 → 1113, BPI −14.89
    expect(await ask('Hand Worked', -15.01)).toMatchObject({ exScore: 1113, bpi: -14.89 });
    // t = −1000: S = 1.25·2^−10 = 0.001221; 2000·(1 − 409.6) < 0 → clamped to 0; BPI(0) = −15
    expect(await ask('Hand Worked', -1000)).toEqual({
      targetBpi: -1000,
      exScore: 0,
      bpi: -15,
      rate: 0,
      reachable: true,
    });
  });
});
