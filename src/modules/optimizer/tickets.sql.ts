/**
 * The page of each requested ticket's ranked charts, ranked and paged by the database
 * (issue #27: the advice must not decode and sort every arrangement score of 50 tickets on the
 * event loop to answer their first pages). One statement: per pattern, the `size + 1` rows after
 * the keyset cursor (if any) in the order of src/domain/optimizer/tickets.ts `rankTicketCharts`,
 * and the pattern's row count (the connection's totalCount, whatever the cursor). Per pattern a
 * LATERAL subquery with ORDER BY … LIMIT size + 1 (a bounded top-N sort of that pattern's rows).
 * For 50 tickets × 1,000 charts, the read-and-rank step took ~66 ms of main-thread CPU on PGlite
 * with it, ~128 ms with one window sort of every row (row_number() OVER (PARTITION BY pattern …)),
 * ~510 ms when every row was read into JS and sorted there (bench/RESULTS.md, 2026-11-27 14:45).
 *
 * The order is `rankTicketCharts`' exactly: key DESC, chartId ASC, with key = ticketChartKey —
 * raw: the pattern score; relative: score / chartMax when chartMax > 0, else −9999. score and
 * chartMax are double precision (Prisma Float) and the import refuses non-finite numbers, so
 * SQL's `score / chartMax` is the same IEEE-754 double quotient (correctly rounded) as JavaScript's
 * `patternScore / maxPatternScore`: equal keys tie in both, distinct keys compare alike, and
 * −0 = 0 in both. The cursor's key is the JS double's shortest decimal (keyCursor 'num'), read back
 * by Number() and bound as ::float8, which parses it back to that same double.
 */
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../../db/client';
import { RELATIVE_LAST, type TicketScoreMode } from '../../domain/optimizer';

export interface TicketPageRow {
  chartId: number;
  score: number;
  chartMax: number;
}

export interface TicketPageOfPattern {
  /** Rows of the page in rank order: at most size + 1 (one more than the page: more follow). */
  rows: TicketPageRow[];
  /** Every chart with a score for the pattern (the cursor does not change it). */
  total: number;
}

/** Pattern → its page; a pattern without any score is absent (no rows, total 0). */
export async function ticketPages(
  db: Db,
  patterns: readonly string[],
  mode: TicketScoreMode,
  size: number,
  after: readonly [number, number] | null,
): Promise<Map<string, TicketPageOfPattern>> {
  const out = new Map<string, TicketPageOfPattern>();
  if (patterns.length === 0) return out;
  const key =
    mode === 'raw'
      ? Prisma.sql`"score"`
      : Prisma.sql`CASE WHEN "chartMax" > 0 THEN "score" / "chartMax" ELSE ${RELATIVE_LAST}::float8 END`;
  const cursor = after
    ? Prisma.sql`AND ${key} <= ${after[0]}::float8 AND (${key} < ${after[0]}::float8 OR "chartId" > ${after[1]}::int)`
    : Prisma.empty;
  const rows = await db.$queryRaw<
    { pattern: string; total: number; chartId: number | null; score: number | null; chartMax: number | null }[]
  >(Prisma.sql`
    SELECT t."pattern", t."total", p."chartId", p."score", p."chartMax"
      FROM (SELECT "pattern", COUNT(*)::int AS "total" FROM "ArrangementScore"
             WHERE "pattern" IN (${Prisma.join([...patterns])}) GROUP BY "pattern") t
      LEFT JOIN LATERAL (
        SELECT "chartId", "score", "chartMax", ${key} AS "k" FROM "ArrangementScore"
         WHERE "pattern" = t."pattern" ${cursor}
         ORDER BY "k" DESC, "chartId" ASC LIMIT ${size + 1}::int
      ) p ON true
     ORDER BY t."pattern", p."k" DESC, p."chartId" ASC`);
  for (const r of rows) {
    let page = out.get(r.pattern);
    if (!page) out.set(r.pattern, (page = { rows: [], total: r.total }));
    if (r.chartId !== null && r.score !== null && r.chartMax !== null)
      page.rows.push({ chartId: r.chartId, score: r.score, chartMax: r.chartMax });
  }
  return out;
}
