import { ChunkSizer, inChunks, sliceClock } from '../../db/yield';
import { loadPlaysSliced, replay, type PlayRow, type ReplayBest } from './plays';
import { bestBpis, computeTotal, storeTotals, totalSetIds, type ChartLookup, type DbLike } from './totals.service';

/**
 * Rebuilds the derived state of one player and version from the stored plays, in `tx`: BestScore
 * (per-field bests), the totals stored on every batch (replayed in import order with the BPIs
 * stored on the plays, from `fromBatchCreatedAt` on) and the current total (the bests' BPIs under
 * the current definitions).
 */
/** Bests in the first statement that writes them (the next ones are sized by its time). */
const BEST_SLICE = 250;

export async function rebuildDerived(
  tx: DbLike,
  cat: ChartLookup,
  userId: string,
  version: string,
  fromBatchCreatedAt?: Date,
): Promise<void> {
  // one statement at a time: `tx` is one connection. The work is sliced (reads and writes in
  // chunks sized by their time, the replay by ~10 ms) with the event loop let through between
  // slices: a migration rebuilds ~20,000 plays (PGlite runs each statement on the main thread).
  const plays = await loadPlaysSliced(tx, { userId, version });
  const batches = await tx.importBatch.findMany({
    where: { userId, version },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, createdAt: true },
  });
  const setIds = totalSetIds(cat, version);
  const byBatch = new Map<string, PlayRow[]>();
  for (const p of plays) {
    const list = byBatch.get(p.batchId);
    if (list) list.push(p);
    else byBatch.set(p.batchId, [p]);
  }
  const bests = new Map<number, ReplayBest>();
  let prevTotal: number | null = null; // the first batch has no previous total
  const updates: { id: string; previousTotalBpi: number | null; totalBpi: number }[] = [];
  const clock = sliceClock();
  for (const b of batches) {
    const list = byBatch.get(b.id) ?? [];
    for (let i = 0; i < list.length; i += 1000) {
      await clock.pause();
      replay(list.slice(i, i + 1000), bests);
    }
    const t = computeTotal(cat, version, new Map([...bests].map(([k, v]) => [k, v.bpi])), setIds).totalBpi;
    if (!fromBatchCreatedAt || b.createdAt >= fromBatchCreatedAt)
      updates.push({ id: b.id, previousTotalBpi: prevTotal, totalBpi: t });
    prevTotal = t;
  }
  await inChunks(updates, (chunk) =>
    tx.$executeRawUnsafe(
      `UPDATE "ImportBatch" b SET "previousTotalBpi" = x."previousTotalBpi", "totalBpi" = x."totalBpi"
         FROM jsonb_to_recordset($1::jsonb) AS x("id" text, "previousTotalBpi" double precision, "totalBpi" double precision) WHERE b."id" = x."id"`,
      JSON.stringify(chunk),
    ),
  );
  await tx.bestScore.deleteMany({ where: { userId, version } });
  // one JSON parameter per chunk, as the import's upsert (createMany bound every value apart:
  // Prisma's preparation of 80 rows took ~0.15 s on a busy machine, on the main thread)
  await inChunks(
    [...bests],
    (chunk) =>
      tx.$executeRawUnsafe(
        `INSERT INTO "BestScore" ("userId", "version", "chartId", "exScore", "exScoreId", "clearLamp", "clearLampId", "missCount", "missCountId", "playedAt", "updatedAt")
           SELECT $2, $3, x."chartId", x."exScore", x."exScoreId", x."clearLamp"::"ClearLamp", x."clearLampId", x."missCount", x."missCountId", x."playedAt"::timestamp(3), $4::timestamp(3)
             FROM jsonb_to_recordset($1::jsonb) AS x("chartId" int, "exScore" int, "exScoreId" int, "clearLamp" text, "clearLampId" int, "missCount" int, "missCountId" int, "playedAt" text)`,
        JSON.stringify(
          chunk.map(([chartId, b]) => ({
            chartId,
            exScore: b.exScore,
            exScoreId: b.exScoreId,
            clearLamp: b.clearLamp,
            clearLampId: b.clearLampId,
            missCount: b.missCount,
            missCountId: b.missCountId,
            playedAt: b.playedAt.toISOString(),
          })),
        ),
        userId,
        version,
        new Date().toISOString(),
      ),
    new ChunkSizer({ first: BEST_SLICE, max: 1000 }),
  );
  const current = bestBpis(cat, bests);
  await storeTotals(tx, version, new Map([[userId, computeTotal(cat, version, current, setIds)]]));
}
