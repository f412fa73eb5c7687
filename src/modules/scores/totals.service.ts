/**
 * Total BPI per player and game version — the ONE implementation. The chart set N is defined in
 * src/domain/totals.ts (SP level 12 with a current definition, available in the version); the
 * formula is totalBpi in src/domain/bpi. Import, batch deletion, migration and the definitions
 * job all go through here.
 */
import type { Prisma } from '../../generated/prisma/client';
import type { Db } from '../../db/client';
import { inTotalSet, totalOverSet } from '../../domain/totals';
import type { CatalogueChart } from '../catalogue/catalogue';
import { PLAYERS_WITH_BESTS } from '../../db/queries';
import { lockCurrentDefinitions, withCurrentCatalogue, type ReloadableCatalogue } from './current-definitions';

/** A Prisma client or an interactive transaction client. */
export type DbLike = Prisma.TransactionClient;

/** What the totals need from the in-memory catalogue. */
export interface ChartLookup {
  chart(id: number): CatalogueChart | undefined;
  charts(): IterableIterator<CatalogueChart>;
  /** BPI of an EX score under the chart's current definition — the BPI of a best (Catalogue.currentBpi). */
  currentBpi(chartId: number, exScore: number): number | null;
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

/** chartId → the current BPI of each best's EX score (catalogue.currentBpi), from chartId → best. */
export function bestBpis(
  catalogue: ChartLookup,
  bests: ReadonlyMap<number, { exScore: number }>,
): Map<number, number | null> {
  const out = new Map<number, number | null>();
  for (const [chartId, b] of bests) out.set(chartId, catalogue.currentBpi(chartId, b.exScore));
  return out;
}

/** Total of one player from chartId → BPI of the best on it (bestBpis for the current bests; replays pass the stored play BPIs). */
export function computeTotal(
  catalogue: ChartLookup,
  version: string,
  bestBpi: ReadonlyMap<number, number | null>,
  setIds = totalSetIds(catalogue, version),
): PlayerTotal {
  return totalOverSet(setIds, bestBpi);
}

/** Stores the current totals (PlayerVersionStatus.totalBpi/playedCount) of several players at once. */
export async function storeTotals(
  db: DbLike,
  version: string,
  totals: ReadonlyMap<string, PlayerTotal>,
): Promise<void> {
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

/**
 * Serialises the score writes of one player (import, batch deletion, migration) for the rest of
 * the transaction, so two concurrent imports never derive bests from the same stale state.
 */
export async function lockPlayer(tx: DbLike, userId: string): Promise<void> {
  await tx.$queryRawUnsafe('SELECT 1 AS ok FROM (SELECT pg_advisory_xact_lock(hashtext($1))) AS l', userId);
}

/**
 * Test seam (never set in production): told SYNCHRONOUSLY right after a score writer's
 * transaction took the player's lock (lockPlayer), before its next statement — so the order of
 * the calls for one player is the order in which their transactions hold the lock, i.e. the
 * order in which the writers of that player are serialised. `batchId`: the batch the import
 * writes if anything improves (an up-to-date import writes none: its id is never seen again),
 * or the batch being deleted. A transaction run again (a deadlock / serialization retry, a stale
 * catalogue) takes the lock again and is told again: the LAST call of a batch id is the
 * acquisition whose transaction committed. Set on the app (`app.onPlayerLocked = …`: services
 * read it through their scope); the concurrency property test (test/integration/scores/
 * interleavings.property.test.ts) replays the writers in this order. Throwing aborts the writer.
 */
export type PlayerLockObserver = (e: { kind: 'import' | 'deleteBatch'; userId: string; batchId: string }) => void;

/** lockPlayer for several players, taken in sorted order (so two callers never wait on each other in a cycle). */
export async function lockPlayers(tx: DbLike, userIds: readonly string[]): Promise<void> {
  const ids = [...new Set(userIds)].sort();
  await tx.$queryRawUnsafe(
    'SELECT count(*)::int AS n FROM (SELECT pg_advisory_xact_lock(hashtext(u)) FROM unnest($1::text[]) AS u) AS l', // in array order
    ids,
  );
}

export const RECOMPUTE_BATCH_USERS = 1000;

/**
 * Every player of a version: store the totals (PlayerVersionStatus.totalBpi/playedCount) from the
 * CURRENT definitions — the only stored values of the scores area that depend on them (a best's
 * BPI is derived on read, catalogue.currentBpi). The player list is read once; players are then
 * streamed in batches of RECOMPUTE_BATCH_USERS (never all scores at once), each batch with ONE
 * read — per player, the chart ids and EX scores of their bests on the charts of the total set,
 * aggregated into two arrays — and ONE upsert of the totals, in one transaction that holds the
 * batch's player locks (the ones imports take), so a concurrent import is never overwritten, and
 * the definitions lock shared with the catalogue checked under it (as a score writer:
 * ./current-definitions.ts), so a batch's totals follow the definitions current when it commits
 * (a stale catalogue is loaded afresh and the batch runs again). A definitions update committed
 * after a batch is the recompute job's to catch: it runs again (src/jobs/recompute.job.ts).
 */
export async function recomputeAll(
  db: Db,
  catalogue: ChartLookup & Pick<ReloadableCatalogue, 'load'>,
  version: string,
  onProgress?: (done: number, total: number) => void,
): Promise<{ users: number; batches: number }> {
  // Sorted player ids (the batches take their import locks in this order): players with bests (a
  // loose index scan: PLAYERS_WITH_BESTS) and players with a stored total.
  const users = (
    await db.$queryRawUnsafe<{ userId: string }[]>(
      `${PLAYERS_WITH_BESTS}
       UNION SELECT "userId" FROM "PlayerVersionStatus" WHERE "version" = $1 ORDER BY 1`,
      version,
    )
  ).map((r) => r.userId);
  let done = 0;
  let batches = 0;
  onProgress?.(0, users.length);
  for (let i = 0; i < users.length; i += RECOMPUTE_BATCH_USERS) {
    const ids = users.slice(i, i + RECOMPUTE_BATCH_USERS);
    // One transaction per batch holding the players' import locks (lockPlayer, taken in id order):
    // an import committing meanwhile can never have its new total overwritten by an older reading.
    // Then the definitions lock, shared: the catalogue read here is the database's current one.
    await withCurrentCatalogue(catalogue, (seen) => {
      // (the catalogue read before the first await: `seen` is its fingerprint)
      const setIds = totalSetIds(catalogue, version);
      const setList = [...setIds];
      return db.$transaction(
        async (tx) => {
          await lockPlayers(tx, ids);
          await lockCurrentDefinitions(tx, seen);
          const rows = setList.length
            ? await tx.$queryRawUnsafe<{ userId: string; chartIds: number[]; exScores: number[] }[]>(
                `SELECT "userId", array_agg("chartId") AS "chartIds", array_agg("exScore") AS "exScores"
                 FROM "BestScore" WHERE "version" = $1 AND "userId" = ANY($2::text[]) AND "chartId" = ANY($3::int[])
                GROUP BY "userId"`,
                version,
                ids,
                setList,
              )
            : [];
          const byUser = new Map(rows.map((r) => [r.userId, r]));
          const totals = new Map<string, PlayerTotal>();
          for (const u of ids) {
            const r = byUser.get(u);
            const bpis = new Map<number, number | null>();
            if (r)
              for (let k = 0; k < r.chartIds.length; k++)
                bpis.set(Number(r.chartIds[k]), catalogue.currentBpi(Number(r.chartIds[k]), Number(r.exScores[k])));
            totals.set(u, computeTotal(catalogue, version, bpis, setIds));
          }
          await storeTotals(tx, version, totals);
        },
        { timeout: 120_000 },
      );
    });
    batches++;
    done += ids.length;
    onProgress?.(done, users.length);
  }
  return { users: done, batches };
}
