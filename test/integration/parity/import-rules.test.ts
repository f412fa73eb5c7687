/**
 * Import rules as the reference has them (issue #33 items 11 and 13): a NO PLAY row is skipped even
 * with a score; an import that touches no BPI chart writes no total and counts 0 BPI updates.
 */
import { updateDefinitions } from '../../../src/modules/catalogue/definitions.service';
import { aPublicPlayer } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { OFFICIAL_HEADER } from '../../../src/domain/csv/official-writer';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  // one BPI chart: Parity Song SP ANOTHER 12, notes 1000 (m = 2000), k = 1200, z = 1600, p = 1
  const entry = {
    title: 'Parity Song',
    wr: 1600,
    avg: 1200,
    difficulty: '4',
    notes: 1000,
    bpm: '150',
    textage: '',
    difficultyLevel: '12',
    dpLevel: '0',
    coef: 1,
  };
  await updateDefinitions(s.app, { version: 202601010, requireVersion: '33', body: [entry] }, undefined, {
    startRecompute: false,
  });
}, 120_000);
afterAll(() => s.close());

const DIFFS = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'] as const;
const HEADER = OFFICIAL_HEADER;
type Cell = { level: number; ex: number; lamp: string };
/** One official CSV line of Parity Song: the blocks given, the others absent (level 0). */
const csv = (cells: Partial<Record<(typeof DIFFS)[number], Cell>>) => {
  const blocks = DIFFS.map((d) => {
    const c = cells[d];
    return c ? [c.level, c.ex, 0, 0, 5, c.lamp, 'A'].join(',') : '0,0,0,0,---,NO PLAY,---';
  });
  return [HEADER, ['33 Sparkle Shower', 'Parity Song', 'G', 'A', 1, ...blocks, '2026-01-02 03:04'].join(',')].join(
    '\n',
  );
};
const IMPORT = `mutation($userId: ID!, $csv: String!) { importScoresCsv(userId: $userId, version: "33", csv: $csv) {
  upToDate rowCount updatedCount bpiUpdatedCount previousTotalBpi newTotalBpi skipped } }`;

describe('import rules (issue #33)', () => {
  it('item 11: an official CSV row whose lamp is NO PLAY is skipped even with a score; nothing is written', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    // ANOTHER: EX 1,500 under NO PLAY → skipped (1); the four other blocks are absent (level 0): no rows
    const r = expectNoErrors<any>(
      await s.gql(IMPORT, { userId: u.id, csv: csv({ ANOTHER: { level: 12, ex: 1500, lamp: 'NO PLAY' } }) }, token),
    );
    expect(r.importScoresCsv).toMatchObject({
      upToDate: true,
      rowCount: 0,
      updatedCount: 0,
      bpiUpdatedCount: 0,
      skipped: 1,
    });
    expect(await s.db.prisma.score.count({ where: { userId: u.id } })).toBe(0);
    expect(await s.db.prisma.importBatch.count({ where: { userId: u.id } })).toBe(0);
  });

  it('item 13: an import touching no BPI chart writes no total and counts 0 BPI updates; a BPI chart then does', async () => {
    const u = await aPublicPlayer(s.db.prisma);
    const token = await s.tokenFor(u.id);
    // HYPER level 10 has no BPI definition (learned from the export): one play stored, 0 BPI updates, no total row
    const first = expectNoErrors<any>(
      await s.gql(IMPORT, { userId: u.id, csv: csv({ HYPER: { level: 10, ex: 1000, lamp: 'CLEAR' } }) }, token),
    );
    expect(first.importScoresCsv).toMatchObject({
      upToDate: false,
      rowCount: 1,
      updatedCount: 1,
      bpiUpdatedCount: 0,
      previousTotalBpi: -15,
      newTotalBpi: -15,
    });
    expect(await s.db.prisma.playerVersionStatus.count({ where: { userId: u.id } })).toBe(0);
    // ANOTHER EX 1,435: pgf(1435) = 0.5/(1 − 0.7175) = 1.769912, pgf(k) = 1.25 → S = 1.415929;
    // ln S / ln Z = 0.347786 / 0.693147 = 0.501749 → BPI 50.17. Total over N = 1 chart (K = max(1, log2 1) = 1): 50.17
    const second = expectNoErrors<any>(
      await s.gql(IMPORT, { userId: u.id, csv: csv({ ANOTHER: { level: 12, ex: 1435, lamp: 'HARD CLEAR' } }) }, token),
    );
    expect(second.importScoresCsv).toMatchObject({
      updatedCount: 1,
      bpiUpdatedCount: 1,
      previousTotalBpi: -15,
      newTotalBpi: 50.17,
    });
    const status = await s.db.prisma.playerVersionStatus.findUnique({
      where: { userId_version: { userId: u.id, version: '33' } },
    });
    expect(status).toMatchObject({ totalBpi: 50.17, playedCount: 1 });
  });
});
