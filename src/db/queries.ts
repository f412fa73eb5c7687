/**
 * SQL shared by areas that read across players (plain text for $queryRawUnsafe).
 *
 * PLAYERS_WITH_BESTS: the ids of the players with bests in version $1, as a loose index scan over
 * BestScore's primary key (userId, version, chartId) — one probe per player, not a read or a sort
 * of every best. Append `ORDER BY 1` (or a UNION, then the order).
 */
export const PLAYERS_WITH_BESTS = `WITH RECURSIVE u("userId") AS (
  SELECT min("userId") FROM "BestScore" WHERE "version" = $1
  UNION ALL
  SELECT (SELECT min(b."userId") FROM "BestScore" b WHERE b."version" = $1 AND b."userId" > u."userId") FROM u WHERE u."userId" IS NOT NULL
)
SELECT "userId" FROM u WHERE "userId" IS NOT NULL`;
