import type { Db } from '../../db/client';
import { Prisma, type PlayerVersionStatus, type RadarCache } from '../../generated/prisma/client';
import { LATEST_VERSION } from '../../domain/constants';
import { groupBy, inKeyOrder, keyedLoader, loader, rowsPerKey } from '../../graphql/loaders';
import { epochMs, jsonRow } from '../../db/json-row';
import { BPI_FLOOR } from '../../domain/bpi';
import type {
  ArenaObservation,
  NeighbourCandidate,
  PlayInput,
  SnapshotClassCount,
  TowerDayInput,
} from '../../domain/stats';

/** A player's plays of a version as the plays loader reads them, column by column: id, chartId, exScore, bpi, playedAt (epoch ms). */
type PlayColumns = [number[], number[], number[], (number | null)[], number[]];
/** An arena observation as the arena loader reads it: snapshotId, fetchedAt (epoch ms), version, gameId, arenaClass, rank, wins, a1Continue. */
type ObservationTuple = [number, number, string, string, string, number | null, number | null, number | null];
/** A tower day as the tower loader reads it: userId, version, playDate (`YYYY-MM-DD`), keyCount, scratchCount. */
type TowerTuple = [string, string, string, number, number];

/** A player in a version. */
export interface PlayerVersionKey {
  userId: string;
  version: string;
}

/** A game id in a version (arena snapshots). */
export interface GameVersionKey {
  gameId: string;
  version: string;
}

export interface ArenaRows {
  observations: ArenaObservation[];
  classCounts: SnapshotClassCount[];
}

const pvKey = (k: PlayerVersionKey) => `${k.userId}\u0000${k.version}`;
const gvKey = (k: GameVersionKey) => `${k.gameId}\u0000${k.version}`;

export interface AreaRankRow {
  area: string;
  areaRank: number;
  totalInArea: number;
}

/** Loaders of the stats area: `ctx.loaders.stats.<name>`. */
export function createStatsLoaders(db: Db) {
  return {
    /** userId → PlayerVersionStatus rows (total BPI and arena status per version) */
    statuses: loader<string, PlayerVersionStatus[]>(async (ids) => {
      const rows = await db.playerVersionStatus.findMany({ where: { userId: { in: [...ids] } } });
      return inKeyOrder(
        ids,
        groupBy(rows, (r) => r.userId),
        [],
      );
    }),
    /** stored game id (8 digits) → area rank in the latest official arena snapshot of the latest version */
    areaRank: loader<string, AreaRankRow | null>(async (gameIds) => {
      const ids = Prisma.join([...gameIds]);
      const rows = await db.$queryRaw<{ gameId: string; area: string; pos: number; total: number }[]>(Prisma.sql`
        WITH snap AS (
          SELECT id FROM "ArenaSnapshot" WHERE version = ${LATEST_VERSION} ORDER BY "fetchedAt" DESC, id DESC LIMIT 1
        ), ranked AS (
          SELECT e."gameId", e.area,
                 ROW_NUMBER() OVER (PARTITION BY e.area ORDER BY e."arenaClass", e.rank ASC NULLS LAST, e."gameId") AS pos,
                 COUNT(*) OVER (PARTITION BY e.area) AS total
            FROM "ArenaEntry" e JOIN snap ON e."snapshotId" = snap.id
           WHERE e."arenaClass"::text IN ('A1', 'A2', 'A3', 'A4', 'A5') AND e.area IS NOT NULL
             AND e.area IN (SELECT x.area FROM "ArenaEntry" x JOIN snap ON x."snapshotId" = snap.id WHERE x."gameId" IN (${ids}))
        )
        SELECT "gameId", area, pos::int AS pos, total::int AS total FROM ranked WHERE "gameId" IN (${ids})`);
      return inKeyOrder(
        gameIds,
        new Map(rows.map((r) => [r.gameId, { area: r.area, areaRank: Number(r.pos), totalInArea: Number(r.total) }])),
        null,
      );
    }),
    /**
     * Every stored play (Score row) of the player in the version: the dashboard's trend, total as
     * of a date, activity, box plot, review months and review read this one list (one statement
     * per request, whatever the parts asked; index (userId, version, playedAt)). In play-time order
     * (playedAt, then id: the calculators' byPlayTime), so that the parts replaying plays in that
     * order (trend, total as of a date, review) sort a list already in order (one comparison a play).
     */
    plays: keyedLoader<PlayerVersionKey, (PlayInput & { userId: string })[]>(pvKey, async (keys) => {
      // One row per (player, version) holding its plays column by column (one JSON array of ids, one of
      // chart ids, …), not a row per play: a third of the Prisma client's CPU for the same values, and
      // the columns parse in about half the time of a tuple per play (bpi as float8's shortest text,
      // playedAt as epoch milliseconds: timestamp(3) round-trips).
      const rows = await db.$queryRaw<{ userId: string; version: string; j: string }[]>(Prisma.sql`
        SELECT "userId", "version", json_build_array(
                 array_agg("id" ORDER BY "playedAt", "id"), array_agg("chartId" ORDER BY "playedAt", "id"),
                 array_agg("exScore" ORDER BY "playedAt", "id"), array_agg("bpi" ORDER BY "playedAt", "id"),
                 array_agg(${epochMs('"playedAt"')} ORDER BY "playedAt", "id"))::text AS j
          FROM "Score"
         WHERE "userId" IN (${Prisma.join([...new Set(keys.map((k) => k.userId))])})
           AND "version" IN (${Prisma.join([...new Set(keys.map((k) => k.version))])})
         GROUP BY "userId", "version"`);
      const byKey = new Map<string, (PlayInput & { userId: string })[]>();
      for (const { userId, version, j } of rows) {
        const [ids, chartIds, exScores, bpis, at] = JSON.parse(j) as PlayColumns;
        const plays: (PlayInput & { userId: string; version: string })[] = new Array(ids.length);
        for (let i = 0; i < ids.length; i++)
          plays[i] = {
            id: ids[i],
            userId,
            version,
            chartId: chartIds[i],
            exScore: exScores[i],
            bpi: bpis[i],
            playedAt: new Date(at[i]),
          };
        byKey.set(pvKey({ userId, version }), plays);
      }
      return keys.map((k) => byKey.get(pvKey(k)) ?? []);
    }),
    /**
     * The player's key-counter days (TowerEntry) of the version, `playDate` as its `YYYY-MM-DD` text
     * (what every reader makes of it: dateOnly). One JSON row, as the plays: the Prisma client's
     * mapping of a version's ~200 days was ~1.8 ms of CPU, this ~0.2 ms beyond the statement.
     */
    tower: keyedLoader<PlayerVersionKey, (TowerDayInput & { userId: string; version: string })[]>(
      pvKey,
      async (keys) => {
        const tuples = await jsonRow<TowerTuple[]>(
          db,
          Prisma.sql`
          SELECT COALESCE(json_agg(json_build_array("userId", "version", to_char("playDate", 'YYYY-MM-DD'),
                   "keyCount", "scratchCount"))::text, '[]') AS j
            FROM "TowerEntry"
           WHERE "userId" IN (${Prisma.join([...new Set(keys.map((k) => k.userId))])})
             AND "version" IN (${Prisma.join([...new Set(keys.map((k) => k.version))])})`,
        );
        const rows = tuples.map(([userId, version, playDate, keyCount, scratchCount]) => ({
          userId,
          version,
          playDate,
          keyCount,
          scratchCount,
        }));
        return rowsPerKey(keys, rows, pvKey);
      },
    ),
    /**
     * The player's official arena observations of a version and the class sizes of those snapshots:
     * one statement returning both as one JSON row (fetchedAt as epoch milliseconds: timestamp(3)
     * round-trips), not the observations, then a second statement for the sizes mapped row by row
     * by the Prisma client. The sizes are counted snapshot by snapshot (LATERAL), grouped by the class
     * itself (an enum) and its text made once per group: one sort of all the snapshots' entries by
     * (snapshot, class text) was most of the statement (60 snapshots × 200 players: ~7 ms of
     * PostgreSQL → ~3 ms).
     */
    arena: keyedLoader<GameVersionKey, ArenaRows>(gvKey, async (keys) => {
      const [obsRows, countRows] = await jsonRow<[ObservationTuple[], [number, string, number][]]>(
        db,
        Prisma.sql`
        WITH obs AS (
          SELECT s."id" AS "snapshotId", s."fetchedAt", s."version", e."gameId", e."arenaClass"::text AS "arenaClass",
                 e."rank", e."wins", e."a1Continue"
            FROM "ArenaEntry" e JOIN "ArenaSnapshot" s ON s."id" = e."snapshotId"
           WHERE e."gameId" IN (${Prisma.join([...new Set(keys.map((k) => k.gameId))])})
             AND s."version" IN (${Prisma.join([...new Set(keys.map((k) => k.version))])})
        ), counts AS (
          SELECT o."snapshotId", c."arenaClass"::text AS "arenaClass", c."count"
            FROM (SELECT DISTINCT "snapshotId" FROM obs) o,
                 LATERAL (SELECT "arenaClass", COUNT(*)::int AS "count" FROM "ArenaEntry" e
                           WHERE e."snapshotId" = o."snapshotId" GROUP BY "arenaClass") c
        )
        SELECT json_build_array(
                 (SELECT COALESCE(json_agg(json_build_array("snapshotId", ${epochMs('"fetchedAt"')},
                    "version", "gameId", "arenaClass", "rank", "wins", "a1Continue")), '[]') FROM obs),
                 (SELECT COALESCE(json_agg(json_build_array("snapshotId", "arenaClass", "count")), '[]') FROM counts)
               )::text AS j`,
      );
      const obs = obsRows.map(([snapshotId, at, version, gameId, arenaClass, rank, wins, a1Continue]) => ({
        snapshotId,
        fetchedAt: new Date(at),
        version,
        gameId,
        arenaClass: arenaClass as ArenaObservation['arenaClass'],
        rank,
        wins,
        a1Continue,
      }));
      const countsBySnap = groupBy(
        countRows.map(([snapshotId, arenaClass, count]) => ({
          snapshotId,
          arenaClass: arenaClass as SnapshotClassCount['arenaClass'],
          count,
        })),
        (c) => c.snapshotId,
      );
      const byKey = groupBy(obs, gvKey);
      return keys.map((k) => {
        const observations = byKey.get(gvKey(k)) ?? [];
        const snaps = new Set(observations.map((o) => o.snapshotId));
        return { observations, classCounts: [...snaps].flatMap((id) => countsBySnap.get(id) ?? []) };
      });
    }),
    /** RadarCache rows of (player, version): the cached radar values. */
    radarCache: keyedLoader<PlayerVersionKey, RadarCache | null>(pvKey, async (keys) => {
      const rows = await db.radarCache.findMany({
        where: {
          userId: { in: [...new Set(keys.map((k) => k.userId))] },
          version: { in: [...new Set(keys.map((k) => k.version))] },
        },
      });
      const byKey = new Map(rows.map((r) => [pvKey(r), r]));
      return keys.map((k) => byKey.get(pvKey(k)) ?? null);
    }),
  };
}

export type StatsLoaders = ReturnType<typeof createStatsLoaders>;

/** What `neighbourhood` reads: my stored total, the candidates, the neighbours SQL picked and their bests on my charts. */
export interface Neighbourhood {
  /** PlayerVersionStatus.totalBpi of (me, version), or null without a row */
  stored: number | null;
  candidates: NeighbourCandidate[];
  /** the n candidates SQL finds nearest my total (|total − mine|, ties by user id in code-point order), in no set order */
  picked: string[];
  /** the picked players' bests of the version on the charts of my bests of the version (in no set order) */
  theirs: { userId: string; chartId: number; exScore: number }[];
}

/**
 * The dashboard's neighbours (docs/domain/stats.md#neighbours) in ONE statement: my stored total, the
 * candidates around it (two index range scans on PlayerVersionStatus(version, totalBpi), at most 2n rows),
 * the n nearest of them and their bests on my charts (one JSON row). Three statements one after the
 * other before — my total, then the candidates around it, then the picked players' bests —, two round
 * trips after the request's first round of reads. The caller picks the neighbours again with
 * pickNeighbours (the rule) and uses `theirs` only when SQL picked the same players (it always does:
 * the same distance in float8, ties by user id in code-point order, as a JavaScript string comparison
 * of ids without characters beyond U+FFFF); otherwise it reads their bests with neighbourBests.
 * `"chartId" + 0`: my charts filter the picked players' rows (found by the primary key), they are no
 * index condition — without planner statistics the (chartId, version) index was walked once per chart
 * of mine (~900 probes, twice the time).
 */
export async function neighbourhood(db: Db, userId: string, version: string, n: number): Promise<Neighbourhood> {
  const [stored, candidates, picked, theirs] = await jsonRow<
    [number | null, [string, number][], string[] | null, [string, number, number][]]
  >(
    db,
    Prisma.sql`
    WITH me AS (
      SELECT "stored", COALESCE("stored", ${BPI_FLOOR}::float8) AS t
        FROM (SELECT (SELECT "totalBpi" FROM "PlayerVersionStatus" WHERE "userId" = ${userId} AND "version" = ${version}) AS "stored") x
    ), cand AS (
      (SELECT "userId", "totalBpi" FROM "PlayerVersionStatus"
        WHERE "version" = ${version} AND "userId" <> ${userId} AND "totalBpi" >= (SELECT t FROM me)
        ORDER BY "totalBpi" ASC, "userId" LIMIT ${n})
      UNION ALL
      (SELECT "userId", "totalBpi" FROM "PlayerVersionStatus"
        WHERE "version" = ${version} AND "userId" <> ${userId} AND "totalBpi" < (SELECT t FROM me)
        ORDER BY "totalBpi" DESC, "userId" LIMIT ${n})
    ), picked AS (
      SELECT "userId" FROM cand ORDER BY abs("totalBpi" - (SELECT t FROM me)), "userId" COLLATE "C" LIMIT ${n}
    )
    SELECT json_build_array(
             (SELECT "stored" FROM me),
             (SELECT COALESCE(json_agg(json_build_array("userId", "totalBpi")), '[]') FROM cand),
             (SELECT json_agg("userId") FROM picked),
             (SELECT COALESCE(json_agg(json_build_array("userId", "chartId", "exScore")), '[]') FROM "BestScore"
               WHERE "version" = ${version} AND "userId" = ANY(ARRAY(SELECT "userId" FROM picked))
                 AND "chartId" + 0 = ANY(ARRAY(SELECT "chartId" FROM "BestScore" WHERE "userId" = ${userId} AND "version" = ${version})))
           )::text AS j`,
  );
  return {
    stored,
    candidates: candidates.map(([id, totalBpi]) => ({ userId: id, totalBpi })),
    picked: picked ?? [],
    theirs: theirs.map(([id, chartId, exScore]) => ({ userId: id, chartId, exScore })),
  };
}

/**
 * The bests of `userIds` on `chartIds` in the version (the dashboard's neighbours, docs/domain/stats.md#neighbours): one JSON row
 * and the chart ids as one int[] parameter, not a row per best and a parameter per chart (~13 ms of
 * CPU → ~1.5 ms for 20 neighbours' 3,000 bests on ~900 charts).
 */
export async function neighbourBests(
  db: Db,
  version: string,
  userIds: readonly string[],
  chartIds: readonly number[],
): Promise<{ userId: string; chartId: number; exScore: number }[]> {
  const tuples = await jsonRow<[string, number, number][]>(
    db,
    Prisma.sql`
    SELECT COALESCE(json_agg(json_build_array("userId", "chartId", "exScore"))::text, '[]') AS j
      FROM "BestScore"
     WHERE "version" = ${version} AND "userId" IN (${Prisma.join(userIds)})
       AND "chartId" = ANY(${`{${chartIds.map((id) => Math.trunc(id)).join(',')}}`}::int[])`,
  );
  return tuples.map(([userId, chartId, exScore]) => ({
    userId,
    chartId,
    exScore,
  }));
}
