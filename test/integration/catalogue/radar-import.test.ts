import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { aBestScoreRow, aPublicPlayer, anAdmin } from '../../helpers/factories';
import { importDefinitions } from '../../../src/db/definitions';
import { importRadarCategories } from '../../../src/modules/catalogue/categories.service';
import { RADAR_CATEGORIES } from '../../../src/domain/constants';
import { safeBpi, totalBpi } from '../../../src/domain/bpi';
import { chartInVersion } from '../../../src/domain/radar';
import { runCliInProcess } from '../../helpers/cli';
import { describeIf } from '../../helpers/skip';

// usage errors only: no command below reaches a database
const CLI_ENV = { ...process.env, DATABASE_URL: '', DATA_DIR: path.join(os.tmpdir(), 'bpigraph-cli-usage') };

/**
 * Radar categories from the reference's data file (../shared, never copied into the repo) on the
 * real definitions. Skipped with a message when the shared data is absent.
 */
const SHARED = path.resolve(__dirname, '../../../../shared/data');
const CATEGORIES = path.join(SHARED, 'radar/chart-categories.json');
const DEFINITIONS = path.join(SHARED, 'definitions/definitions-202509156.json');
const present = fs.existsSync(CATEGORIES) && fs.existsSync(DEFINITIONS);
const describeData = describeIf(present, `${CATEGORIES} or ${DEFINITIONS} is absent (real data lives in ../shared)`);

describe('charts import-categories (CLI)', () => {
  it('prints its usage without a file and names a missing file', async () => {
    const cli = ['charts', 'import-categories'];
    const noArg = await runCliInProcess(cli, CLI_ENV);
    expect(noArg.code).toBe(2);
    expect(noArg.stderr).toContain('usage: npm run cli -- charts import-categories <file|url>');
    const missing = await runCliInProcess([...cli, '/nonexistent/categories.json'], CLI_ENV);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No such file: /nonexistent/categories.json');
  });
});

describeData('radar categories from the reference data', () => {
  let s: TestServer;
  let doc: { title: string; difficulty: string; top: string }[];
  beforeAll(async () => {
    s = await startTestServer({ seedDemo: false });
    await importDefinitions(s.db.prisma, JSON.parse(fs.readFileSync(DEFINITIONS, 'utf8')));
    await s.app.catalogue.load();
    doc = JSON.parse(fs.readFileSync(CATEGORIES, 'utf8'));
  });
  afterAll(() => s?.close());

  it('assigns one category per SP chart matched by title and difficulty; re-importing changes nothing', async () => {
    const r = await importRadarCategories(s.db.prisma, doc);
    expect(r.total).toBe(doc.length);
    expect(r.invalid).toBe(0);
    expect(r.matched + r.unmatched).toBeLessThanOrEqual(doc.length);
    expect(r.matched).toBeGreaterThan(doc.length * 0.5);
    expect(r.updated).toBe(r.matched);
    const counts = await s.db.prisma.chart.groupBy({
      by: ['radarCategory'],
      where: { radarCategory: { not: null } },
      _count: { _all: true },
    });
    expect(counts.reduce((n, c) => n + c._count._all, 0)).toBe(r.matched);
    expect(new Set(counts.map((c) => c.radarCategory))).toEqual(new Set(RADAR_CATEGORIES));
    const sample = doc.find((e) => e.difficulty === 'ANOTHER')!;
    const chart = await s.db.prisma.chart.findFirst({
      where: { playStyle: 'SP', difficulty: 'ANOTHER', song: { title: sample.title } },
    });
    if (chart) expect(chart.radarCategory).toBe(sample.top);
    const again = await importRadarCategories(s.db.prisma, doc);
    expect(again).toMatchObject({ matched: r.matched, updated: 0 });
  });

  it('feeds the radar of compare through the admin mutation (which reloads the catalogue)', async () => {
    const admin = await anAdmin(s.db.prisma);
    const res = expectNoErrors<any>(
      await s.gql(
        'mutation($j: String!) { importRadarCategories(json: $j) { matched updated } }',
        { j: JSON.stringify(doc) },
        await s.tokenFor(admin.id),
      ),
    );
    expect(res.importRadarCategories.matched).toBeGreaterThan(0);
    const notesChart = [...s.app.catalogue.charts()].find(
      (c) => c.playStyle === 'SP' && c.radarCategory === 'NOTES' && c.definition,
    )!;
    expect(notesChart).toBeDefined();
    const u = await aPublicPlayer(s.db.prisma);
    const ex = notesChart.notes * 2 - 10;
    await aBestScoreRow(s.db.prisma, u, notesChart.id, ex, { bpi: 90 }); // the play's stored BPI; the best's is derived
    const radar = expectNoErrors<any>(
      await s.gql('query($id: ID!) { user(id: $id) { compare { radar { NOTES CHORD } } } }', { id: u.id }),
    ).user.compare.radar;
    expect(radar.NOTES).toBeGreaterThan(-15);
    const valid = [...s.app.catalogue.charts()].filter(
      (c) => c.playStyle === 'SP' && c.radarCategory === 'NOTES' && chartInVersion(c, '33'),
    ).length;
    expect(radar.NOTES).toBe(totalBpi([safeBpi(ex, notesChart.definition!) ?? -15], valid));
    expect(radar.CHORD).toBe(-15);
  });
});
