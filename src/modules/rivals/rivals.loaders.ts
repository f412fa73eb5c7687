import type { Db } from '../../db/client';
import { Prisma } from '../../generated/prisma/client';
import { BPI_FLOOR } from '../../domain/bpi';
import { groupBy, keyedLoader } from '../../graphql/loaders';

/** Joins the chart of the best `m` when levels or difficulties narrow the comparison (else nothing). */
export function chartFilterJoin(
  levels?: readonly number[] | null,
  difficulties?: readonly string[] | null,
): Prisma.Sql {
  if (!levels && !difficulties) return Prisma.empty;
  return Prisma.sql`JOIN "Chart" c ON c."id" = m."chartId"
    ${levels ? Prisma.sql`AND c."level" IN (${Prisma.join(levels)})` : Prisma.empty}
    ${difficulties ? Prisma.sql`AND c."difficulty"::text IN (${Prisma.join(difficulties)})` : Prisma.empty}`;
}

/** The viewer against one player in a version, on the charts of a filter (null lists: no filter). */
export interface RivalryKey {
  viewerId: string;
  userId: string;
  version: string;
  levels: number[] | null;
  difficulties: string[] | null;
}

export interface RivalryCounts {
  wins: number;
  losses: number;
  draws: number;
}

/** A play, for the win/loss trend. */
export interface PlayRow {
  userId: string;
  chartId: number;
  version: string;
  exScore: number;
  playedAt: Date;
  id: number;
}

/** A player's rank on one chart (competition rank: ties share). */
export interface ChartRankRow {
  chartId: number;
  exScore: number;
  rank: number;
  players: number;
}

/** A player in a version (total BPI lookups). */
export interface TotalKey {
  userId: string;
  version: string;
}

const filterKey = (k: RivalryKey) =>
  `${k.viewerId}\u0000${k.version}\u0000${k.levels?.join(',') ?? '*'}\u0000${k.difficulties?.join(',') ?? '*'}`;
const rivalryKey = (k: RivalryKey) => `${filterKey(k)}\u0000${k.userId}`;
const totalKey = (k: TotalKey) => `${k.userId}\u0000${k.version}`;

/** Loaders of the rivals area: `ctx.loaders.rivals.<name>`. */
export function createRivalLoaders(db: Db) {
  return {
    /**
     * Wins / losses / draws of the viewer against each player asked for, on the charts both have a
     * best on: one statement per (viewer, version, filter), whatever the number of players.
     */
    rivalry: keyedLoader<RivalryKey, RivalryCounts>(rivalryKey, async (keys) => {
      const out = new Map<string, RivalryCounts>();
      for (const group of groupBy(keys, filterKey).values()) {
        const { viewerId, version, levels, difficulties } = group[0];
        const users = [...new Set(group.map((k) => k.userId))];
        const chartFilter = chartFilterJoin(levels, difficulties);
        const rows = await db.$queryRaw<{ userId: string; wins: number; losses: number; draws: number }[]>`
          SELECT o."userId",
                 (count(*) FILTER (WHERE m."exScore" > o."exScore"))::int AS "wins",
                 (count(*) FILTER (WHERE m."exScore" < o."exScore"))::int AS "losses",
                 (count(*) FILTER (WHERE m."exScore" = o."exScore"))::int AS "draws"
            FROM "BestScore" m
            ${chartFilter}
            JOIN "BestScore" o ON o."version" = m."version" AND o."chartId" = m."chartId"
           WHERE m."userId" = ${viewerId} AND m."version" = ${version} AND o."userId" IN (${Prisma.join(users)})
           GROUP BY o."userId"`;
        const byUser = new Map(rows.map((r) => [r.userId, r]));
        for (const k of group) {
          const r = byUser.get(k.userId);
          out.set(rivalryKey(k), {
            wins: Number(r?.wins ?? 0),
            losses: Number(r?.losses ?? 0),
            draws: Number(r?.draws ?? 0),
          });
        }
      }
      return keys.map((k) => out.get(rivalryKey(k))!);
    }),

    /**
     * Every play (Score row) of a pair of players in a version, oldest first (playedAt, id), for the
     * trend replay: one statement per batch of pairs. Key: the two user ids joined by a comma.
     */
    plays: keyedLoader<{ userIds: string; version: string }, PlayRow[]>(
      (k) => `${k.userIds}\u0000${k.version}`,
      async (keys) => {
        const users = [...new Set(keys.flatMap((k) => k.userIds.split(',')))];
        const rows = await db.score.findMany({
          where: { userId: { in: users }, version: { in: [...new Set(keys.map((k) => k.version))] } },
          select: { userId: true, chartId: true, version: true, exScore: true, playedAt: true, id: true },
          orderBy: [{ playedAt: 'asc' }, { id: 'asc' }],
        });
        return keys.map((k) => {
          const pair = new Set(k.userIds.split(','));
          return rows.filter((r) => r.version === k.version && pair.has(r.userId));
        });
      },
    ),

    /**
     * The player's rank on every chart they have a best on in the version, from ChartRankBlock (kept
     * by triggers in the writing transaction): with i = clamp(EX, 0, 16383), rank = 1 + (players in
     * a higher block of 128: the chart row −1 at block + 2) + (players higher in the same block: the
     * block's row at position + 2) — two primary-key reads per chart; one statement per batch of players.
     */
    chartRanks: keyedLoader<TotalKey, ChartRankRow[]>(totalKey, async (keys) => {
      const rows = await db.$queryRaw<(ChartRankRow & { userId: string; version: string })[]>`
        SELECT b."userId", b."version", b."chartId", b."exScore",
               COALESCE(t."above"[1], 0)::int AS "players",
               (1 + COALESCE(t."above"[(LEAST(GREATEST(b."exScore", 0), 16383) >> 7) + 2], 0)
                  + COALESCE(x."above"[(LEAST(GREATEST(b."exScore", 0), 16383) & 127) + 2], 0))::int AS "rank"
          FROM "BestScore" b
          LEFT JOIN "ChartRankBlock" t ON t."chartId" = b."chartId" AND t."version" = b."version" AND t."block" = -1
          LEFT JOIN "ChartRankBlock" x ON x."chartId" = b."chartId" AND x."version" = b."version" AND x."block" = LEAST(GREATEST(b."exScore", 0), 16383) >> 7
         WHERE b."userId" IN (${Prisma.join([...new Set(keys.map((k) => k.userId))])}) AND b."version" IN (${Prisma.join([...new Set(keys.map((k) => k.version))])})
         ORDER BY 6, b."chartId"`;
      const byKey = groupBy(rows, totalKey);
      return keys.map((k) =>
        (byKey.get(totalKey(k)) ?? []).map((r) => ({
          chartId: Number(r.chartId),
          exScore: Number(r.exScore),
          players: Number(r.players),
          rank: Number(r.rank),
        })),
      );
    }),

    /** A player's stored total BPI in a version (−15 when none): one statement per batch. */
    totalBpi: keyedLoader<TotalKey, number>(totalKey, async (keys) => {
      const rows = await db.playerVersionStatus.findMany({
        where: {
          userId: { in: [...new Set(keys.map((k) => k.userId))] },
          version: { in: [...new Set(keys.map((k) => k.version))] },
        },
        select: { userId: true, version: true, totalBpi: true },
      });
      const m = new Map(rows.map((r) => [totalKey(r), r.totalBpi]));
      return keys.map((k) => m.get(totalKey(k)) ?? BPI_FLOOR);
    }),
  };
}

export type RivalLoaders = ReturnType<typeof createRivalLoaders>;
