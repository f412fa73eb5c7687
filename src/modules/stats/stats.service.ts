/**
 * Stats area: the global total-BPI ranking (domain-stats §4.1, totalBpi category). Reads the stored
 * totals (PlayerVersionStatus, kept by src/modules/scores/totals.service.ts); no GraphQL types here.
 */
import type { Db } from '../../db/client';
import { Prisma } from '../../generated/prisma/client';
import type { ArenaClass } from '../../domain/constants';
import { badInput } from '../../errors';
import { offsetFromCursor, offsetPage, pageSize } from '../../graphql/connection';
import { parseVersion } from '../songs/rankings.service';

export const AREA_MAX_LENGTH = 40;

export interface GlobalRankingQuery {
  version?: string | null;
  area?: string | null;
  arenaClass?: ArenaClass | null;
  first?: number | null;
  after?: string | null;
}

export interface GlobalRankingRow {
  userId: string;
  totalBpi: number;
  rank: number;
}

export class StatsService {
  constructor(private readonly db: Db) {}

  /**
   * Players with a total in the version, highest first (ties by user id, for stable pages), with
   * competition ranks over the filtered population. Unlike the reference (whole population in one
   * answer, ranks without ties) this pages with first/after.
   */
  async globalRanking(q: GlobalRankingQuery, selfUserId: string | null) {
    const version = parseVersion(q.version);
    const area = q.area == null ? null : q.area.trim();
    if (area !== null && (area.length === 0 || area.length > AREA_MAX_LENGTH)) {
      const message = `area must be 1–${AREA_MAX_LENGTH} characters`;
      throw badInput(message, [{ code: 'invalid_string', path: ['area'], message }]);
    }
    const size = pageSize(q.first);
    const offset = offsetFromCursor(q.after);
    const filter = (alias: string) => {
      const t = Prisma.raw(alias);
      const parts = [Prisma.sql`${t}."version" = ${version}`];
      // A player who hides their area / arena class is not in a ranking filtered on it at all:
      // shown anonymously, their total would still match their named row of the unfiltered ranking.
      if (area !== null) parts.push(Prisma.sql`${t}."area" = ${area} AND EXISTS (SELECT 1 FROM "User" hu WHERE hu."id" = ${t}."userId" AND hu."showArea")`);
      if (q.arenaClass) {
        parts.push(Prisma.sql`${t}."arenaClass"::text = ${q.arenaClass} AND EXISTS (SELECT 1 FROM "User" hc WHERE hc."id" = ${t}."userId" AND hc."showArenaClass")`);
      }
      return Prisma.join(parts, ' AND ');
    };
    const [rows, [{ total }], self] = await Promise.all([
      this.db.$queryRaw<GlobalRankingRow[]>`
        SELECT "userId", "totalBpi", "rank" FROM (
          SELECT s."userId", s."totalBpi", (RANK() OVER (ORDER BY s."totalBpi" DESC))::int AS "rank"
            FROM "PlayerVersionStatus" s WHERE ${filter('s')}
        ) r ORDER BY "totalBpi" DESC, "userId" ASC OFFSET ${offset} LIMIT ${size + 1}`,
      this.db.$queryRaw<{ total: number }[]>`SELECT COUNT(*)::int AS total FROM "PlayerVersionStatus" s WHERE ${filter('s')}`,
      selfUserId
        ? this.db.$queryRaw<{ rank: number }[]>`
            SELECT (1 + (SELECT COUNT(*) FROM "PlayerVersionStatus" s WHERE ${filter('s')} AND s."totalBpi" > me."totalBpi"))::int AS "rank"
              FROM "PlayerVersionStatus" me WHERE me."userId" = ${selfUserId} AND ${filter('me')}`
        : Promise.resolve([]),
    ]);
    const page = offsetPage(
      rows.map((r) => ({ userId: r.userId, totalBpi: Number(r.totalBpi), rank: Number(r.rank) })),
      offset,
      size,
      Number(total),
    );
    return { version, area, arenaClass: q.arenaClass ?? null, selfRank: self[0] ? Number(self[0].rank) : null, page };
  }
}
