/**
 * Rival suggestions and user search as the reference has them (docs/domain/social.md#discovery).
 *
 * Suggestions (`User.suggestedRivals`, the owner only): public players other than the owner — in
 * the SUPPORTERS order, badge holders, the owner included — with a value on the chosen basis in the
 * version: the stored total BPI (PlayerVersionStatus) or one radar category (RadarCache, kept by
 * the stats area). The owner's own value is the stored total (−15 without one) or the live radar.
 * Orders:
 * - NEAREST (default): |value − mine| ascending;
 * - VALUE: value descending;
 * - NEWEST: the most recently updated total first (PlayerVersionStatus.updatedAt);
 * - SUPPORTERS: badge holders only, oldest badge first;
 * - SHUFFLE: players in a window of values — [50, 100] when mine is above 50, else [mine − 3,
 *   mine + 5] — in a shuffle fixed by `seed` (the same seed gives the same order and pages).
 * Ties by user id. `search` keeps players whose name, or game id (dashes ignored), holds it,
 * case-insensitive. Pages: `first` (1–50, default 20) from `offset`.
 */
import { Prisma } from '../../generated/prisma/client';
import { badInput } from '../../errors';
import { RadarCategory } from '../../domain/constants';
import { round2 } from '../../domain/bpi';
import { pageSize, parseSearch } from '../../graphql/args';
import type { AreaScope } from '../area';
import { SuggestionOrder } from './rivals.types';

export interface SuggestArgs {
  version: string;
  category?: RadarCategory | null;
  order?: SuggestionOrder | null;
  search?: string | null;
  seed?: number | null;
  first?: number | null;
  offset?: number | null;
}

export interface Suggestion {
  userId: string;
  totalBpi: number;
  value: number;
  distance: number;
}

const RADAR_COLUMN: Record<RadarCategory, string> = {
  [RadarCategory.NOTES]: 'notes',
  [RadarCategory.CHORD]: 'chord',
  [RadarCategory.PEAK]: 'peak',
  [RadarCategory.CHARGE]: 'charge',
  [RadarCategory.SCRATCH]: 'scratch',
  [RadarCategory.SOFLAN]: 'soflan',
};

/** A LIKE pattern holding `s` anywhere (its wildcards escaped). */
export const containing = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Name or game id holds the search (the game id without its dashes when the search is digits and dashes). */
export function nameOrGameId(search: string, user = 'u'): Prisma.Sql {
  const u = Prisma.raw(`"${user}"`);
  const digits = /^[\d-]+$/.test(search) ? search.replace(/-/g, '') : null;
  const byName = Prisma.sql`${u}."nameKey" LIKE ${containing(search)}`;
  return digits
    ? Prisma.sql`(${byName} OR replace(coalesce(${u}."gameId", ''), '-', '') LIKE ${containing(digits)})`
    : Prisma.sql`(${byName} OR lower(coalesce(${u}."gameId", '')) LIKE ${containing(search)})`;
}

export function parseOffset(offset: number | null | undefined): number {
  if (offset === null || offset === undefined) return 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > 10_000)
    throw badInput('offset must be between 0 and 10000', [
      { code: 'too_big', path: ['offset'], message: 'offset must be between 0 and 10000' },
    ]);
  return offset;
}

/** The suggestions, given the owner's value on the basis (`mine`). One statement. */
export async function suggestRivals(
  db: AreaScope['db'],
  userId: string,
  mine: number,
  args: SuggestArgs,
): Promise<Suggestion[]> {
  const order = args.order ?? SuggestionOrder.NEAREST;
  const n = pageSize(args.first, 50, 20);
  const offset = parseOffset(args.offset);
  const search = parseSearch(args.search, 'search', 50);
  if (order === SuggestionOrder.SHUFFLE && (args.seed === null || args.seed === undefined))
    throw badInput('seed is required for the SHUFFLE order', [
      { code: 'invalid_argument', path: ['seed'], message: 'seed is required for the SHUFFLE order' },
    ]);
  const v = args.version;
  const value = args.category
    ? Prisma.raw(`r."${RADAR_COLUMN[args.category]}"`)
    : Prisma.raw(`coalesce(s."totalBpi", -15)`);
  const from = args.category
    ? Prisma.sql`"RadarCache" r JOIN "User" u ON u."id" = r."userId" AND r."version" = ${v}
        LEFT JOIN "PlayerVersionStatus" s ON s."userId" = u."id" AND s."version" = ${v}`
    : Prisma.sql`"PlayerVersionStatus" s JOIN "User" u ON u."id" = s."userId" AND s."version" = ${v}`;
  const conds: Prisma.Sql[] = [Prisma.sql`u."isPublic"`];
  if (order === SuggestionOrder.SUPPORTERS) conds.push(Prisma.sql`b."userId" IS NOT NULL`);
  else conds.push(Prisma.sql`u."id" <> ${userId}`);
  if (search) conds.push(nameOrGameId(search));
  if (order === SuggestionOrder.SHUFFLE) {
    const [lo, hi] = mine > 50 ? [50, 100] : [mine - 3, mine + 5];
    conds.push(Prisma.sql`${value} BETWEEN ${lo} AND ${hi}`);
  }
  const orderBy = {
    [SuggestionOrder.NEAREST]: Prisma.sql`abs(${value} - ${mine}) ASC`,
    [SuggestionOrder.VALUE]: Prisma.sql`${value} DESC`,
    [SuggestionOrder.NEWEST]: Prisma.sql`s."updatedAt" DESC NULLS LAST`,
    [SuggestionOrder.SUPPORTERS]: Prisma.sql`b."grantedAt" ASC`,
    [SuggestionOrder.SHUFFLE]: Prisma.sql`md5(${String(args.seed)} || ':' || u."id") ASC`,
  }[order];
  const rows = await db.$queryRaw<{ userId: string; totalBpi: number; value: number }[]>`
    SELECT u."id" AS "userId", coalesce(s."totalBpi", -15)::float8 AS "totalBpi", (${value})::float8 AS "value"
      FROM ${from} LEFT JOIN "UserBadge" b ON b."userId" = u."id"
     WHERE ${Prisma.join(conds, ' AND ')}
     ORDER BY ${orderBy}, u."id" ASC
     LIMIT ${n} OFFSET ${offset}`;
  return rows.map((r) => ({
    userId: r.userId,
    totalBpi: Number(r.totalBpi),
    value: Number(r.value),
    distance: round2(Math.abs(Number(r.value) - mine)),
  }));
}
