/**
 * Data migration from the older app's export (docs/domain/imports.md#migration-from-the-older-app), transactional and
 * idempotent: the previous migration's batches (source TRANSFER) are replaced, other imports are
 * kept, then bests and totals are rebuilt from the plays. Differences from the reference, on
 * purpose: versions are kept apart (not merged per day), and the current lamp/miss count of the
 * export is given only to the latest history entry of a chart (not stamped on every old entry).
 */
import { randomUUID } from 'node:crypto';
import { ClearLamp, Difficulty, PlayStyle } from '../../domain/constants';
import { ChunkSizer, inChunks, sliceClock, yieldToEventLoop } from '../../db/yield';
import { improvements, applyPlay, type Best } from '../../domain/scores';
import { badInput } from '../../errors';
import { rebuildDerived } from './rebuild.service';
import { lockPlayer } from './totals.service';
import type { ImportDeps } from './import.service';
import { readLegacyExport, type LegacyVersion } from './legacy-export';
import { readLegacyExportTask } from './migrate.task';

export { MIGRATION_MAX_ENTRIES } from './legacy-export';

/** Largest export accepted by default (characters; MIGRATION_MAX_BYTES). */
export const MIGRATION_MAX_CHARS = 2 * 1024 * 1024;
/** Plays in the first INSERT statement of a migration (the next ones are sized by its time). */
const MIGRATION_CHUNK = 200;
/** Reading a document has no partial answer: a generous budget (2 MiB reads in well under a second). */
const READ_BUDGET_MS = 30_000;

export async function migrateLegacyScores(
  deps: ImportDeps,
  userId: string,
  data: string,
  maxChars = MIGRATION_MAX_CHARS,
) {
  if (data.length > maxChars) {
    const message = `data is ${data.length} characters; the maximum is ${maxChars} (MIGRATION_MAX_BYTES)`;
    throw badInput(message, [{ code: 'too_big', path: ['data'], message }]);
  }
  const now = Date.now();
  // The document read and checked in the worker pool when there is one (JSON.parse, sorting and
  // date checks of a 2 MiB export are ~0.3–0.7 s of CPU); the matching below, on the main side.
  const read: LegacyVersion[] = deps.pool
    ? await deps.pool.run(readLegacyExportTask, { data, now }, { budgetMs: READ_BUDGET_MS })
    : readLegacyExport(data, now);
  await yieldToEventLoop();
  const { db, catalogue } = deps;
  const plan: {
    version: string;
    day: string;
    createdAt: Date;
    plays: {
      chartId: number;
      exScore: number;
      clearLamp: ClearLamp | null;
      missCount: number | null;
      playedAt: Date;
      bpi: number | null;
      definitionId: number | null;
    }[];
  }[] = [];
  let notFound = 0;
  const versions = read.map((r) => r.version);
  const clock = sliceClock();
  for (const { version, entries } of read) {
    const days = new Map<string, (typeof plan)[number]>();
    const running = new Map<number, Best>();
    for (let i = 0; i < entries.length; i++) {
      await clock.pause(); // a 2 MiB export is ~20,000 entries of work
      const x = entries[i];
      const chart = catalogue.find(x.title, PlayStyle.SP, x.difficulty as Difficulty);
      if (!chart || x.exScore > chart.notes * 2) {
        notFound++;
        continue;
      }
      const play = { exScore: x.exScore, clearLamp: x.clearLamp, missCount: x.missCount };
      const best = running.get(chart.id);
      if (!improvements(play, best).any) continue;
      running.set(chart.id, applyPlay(best, { ...play, id: i, playedAt: x.at }));
      const day = new Date(x.at.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
      let entry = days.get(day);
      if (!entry) {
        entry = { version, day, createdAt: new Date(Date.parse(`${day}T23:59:59.000Z`) - 9 * 3600_000), plays: [] };
        days.set(day, entry);
      }
      entry.plays.push({
        chartId: chart.id,
        ...play,
        playedAt: x.at,
        bpi: catalogue.currentBpi(chart.id, x.exScore),
        definitionId: chart.definition?.id ?? null,
      });
    }
    plan.push(...days.values());
  }
  let total = 0;
  await db.$transaction(
    async (tx) => {
      await lockPlayer(tx, userId);
      const old = await tx.importBatch.findMany({ where: { userId, source: 'TRANSFER' }, select: { version: true } });
      await tx.importBatch.deleteMany({ where: { userId, source: 'TRANSFER' } });
      // Bulk statements only (one per 1,000 batches, plays in chunks): the transaction holds
      // the connection (PGlite's only one) for as short a time as possible.
      const batches = plan.map((p) => ({ ...p, id: randomUUID() }));
      for (let i = 0; i < batches.length; i += 1000) {
        await tx.importBatch.createMany({
          data: batches.slice(i, i + 1000).map((p) => ({
            id: p.id,
            userId,
            version: p.version,
            source: 'TRANSFER' as const,
            rowCount: p.plays.length,
            updatedCount: p.plays.length,
            bpiUpdatedCount: p.plays.filter((x) => x.bpi !== null).length,
            createdAt: p.createdAt,
          })),
        });
      }
      // Plays as one JSON parameter per chunk (jsonb_to_recordset), as the score import does:
      // Prisma's createMany binds every value separately, which PGlite takes seconds to plan.
      // Chunks sized by their time (MIGRATION_CHUNK plays first), built as they are sent, with the
      // event loop let through between them (PGlite runs each statement on the main thread: one
      // statement of 20,000 rows held the process seconds; 200 rows 0.1–0.3 s on a busy machine).
      const rows = batches.flatMap((p) => p.plays.map((x) => ({ p, x })));
      await inChunks(
        rows,
        (part) =>
          tx.$executeRawUnsafe(
            `INSERT INTO "Score" ("userId", "chartId", "version", "batchId", "exScore", "clearLamp", "missCount", "bpi", "definitionId", "playedAt", "createdAt")
             SELECT $2, x."chartId", x."version", x."batchId", x."exScore", x."clearLamp"::"ClearLamp", x."missCount", x."bpi", x."definitionId", x."playedAt"::timestamp(3), x."createdAt"::timestamp(3)
               FROM jsonb_to_recordset($1::jsonb) AS x("chartId" int, "version" text, "batchId" text, "exScore" int, "clearLamp" text, "missCount" int, "bpi" double precision, "definitionId" int, "playedAt" text, "createdAt" text)`,
            JSON.stringify(
              part.map(({ p, x }) => ({
                ...x,
                version: p.version,
                batchId: p.id,
                playedAt: x.playedAt.toISOString(),
                createdAt: p.createdAt.toISOString(),
              })),
            ),
            userId,
          ),
        new ChunkSizer({ first: MIGRATION_CHUNK, max: 1000 }),
      );
      total = rows.length;
      for (const v of new Set([...versions, ...old.map((o) => o.version)])) {
        await yieldToEventLoop();
        await rebuildDerived(tx, catalogue, userId, v);
      }
    },
    // as the import's transaction: a busy pool makes it wait for a connection, not fail at 2 s
    { timeout: 120_000, maxWait: 30_000 },
  );
  return { importedVersions: versions, totalProcessed: total, batchCount: plan.length, notFound };
}
