import type { Db } from '../../db/client';
import { ARENA_ORDER, type ArenaClass, LATEST_VERSION } from '../../domain/constants';
import { requireVersion } from '../../graphql/args';
import { ArenaFormatError, normalizeArenaRanking } from '../../domain/arena';
import { round2 } from '../../domain/bpi';
import { badInput } from '../../errors';
import type { Catalogue } from '../catalogue/catalogue';
import type { AreaDeps, AreaScope } from '../area';

export interface ArenaImportReport {
  snapshotId: number;
  version: string;
  players: number;
  matchedUsers: number;
  skipped: { index: number; reason: string }[];
}

/**
 * Imports one snapshot of the official arena ranking: stores it, and updates the arena status
 * (class, rank, area, grades, best class) of the users whose game id appears in it.
 */
export async function importOfficialArena(
  db: Db,
  doc: unknown,
  version: string,
  fetchedAt = new Date(),
): Promise<ArenaImportReport> {
  requireVersion(version);
  let normalized: ReturnType<typeof normalizeArenaRanking>;
  try {
    normalized = normalizeArenaRanking(doc);
  } catch (err) {
    if (err instanceof ArenaFormatError) throw badInput(err.message);
    throw err;
  }
  const { players, skipped } = normalized;
  return db.$transaction(
    async (tx) => {
      const snapshot = await tx.arenaSnapshot.create({ data: { version, fetchedAt, entryCount: players.length } });
      await tx.arenaEntry.createMany({ data: players.map((p) => ({ snapshotId: snapshot.id, ...p })) });
      const users = await tx.user.findMany({
        where: { gameId: { in: players.map((p) => p.gameId) } },
        select: { id: true, gameId: true, statuses: { where: { version } } },
      });
      const byGameId = new Map(players.map((p) => [p.gameId, p]));
      for (const u of users) {
        const p = byGameId.get(u.gameId!)!;
        const prev = u.statuses[0];
        const better =
          !prev?.bestArenaClass || ARENA_ORDER.indexOf(p.arenaClass) < ARENA_ORDER.indexOf(prev.bestArenaClass);
        const data = {
          arenaClass: p.arenaClass,
          arenaRank: p.rank,
          area: p.area,
          gradeSp: p.gradeSp,
          gradeDp: p.gradeDp,
          ...(better ? { bestArenaClass: p.arenaClass, bestArenaClassAt: fetchedAt } : {}),
        };
        await tx.playerVersionStatus.upsert({
          where: { userId_version: { userId: u.id, version } },
          create: { userId: u.id, version, ...data },
          update: data,
        });
      }
      return { snapshotId: snapshot.id, version, players: players.length, matchedUsers: users.length, skipped };
    },
    { timeout: 60_000 },
  );
}

/** Distribution of the latest snapshot of a version. */
export async function officialArenaDistribution(db: Db, version: string) {
  const snapshot = await db.arenaSnapshot.findFirst({ where: { version }, orderBy: { fetchedAt: 'desc' } });
  if (!snapshot) return null;
  const groups = await db.arenaEntry.groupBy({
    by: ['arenaClass'],
    where: { snapshotId: snapshot.id },
    _count: { _all: true },
  });
  const counts = new Map(groups.map((g) => [g.arenaClass, g._count._all]));
  const [{ matched: totalMatched }] = await db.$queryRawUnsafe<{ matched: number }[]>(
    `SELECT COUNT(*)::int AS matched FROM "User" u JOIN "ArenaEntry" e ON e."gameId" = u."gameId" WHERE e."snapshotId" = $1`,
    snapshot.id,
  );
  return {
    version,
    fetchedAt: snapshot.fetchedAt,
    totalPlayers: snapshot.entryCount,
    totalMatched,
    distribution: ARENA_ORDER.map((arenaClass) => ({ arenaClass, count: counts.get(arenaClass) ?? 0 })),
  };
}

/**
 * Recomputes the cached arena-class averages (A1–A5) of level 11/12 charts for one version, in
 * the database: each player's current best on the chart, grouped by the player's arena class;
 * a class with fewer than `minSample` players on the chart gets no average. With chartIds only
 * those charts are recomputed.
 */
/**
 * Fewest players behind a published arena-class average: with fewer, the "average" would be a
 * handful of players' scores (with count = 1, one player's score, whoever hides it).
 */
export const ARENA_MIN_SAMPLE = 5;

export async function recomputeArenaAverages(
  db: Db,
  catalogue: Catalogue,
  version: string,
  chartIds?: number[],
  minSample = ARENA_MIN_SAMPLE,
): Promise<number> {
  const only = chartIds ? chartIds.filter((id) => [11, 12].includes(catalogue.chart(id)?.level ?? 0)) : undefined;
  if (only && only.length === 0) return 0;
  const rows = await db.$queryRawUnsafe<{ chartId: number; arenaClass: ArenaClass; avg: number; cnt: number }[]>(
    `SELECT b."chartId" AS "chartId", s."arenaClass"::text AS "arenaClass", AVG(b."exScore")::float8 AS avg, COUNT(*)::int AS cnt
       FROM "BestScore" b
       JOIN "PlayerVersionStatus" s ON s."userId" = b."userId" AND s.version = b.version
       JOIN "Chart" c ON c.id = b."chartId"
      WHERE b.version = $1 AND s."arenaClass"::text IN ('A1','A2','A3','A4','A5') AND c.level IN (11, 12) AND NOT c."provisional"
        ${only ? 'AND b."chartId" = ANY($2::int[])' : ''}
      GROUP BY b."chartId", s."arenaClass"
     HAVING COUNT(*) >= ${only ? '$3' : '$2'}`,
    ...(only ? [version, only, minSample] : [version, minSample]),
  );
  const data = rows.flatMap((r) => {
    const chart = catalogue.chart(r.chartId);
    if (!chart) return [];
    const avgBpi = catalogue.currentBpi(r.chartId, Math.round(r.avg));
    return [
      {
        chartId: r.chartId,
        version,
        arenaClass: r.arenaClass,
        avgExScore: round2(r.avg),
        count: r.cnt,
        avgBpi: avgBpi === null ? null : round2(avgBpi),
      },
    ];
  });
  await db.$transaction(async (tx) => {
    await tx.arenaAverage.deleteMany({ where: { version, ...(only ? { chartId: { in: only } } : {}) } });
    if (data.length) await tx.arenaAverage.createMany({ data });
  });
  return data.length;
}

/**
 * Recomputes the averages of the charts an import (or a deleted account's bests) changed, and drops
 * the cached view of that version. Only the charts given, in one statement.
 */
export async function refreshArenaAverages(
  deps: Pick<AreaDeps, 'db' | 'catalogue' | 'caches'>,
  version: string,
  chartIds?: number[],
): Promise<void> {
  await recomputeArenaAverages(deps.db, deps.catalogue, version, chartIds);
  await deps.caches.changed(ARENA_AVERAGES_CACHE, { version });
}

/** The name of the arena-average cache (src/cluster/caches.ts). */
export const ARENA_AVERAGES_CACHE = 'arena.averages';

type Scope = Pick<AreaScope, 'db' | 'arenaAverages' | 'recompute'>;

/** The official arena: snapshots, the class distribution, the cached class averages per chart. */
export class ArenaService {
  constructor(private readonly s: Scope) {}

  /** A1–A5 averages of a level 11/12 chart (null for other levels; from the in-memory cache). */
  chartAverages(chart: { id: number; level: number }, version: string | null | undefined) {
    if (chart.level < 11) return null;
    // The version is not validated here (an unknown version has no averages: null).
    return this.s.arenaAverages.forChart(chart.id, version ?? LATEST_VERSION);
  }

  /** Class distribution of the latest snapshot of a version (null: none). */
  officialArena(version: string | null | undefined) {
    return officialArenaDistribution(this.s.db, version ?? LATEST_VERSION);
  }

  /** Imports a snapshot and starts the recompute job for its version (averages by the new classes). */
  async importOfficialArena(doc: unknown, version: string | null | undefined) {
    const r = await importOfficialArena(this.s.db, doc, version ?? LATEST_VERSION);
    await this.s.recompute.start([r.version]);
    return { ...r, skipped: r.skipped.length };
  }
}
