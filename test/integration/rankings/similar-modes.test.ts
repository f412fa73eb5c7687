/**
 * similarSongs in the reference's two modes (domain-social.md §4.6): PROFILE over the 11 p_*
 * attributes, GLOBAL over 9 g_* attributes (g_udeoshi, g_scratch_complex left out), a missing
 * attribute counting as 0; and the import path for both vector sets (the reference's row shape with
 * top-level p_* / g_* columns, or {profile, global}), each set importable on its own.
 */
import type { Chart } from '../../../src/generated/prisma/client';
import { importChartAttributes, type AttributeImportEntry } from '../../../src/modules/rankings/rankings.attributes';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let c: (Chart & { song: { title: string } })[];
beforeAll(async () => {
  s = await startTestServer();
  c = await s.db.prisma.chart.findMany({
    where: { playStyle: 'SP' },
    include: { song: { select: { title: true } } },
    orderBy: { id: 'asc' },
    take: 4,
  });
});
afterAll(() => s.close());

const SIMILAR =
  'query($c: ID!, $m: SimilarityMode) { similarSongs(chartId: $c, mode: $m) { distance chart { id: databaseId } } }';
const similar = async (chart: Chart, mode?: string) =>
  (expectNoErrors<any>(await s.gql(SIMILAR, { c: String(chart.id), m: mode })).similarSongs as any[]).map((x) => [
    Number(x.chart.id),
    x.distance,
  ]);

describe('similar songs: PROFILE and GLOBAL modes', () => {
  it('imports the two vector sets separately (reference shapes) and keeps both', async () => {
    // the profile set as the reference's songAttributes rows: 22 top-level columns, null = none
    const row = (chart: (typeof c)[number], cols: Record<string, number | null>) =>
      ({
        title: chart.song.title,
        difficulty: chart.difficulty,
        p_soflan: null,
        g_soflan: null,
        ...cols,
      }) as unknown as AttributeImportEntry;
    const profile = [
      row(c[0], { p_scratch: 0, p_peak: 0 }),
      row(c[1], { p_scratch: 3, p_peak: 4 }),
      row(c[2], { p_scratch: 1, p_chord: 1 }),
    ];
    expect(await importChartAttributes(s.db.prisma, profile)).toEqual({ updated: 3, unchanged: 0, problems: [] });
    // the global set in the {global: {...}} shape (names without prefix)
    const g = (chart: (typeof c)[number], v: Record<string, number>) => ({
      title: chart.song.title,
      difficulty: chart.difficulty,
      attributes: { global: v },
    });
    const global = [
      g(c[0], { scratch: 10, udeoshi: 100 }),
      g(c[1], { scratch: 10, soflan: 2 }),
      g(c[3], { scratch: 13, peak: 4 }),
    ];
    expect(await importChartAttributes(s.db.prisma, global)).toEqual({ updated: 3, unchanged: 0, problems: [] });
    // c0 holds both sets; re-importing either set changes nothing
    expect((await s.db.prisma.chart.findUniqueOrThrow({ where: { id: c[0].id } })).attributes).toEqual({
      g_scratch: 10,
      g_udeoshi: 100,
      p_peak: 0,
      p_scratch: 0,
    });
    expect(await importChartAttributes(s.db.prisma, profile)).toMatchObject({ updated: 0, unchanged: 3 });
    expect(await importChartAttributes(s.db.prisma, global)).toMatchObject({ updated: 0, unchanged: 3 });
  });

  it('PROFILE: the p_* dimensions, missing = 0; charts without p_* take no part', async () => {
    // from c0 (p_scratch 0, p_peak 0): c2 (p_scratch 1, p_chord 1) → √(1 + 1) = √2; c1 (3, 4) → 5; c3 has no p_*
    expect(await similar(c[0], 'PROFILE')).toEqual([
      [c[2].id, Math.SQRT2],
      [c[1].id, 5],
    ]);
  });

  it('GLOBAL: 9 g_* dimensions (g_udeoshi left out), missing = 0; charts without g_* take no part', async () => {
    // from c0 (g_scratch 10, g_udeoshi 100 — not a dimension): c1 (10, g_soflan 2) → 2; c3 (13, g_peak 4) → √(9 + 16) = 5; c2 has no g_*
    expect(await similar(c[0], 'GLOBAL')).toEqual([
      [c[1].id, 2],
      [c[3].id, 5],
    ]);
    // a target without g_* attributes has no similar charts in GLOBAL mode
    expect(await similar(c[2], 'GLOBAL')).toEqual([]);
  });

  it('SHARED (default): every name both have', async () => {
    // c0 {p_scratch 0, p_peak 0, g_scratch 10, g_udeoshi 100}: c2 shares p_scratch (1) → 1; c3 shares g_scratch (13) → 3;
    // c1 shares p_scratch (3), p_peak (4), g_scratch (10) → √(9 + 16 + 0) = 5
    expect(await similar(c[0])).toEqual([
      [c[2].id, 1],
      [c[3].id, 3],
      [c[1].id, 5],
    ]);
    expect(await similar(c[0], 'SHARED')).toEqual(await similar(c[0]));
  });
});
