import { Prisma } from '../generated/prisma/client';
import type { Db } from './client';

/**
 * A read answered as ONE row of one JSON text column `j` (`… ::text AS j`), parsed: for reads of
 * hundreds or thousands of values (a player's bests, plays, tower days, arena observations), one JSON
 * document costs far less CPU than the same rows mapped one by one by the Prisma client (a player's
 * 900 bests: ~10 ms of row mapping against ~1 ms; bench/RESULTS.md). Timestamps travel as epoch
 * milliseconds (timestamp(3) round-trips: `epochMs`); the caller builds its objects from the parsed tuples.
 */
export async function jsonRow<T>(db: Db, sql: Prisma.Sql): Promise<T> {
  const [{ j }] = await db.$queryRaw<{ j: string }[]>(sql);
  return JSON.parse(j) as T;
}

/**
 * A timestamp column as epoch milliseconds (bigint) in a JSON read: `column` is the quoted column
 * (`"playedAt"`, `s."fetchedAt"`). `date_part`: float8 arithmetic, exact to the millisecond
 * (the microseconds since 1970 are exact in a float8 until the year 2255, the error of the division
 * and the product stays far below the half millisecond the cast rounds), where `extract` computes in
 * numeric — about a tenth of the time of a statement of 2,000 plays.
 */
export function epochMs(column: string): Prisma.Sql {
  return Prisma.raw(`(date_part('epoch', ${column}) * 1000)::bigint`);
}
