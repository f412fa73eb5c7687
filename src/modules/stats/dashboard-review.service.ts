/**
 * The monthly / yearly review of the dashboard (`Dashboard.review`, owner only: rule Dashboard.review;
 * src/domain/stats/review.ts): the reads, then the replay and its shaping in one turn of the event
 * loop of their own (inLoopTurn), so that a review does not run in the same chain of microtasks as
 * the other parts of a dashboard (issue #27).
 */
import { Prisma, type User } from '../../generated/prisma/client';
import { inLoopTurn } from '../../db/yield';
import { epochMs, jsonRow } from '../../db/json-row';
import { visibleThroughFollow } from '../../db/visibility';
import {
  byDayOfWeek,
  growthLines,
  monthlyReview,
  orThrow,
  parseReviewPeriod,
  towerPeriodRanks,
  type PlayInput,
  type Review,
  type ReviewPeriod,
  type TowerDayInput,
} from '../../domain/stats';
import type { AreaScope } from '../area';

type Scope = Pick<AreaScope, 'db' | 'catalogue' | 'loaders'>;

/** What the review reads of the dashboard's root (dashboard.service.ts DashboardRoot). */
interface ReviewRoot {
  userId: string;
  version: string;
  user: Pick<User, 'gameId'>;
}

/**
 * The row with its `chart` (the GraphQL field) set on it, as dashboard.service.ts: the review's rows
 * are made per call by the domain, so no copy of each.
 */
const JSON_CHART = <T extends { chartId: number }>(cat: Scope['catalogue'], x: T) => {
  const row = x as T & { chart: ReturnType<Scope['catalogue']['chart']> | null };
  row.chart = cat.chart(x.chartId) ?? null;
  return row;
};

/** The review of `monthArg` (YYYY-MM or YYYY); `playsOf` / `towerOf`: the request's shared loads. */
export async function dashboardReview(
  s: Scope,
  r: ReviewRoot,
  monthArg: string,
  playsOf: () => Promise<PlayInput[]>,
  towerOf: () => Promise<readonly TowerDayInput[]>,
) {
  const period = orThrow(parseReviewPeriod(monthArg));
  const db = s.db;
  const start = new Date(Date.parse(`${period.from}T00:00:00+09:00`));
  const end = new Date(Date.parse(`${period.to}T00:00:00+09:00`) + 86400_000);
  const [plays, tower, arena, { rivalRows, rivalPlays, towerTotals, songRanks }] = await Promise.all([
    playsOf(),
    towerOf(),
    r.user.gameId
      ? s.loaders.stats.arena.load({ gameId: r.user.gameId, version: r.version })
      : Promise.resolve({ observations: [], classCounts: [] }),
    reviewReads(db, r.userId, r.version, period, start, end),
  ]);
  const rivalIds = rivalRows.map((x) => x.userId);
  const byRival = new Map<string, PlayInput[]>(rivalIds.map((id) => [id, []]));
  for (const p of rivalPlays) byRival.get(p.userId)!.push(p);
  // the replay and what is built from it in a turn of the event loop of its own (src/db/yield.ts)
  return inLoopTurn(() =>
    shape(
      s.catalogue,
      monthlyReview(s.catalogue, {
        version: r.version,
        period,
        plays,
        tower,
        arena: arena.observations,
        songRanks,
        towerRanks: towerTotals.some((t) => t.userId === r.userId) ? towerPeriodRanks(towerTotals, r.userId) : null,
        rivals: rivalRows.map((x) => ({ ...x, plays: byRival.get(x.userId) ?? [] })),
      }),
      period,
    ),
  );
}

/**
 * The review's reads, in one statement (one JSON row, as the dashboard's own plays, stats.loaders.ts)
 * that does not wait for the player's plays: the followed players the viewer (= the owner) may see —
 * public, or private with an approved follow — with their plays of the version before `end` in
 * play-time order, every player's summed tower keys and scratches of the period, and my rank on each
 * chart I played in the period [start, end) (review.ts `songRanks`; the charts read from Score here,
 * not from the loaded plays, so that the ranks need no second round trip after them). (Three
 * statements before, the plays mapped row by row by the Prisma client: ~4 ms of CPU for three
 * rivals' ~300 plays; the ranks were a fourth, sent once the plays had arrived.)
 */
async function reviewReads(
  db: Scope['db'],
  userId: string,
  version: string,
  period: ReviewPeriod,
  start: Date,
  end: Date,
) {
  const [rivals, plays, towers, ranks] = await jsonRow<
    [
      [string, string, string | null][],
      [number, string, number, number, number | null, number][],
      [string, number, number][],
      [number, number][],
    ]
  >(
    db,
    Prisma.sql`
    WITH r AS (
      SELECT u."id" AS "userId", u."name", u."profileImage" FROM "Follow" f JOIN "User" u ON u."id" = f."followingId"
       WHERE f."followerId" = ${userId} AND ${visibleThroughFollow()}
    ), t AS (
      SELECT "userId", SUM("keyCount")::int AS "keyCount", SUM("scratchCount")::int AS "scratchCount" FROM "TowerEntry"
       WHERE "version" = ${version} AND "playDate" BETWEEN ${period.from}::date AND ${period.to}::date GROUP BY "userId"
    ), k AS (
      SELECT m."chartId", (1 + COUNT(o."userId") FILTER (WHERE o."exScore" > m."exScore"))::int AS "rank"
        FROM "BestScore" m JOIN "BestScore" o ON o."chartId" = m."chartId" AND o."version" = m."version"
       WHERE m."userId" = ${userId} AND m."version" = ${version}
         AND m."chartId" = ANY(ARRAY(SELECT DISTINCT "chartId" FROM "Score" WHERE "userId" = ${userId}
                                       AND "version" = ${version} AND "playedAt" >= ${start} AND "playedAt" < ${end}))
       GROUP BY m."chartId", m."exScore"
    )
    SELECT json_build_array(
             (SELECT COALESCE(json_agg(json_build_array("userId", "name", "profileImage")), '[]') FROM r),
             (SELECT COALESCE(json_agg(json_build_array("id", "userId", "chartId", "exScore", "bpi",
                       ${epochMs('"playedAt"')}) ORDER BY "playedAt", "id"), '[]')
                FROM "Score"
               WHERE "userId" IN (SELECT "userId" FROM r) AND "version" = ${version} AND "playedAt" < ${end}),
             (SELECT COALESCE(json_agg(json_build_array("userId", "keyCount", "scratchCount")), '[]') FROM t),
             (SELECT COALESCE(json_agg(json_build_array("chartId", "rank")), '[]') FROM k)
           )::text AS j`,
  );
  return {
    rivalRows: rivals.map(([id, name, profileImage]) => ({ userId: id, name, profileImage })),
    rivalPlays: plays.map(([id, rival, chartId, exScore, bpi, at]) => ({
      id,
      userId: rival,
      chartId,
      exScore,
      bpi,
      playedAt: new Date(at),
    })),
    towerTotals: towers.map(([id, keyCount, scratchCount]) => ({ userId: id, keyCount, scratchCount })),
    songRanks: new Map(ranks),
  };
}

/** The review as the GraphQL types hold it. */
function shape(cat: Scope['catalogue'], review: Review, period: ReviewPeriod) {
  const song = <T extends { chartId: number }>(x: T) => JSON_CHART(cat, x);
  const a = review.activity;
  return {
    period: period.key,
    granularity: period.kind,
    from: period.from,
    to: period.to,
    bpi: review.bpi,
    topBpiSongs: review.topSongs.topBpiSongs.map(song),
    topImprovedSongs: review.topSongs.topImprovedSongs.map(song),
    activity: {
      ...a,
      byDayOfWeek: byDayOfWeek(a.byWeekday),
      bestGrowth: a.bestDays.bestGrowth
        ? { date: a.bestDays.bestGrowth.date, value: a.bestDays.bestGrowth.bpiDiff }
        : null,
      bestKeysDay: a.bestDays.bestKeysDay
        ? { date: a.bestDays.bestKeysDay.date, value: a.bestDays.bestKeysDay.keyCount }
        : null,
      bestScratchDay: a.bestDays.bestScratchDay
        ? { date: a.bestDays.bestScratchDay.date, value: a.bestDays.bestScratchDay.scratchCount }
        : null,
    },
    // read only when the query selects it (the domain computes it on first read)
    get radarGrowth() {
      return review.radarGrowth.map((g) => ({ ...g, songs: g.songs.map(song) }));
    },
    rivals: review.rivals.map((x) => ({
      ...x,
      user: null as User | null,
      topWinningSongs: x.topWinningSongs.map(song),
    })),
    growthByAbs: review.growthRanking.byAbsGrowth,
    growthByRate: review.growthRanking.byGrowthRate,
    growthLines: growthLines(review),
    arena: review.arena,
  };
}
