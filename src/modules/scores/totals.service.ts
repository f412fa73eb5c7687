/**
 * Total BPI per player and game version — the ONE implementation. The chart set N is defined in
 * src/domain/totals.ts (SP level 12 with a current definition, available in the version); the
 * formula is totalBpi in src/domain/bpi. Import, batch deletion, migration and the definitions
 * job all go through here.
 */
import type { Prisma } from '../../generated/prisma/client';
import type { Db } from '../../db/client';
import { safeBpi } from '../../domain/bpi';
import { inTotalSet, totalOverSet } from '../../domain/totals';
import type { CatalogueChart } from '../songs/songs.catalogue';

/** A Prisma client or an interactive transaction client. */
export type DbLike = Prisma.TransactionClient;

/** What the totals need from the in-memory catalogue. */
export interface ChartLookup {
  chart(id: number): CatalogueChart | undefined;
  charts(): IterableIterator<CatalogueChart>;
}

export interface PlayerTotal {
  totalBpi: number;
  playedCount: number;
}

/** Ids of the charts in the total set of a version (see src/domain/totals.ts). */
export function totalSetIds(catalogue: ChartLookup, version: string): Set<number> {
  const ids = new Set<number>();
  for (const c of catalogue.charts()) if (inTotalSet(c, version)) ids.add(c.id);
  return ids;
}

/** Total of one player from chartId → best BPI (the player's BestScore.bpi values). */
export function computeTotal(catalogue: ChartLookup, version: string, bestBpi: ReadonlyMap<number, number | null>, setIds = totalSetIds(catalogue, version)): PlayerTotal {
  return totalOverSet(setIds, bestBpi);
}

/** Stores the current totals (PlayerVersionStatus.totalBpi/playedCount) of several players at once. */
export async function storeTotals(db: DbLike, version: string, totals: ReadonlyMap<string, PlayerTotal>): Promise<void> {
  if (totals.size === 0) return;
  const rows = [...totals].map(([userId, t]) => ({ userId, totalBpi: t.totalBpi, playedCount: t.playedCount }));
  await db.$executeRawUnsafe(
    `INSERT INTO "PlayerVersionStatus" ("userId", "version", "totalBpi", "playedCount", "updatedAt")
     SELECT x."userId", $2, x."totalBpi", x."playedCount", now()
       FROM jsonb_to_recordset($1::jsonb) AS x("userId" text, "totalBpi" double precision, "playedCount" int)
     ON CONFLICT ("userId", "version") DO UPDATE
       SET "totalBpi" = EXCLUDED."totalBpi", "playedCount" = EXCLUDED."playedCount", "updatedAt" = now()`,
    JSON.stringify(rows),
    version,
  );
}

/** Recomputes and stores the current total BPI of these players in one version from BestScore. */
export async function recomputeForUsers(db: DbLike, catalogue: ChartLookup, userIds: readonly string[], version: string): Promise<Map<string, PlayerTotal>> {
  const out = new Map<string, PlayerTotal>();
  if (userIds.length === 0) return out;
  const setIds = totalSetIds(catalogue, version);
  const bests = await db.bestScore.findMany({
    where: { userId: { in: [...userIds] }, version, chartId: { in: [...setIds] } },
    select: { userId: true, chartId: true, bpi: true },
  });
  const byUser = new Map<string, Map<number, number | null>>(userIds.map((u) => [u, new Map()]));
  for (const b of bests) byUser.get(b.userId)!.set(b.chartId, b.bpi);
  for (const [u, m] of byUser) out.set(u, computeTotal(catalogue, version, m, setIds));
  await storeTotals(db, version, out);
  return out;
}

/**
 * Re-derives BestScore.bpi of these players from the CURRENT definitions (after a definitions
 * update). Score.bpi stays as stored (the BPI at the time of the play). Returns rows changed.
 */
export async function rederiveBestBpi(db: DbLike, catalogue: ChartLookup, userIds: readonly string[], version: string): Promise<number> {
  if (userIds.length === 0) return 0;
  const bests = await db.bestScore.findMany({
    where: { userId: { in: [...userIds] }, version },
    select: { userId: true, chartId: true, exScore: true, bpi: true },
  });
  const changed: { userId: string; chartId: number; bpi: number | null }[] = [];
  for (const b of bests) {
    const def = catalogue.chart(b.chartId)?.definition;
    const bpi = def ? safeBpi(b.exScore, def) : null;
    if (bpi !== b.bpi) changed.push({ userId: b.userId, chartId: b.chartId, bpi });
  }
  if (changed.length) {
    await db.$executeRawUnsafe(
      `UPDATE "BestScore" b SET "bpi" = x."bpi", "updatedAt" = now()
         FROM jsonb_to_recordset($1::jsonb) AS x("userId" text, "chartId" int, "bpi" double precision)
        WHERE b."userId" = x."userId" AND b."chartId" = x."chartId" AND b."version" = $2`,
      JSON.stringify(changed),
      version,
    );
  }
  return changed.length;
}

/**
 * Serialises the score writes of one player (import, batch deletion, migration) for the rest of
 * the transaction, so two concurrent imports never derive bests from the same stale state.
 */
export async function lockPlayer(tx: DbLike, userId: string): Promise<void> {
  await tx.$queryRawUnsafe('SELECT 1 AS ok FROM (SELECT pg_advisory_xact_lock(hashtext($1))) AS l', userId);
}

export const RECOMPUTE_BATCH_USERS = 500;

/**
 * Every player of a version: re-derive BestScore.bpi from the current definitions, then store the
 * totals. The player list is read once; players are then streamed in batches of
 * RECOMPUTE_BATCH_USERS (never all scores at once), each batch with ONE read of its bests, ONE
 * update of the BPIs that changed and ONE upsert of the totals, committed on its own. BPIs are
 * memoised per (chart, EX score), so each distinct score is computed once.
 */
export async function recomputeAll(
  db: Db,
  catalogue: ChartLookup,
  version: string,
  onProgress?: (done: number, total: number) => void,
): Promise<{ users: number; bpiChanged: number }> {
  const users = (
    await db.$queryRawUnsafe<{ userId: string }[]>(
      `SELECT "userId" FROM "BestScore" WHERE "version" = $1
        UNION SELECT "userId" FROM "PlayerVersionStatus" WHERE "version" = $1 ORDER BY 1`,
      version,
    )
  ).map((r) => r.userId);
  const setIds = totalSetIds(catalogue, version);
  const memo = new Map<number, Map<number, number | null>>();
  const bpiOf = (chartId: number, exScore: number): number | null => {
    let byScore = memo.get(chartId);
    if (!byScore) memo.set(chartId, (byScore = new Map()));
    let bpi = byScore.get(exScore);
    if (bpi === undefined) {
      const def = catalogue.chart(chartId)?.definition;
      bpi = def ? safeBpi(exScore, def) : null;
      byScore.set(exScore, bpi);
    }
    return bpi;
  };
  let done = 0;
  let bpiChanged = 0;
  onProgress?.(0, users.length);
  for (let i = 0; i < users.length; i += RECOMPUTE_BATCH_USERS) {
    const ids = users.slice(i, i + RECOMPUTE_BATCH_USERS);
    await db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRawUnsafe<{ userId: string; chartId: number; exScore: number; bpi: number | null }[]>(
          `SELECT "userId", "chartId", "exScore", "bpi" FROM "BestScore" WHERE "version" = $1 AND "userId" = ANY($2::text[])`,
          version,
          ids,
        );
        const cu: string[] = [];
        const cc: number[] = [];
        const cb: (number | null)[] = [];
        const byUser = new Map<string, Map<number, number | null>>(ids.map((u) => [u, new Map()]));
        for (const r of rows) {
          const bpi = bpiOf(r.chartId, r.exScore);
          if (bpi !== r.bpi) {
            cu.push(r.userId);
            cc.push(r.chartId);
            cb.push(bpi);
          }
          if (setIds.has(r.chartId)) byUser.get(r.userId)!.set(r.chartId, bpi);
        }
        if (cu.length) {
          await tx.$executeRawUnsafe(
            `UPDATE "BestScore" b SET "bpi" = x.bpi, "updatedAt" = now()
               FROM unnest($1::text[], $2::int[], $3::float8[]) AS x("userId", "chartId", bpi)
              WHERE b."userId" = x."userId" AND b."chartId" = x."chartId" AND b."version" = $4`,
            cu,
            cc,
            cb,
            version,
          );
        }
        const totals = new Map<string, PlayerTotal>();
        for (const [u, m] of byUser) totals.set(u, computeTotal(catalogue, version, m, setIds));
        await storeTotals(tx, version, totals);
        bpiChanged += cu.length;
      },
      { timeout: 120_000 },
    );
    done += ids.length;
    onProgress?.(done, users.length);
  }
  return { users: done, bpiChanged };
}
