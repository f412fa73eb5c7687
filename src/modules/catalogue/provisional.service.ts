/**
 * Provisional charts (docs/imports-provisional.md): charts learned from a player's export, held by
 * the players whose scores are on them and never public until a definitions import lists them or
 * an administrator adopts them. Here: the administrator's list / adopt / purge (GraphQL mutations
 * and `cli catalogue provisional …` share these functions) and the clean-up after a batch deletion.
 *
 * One cluster-wide advisory lock orders the writers that touch provisional charts: an import that
 * writes plays on one takes it SHARED (imports still run side by side), and whatever deletes them
 * (batch deletion, purge) takes it EXCLUSIVE, then looks for plays with a fresh statement — so a
 * chart is never deleted under an import that is about to store a play on it.
 */
import type { Db } from '../../db/client';
import { badInput } from '../../errors';
import type { Prisma } from '../../generated/prisma/client';

/** A transaction (the scores area's DbLike, spelled here so the areas stay one-way). */
type DbLike = Prisma.TransactionClient;

/** (#28, item 3): the two-int advisory key space, apart from the players' one-bigint locks. */
const LOCK = 'SELECT 1 AS ok FROM (SELECT %s(28, 3)) AS l';

export const lockProvisionalShared = (tx: DbLike) =>
  tx.$queryRawUnsafe(LOCK.replace('%s', 'pg_advisory_xact_lock_shared'));
export const lockProvisionalExclusive = (tx: DbLike) => tx.$queryRawUnsafe(LOCK.replace('%s', 'pg_advisory_xact_lock'));

export const MAX_PROVISIONAL_IDS = 1000;

export interface ProvisionalChartRow {
  chartId: number;
  songId: number;
  title: string;
  playStyle: string;
  difficulty: string;
  level: number;
  /** players with a play on it */
  holders: number;
  createdAt: Date;
}

/** Provisional charts, newest first (then by id), at most `limit`. */
export async function listProvisional(db: Db | DbLike, limit = 100): Promise<ProvisionalChartRow[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PROVISIONAL_IDS)
    throw badInput(`limit must be between 1 and ${MAX_PROVISIONAL_IDS}`, [
      { code: 'out_of_range', path: ['limit'], message: `1 to ${MAX_PROVISIONAL_IDS}` },
    ]);
  const rows = await db.$queryRawUnsafe<ProvisionalChartRow[]>(
    `SELECT c."id" AS "chartId", c."songId", so."title", c."playStyle"::text AS "playStyle",
            c."difficulty"::text AS "difficulty", c."level", c."createdAt",
            (SELECT count(DISTINCT s."userId") FROM "Score" s WHERE s."chartId" = c."id")::int AS "holders"
       FROM "Chart" c JOIN "Song" so ON so."id" = c."songId"
      WHERE c."provisional"
      ORDER BY c."createdAt" DESC, c."id" DESC
      LIMIT $1`,
    limit,
  );
  return rows.map((r) => ({ ...r, chartId: Number(r.chartId), songId: Number(r.songId), holders: Number(r.holders) }));
}

/** The ids checked: 1 … MAX_PROVISIONAL_IDS distinct positive integers, each a provisional chart. */
async function provisionalIds(tx: DbLike, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0 || unique.length > MAX_PROVISIONAL_IDS || unique.some((id) => !Number.isSafeInteger(id)))
    throw badInput(`chartIds: 1 to ${MAX_PROVISIONAL_IDS} chart ids`, [
      { code: 'out_of_range', path: ['chartIds'], message: `1 to ${MAX_PROVISIONAL_IDS} chart ids` },
    ]);
  const found = await tx.chart.findMany({
    where: { id: { in: unique }, provisional: true },
    select: { id: true },
  });
  const have = new Set(found.map((c) => c.id));
  const missing = unique.filter((id) => !have.has(id));
  if (missing.length) {
    const message = `Not provisional charts: ${missing.slice(0, 20).join(', ')}`;
    throw badInput(message, [{ code: 'not_provisional', path: ['chartIds'], message }]);
  }
  return unique.sort((a, b) => a - b);
}

/**
 * Adopts provisional charts into the public catalogue (their songs too): they keep every score.
 * All or nothing: an id that is not a provisional chart is BAD_USER_INPUT and nothing changes.
 */
export async function adoptProvisional(db: Db, ids: readonly number[]): Promise<number[]> {
  return db.$transaction(async (tx) => {
    await lockProvisionalExclusive(tx);
    const chartIds = await provisionalIds(tx, ids);
    await tx.chart.updateMany({ where: { id: { in: chartIds } }, data: { provisional: false } });
    await tx.song.updateMany({
      where: { provisional: true, charts: { some: { id: { in: chartIds } } } },
      data: { provisional: false },
    });
    return chartIds;
  });
}

/**
 * Deletes provisional charts with every play and best on them (ranks follow through the
 * BestScore triggers), and their songs when no chart is left. No total changes: a provisional
 * chart has no BPI definition. All or nothing, as adoptProvisional.
 */
export async function purgeProvisional(db: Db, ids: readonly number[]): Promise<number[]> {
  return db.$transaction(async (tx) => {
    await lockProvisionalExclusive(tx);
    const chartIds = await provisionalIds(tx, ids);
    await deleteCharts(tx, chartIds);
    return chartIds;
  });
}

async function deleteCharts(tx: DbLike, chartIds: readonly number[]): Promise<void> {
  const songs = await tx.chart.findMany({ where: { id: { in: [...chartIds] } }, select: { songId: true } });
  await tx.chart.deleteMany({ where: { id: { in: [...chartIds] } } });
  await tx.song.deleteMany({
    where: { id: { in: [...new Set(songs.map((s) => s.songId))] }, provisional: true, charts: { none: {} } },
  });
}

/**
 * After plays were deleted (a batch): the provisional charts among `chartIds` that no play holds
 * any more — no other player's, no other batch's — are deleted, and their songs when emptied.
 * Returns the deleted chart ids. Takes the exclusive lock (call it last in the transaction).
 */
export async function dropUnheldProvisional(tx: DbLike, chartIds: readonly number[]): Promise<number[]> {
  if (!chartIds.length) return [];
  await lockProvisionalExclusive(tx);
  const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
    `SELECT c."id" FROM "Chart" c
      WHERE c."id" = ANY($1::int[]) AND c."provisional"
        AND NOT EXISTS (SELECT 1 FROM "Score" s WHERE s."chartId" = c."id")
      ORDER BY c."id"`,
    [...chartIds],
  );
  const ids = rows.map((r) => Number(r.id));
  if (ids.length) await deleteCharts(tx, ids);
  return ids;
}
