/**
 * The bests loader (ctx.loaders.scores.bests) reads a player's BestScore rows as one JSON row: every
 * field must come back as the Prisma client gives it — the clear lamp, the nullable ids and miss
 * count, the timestamps to the millisecond — and only the (player, version) pairs asked for.
 */
import type { DatabaseHandle } from '../../../src/db/client';
import { createScoreLoaders } from '../../../src/modules/scores/scores.loaders';
import { openTestDatabase } from '../../helpers/db';
import { aPlayer } from '../../helpers/factories';

let db: DatabaseHandle;
beforeAll(async () => {
  db = await openTestDatabase({ seeded: true });
}, 60_000);
afterAll(() => db?.close());

it('gives the same rows as the Prisma client, every field, for each pair asked', async () => {
  const p = db.prisma;
  const [a, b] = [await aPlayer(p), await aPlayer(p)];
  const charts = (await p.chart.findMany({ orderBy: { id: 'asc' }, take: 3, select: { id: true } })).map((c) => c.id);
  const batch = await p.importBatch.create({ data: { userId: a.id, version: '33', source: 'ROWS', rowCount: 3 } });
  const score = await p.score.create({
    data: { userId: a.id, chartId: charts[0], version: '33', batchId: batch.id, exScore: 1234, playedAt: new Date() },
  });
  // a milliseconds part (…:05.678Z) that must survive; one row with every nullable field set, one with none
  const at = new Date('2026-03-04T05:06:05.678Z');
  await p.bestScore.createMany({
    data: [
      {
        userId: a.id,
        version: '33',
        chartId: charts[0],
        exScore: 1234,
        exScoreId: score.id,
        clearLamp: 'EX_HARD_CLEAR',
        clearLampId: score.id,
        missCount: 7,
        missCountId: score.id,
        playedAt: at,
      },
      { userId: a.id, version: '33', chartId: charts[1], exScore: 99, exScoreId: score.id, playedAt: at },
      { userId: a.id, version: '32', chartId: charts[2], exScore: 5, exScoreId: score.id, playedAt: at },
      { userId: b.id, version: '33', chartId: charts[2], exScore: 6, exScoreId: score.id, playedAt: at },
    ],
  });
  const loaders = createScoreLoaders(p);
  const byChart = <T extends { chartId: number }>(rows: T[]) => [...rows].sort((x, y) => x.chartId - y.chartId);
  const [a33, b33, a31] = await Promise.all([
    loaders.bests.load({ userId: a.id, version: '33' }),
    loaders.bests.load({ userId: b.id, version: '33' }),
    loaders.bests.load({ userId: a.id, version: '31' }),
  ]);
  // a's two bests in 33 (not its 32 one, not b's), b's one; none in 31
  expect(byChart(a33)).toEqual(byChart(await p.bestScore.findMany({ where: { userId: a.id, version: '33' } })));
  expect(a33.map((r) => r.chartId).sort((x, y) => x - y)).toEqual([charts[0], charts[1]]);
  expect(b33).toEqual(await p.bestScore.findMany({ where: { userId: b.id, version: '33' } }));
  expect(a31).toEqual([]);
  const full = a33.find((r) => r.chartId === charts[0])!;
  expect(full).toMatchObject({
    clearLamp: 'EX_HARD_CLEAR',
    clearLampId: score.id,
    missCount: 7,
    missCountId: score.id,
  });
  expect(full.playedAt).toEqual(at);
  expect(full.updatedAt).toBeInstanceOf(Date);
  expect(a33.find((r) => r.chartId === charts[1])).toMatchObject({
    clearLamp: null,
    clearLampId: null,
    missCount: null,
  });
});
