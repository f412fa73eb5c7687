/**
 * The fingering patterns of a chart as the reference lists them (docs/guide/songs-and-notes.md):
 * every arrangement with an imported arrangement score (ArrangementScore, the precomputed
 * "how favourable" number, higher is better) together with every pattern someone voted on
 * (FingeringPattern), votes beside each; an arrangement nobody voted on has 0 / 0.
 *
 * One statement per page: the two tables of the chart joined on the pattern (FULL OUTER JOIN),
 * ordered and cut by a keyset. Orders:
 * - ARRANGEMENT_SCORE (the default, the reference's): arrangement score desc, patterns without one
 *   last, then vote score desc, pattern asc; cursor [has score 1/0, arrangement score (0 when
 *   none), vote score, pattern];
 * - SCORE: vote score (upvotes − downvotes) desc, pattern asc; UPVOTES: upvotes desc, vote score
 *   desc, pattern asc (cursor [upvotes, vote score, pattern], upvotes 0 when not a key).
 */
import type { AreaScope } from '../area';

export interface PatternRow {
  chartId: number;
  pattern: string;
  /** upvotes − downvotes */
  score: number;
  upvotes: number;
  downvotes: number;
  /** the imported arrangement score (null: none imported) */
  arrangementScore: number | null;
}

/** The chart's patterns: arrangements ∪ voted patterns, with the sort keys as columns. */
const UNION = `
  SELECT $1::int AS "chartId", COALESCE(a."pattern", f."pattern") AS "pattern",
         a."score" AS "arrangementScore",
         (a."score" IS NOT NULL)::int AS "hasA", COALESCE(a."score", 0)::float8 AS "aKey",
         COALESCE(f."score", 0)::float8 AS "score", COALESCE(f."upvotes", 0)::int AS "upvotes",
         COALESCE(f."downvotes", 0)::int AS "downvotes"
    FROM (SELECT "pattern", "score" FROM "ArrangementScore" WHERE "chartId" = $1) a
    FULL OUTER JOIN (SELECT "pattern", "score", "upvotes", "downvotes" FROM "FingeringPattern" WHERE "chartId" = $1) f
      ON f."pattern" = a."pattern"`;

type Dir = 'desc' | 'asc';

/**
 * "After this key" for an order of columns: (c1 beyond k1) OR (c1 = k1 AND (c2 beyond k2 OR …)),
 * parameters from `$first` on. Returns the SQL and its values.
 */
function after(cols: readonly (readonly [string, Dir])[], key: readonly (string | number)[], first: number) {
  const values: (string | number)[] = [];
  const build = (i: number): string => {
    const [col, dir] = cols[i];
    values.push(key[i]);
    const p = `$${first + values.length - 1}`;
    const beyond = `"${col}" ${dir === 'desc' ? '<' : '>'} ${p}`;
    return i === cols.length - 1 ? beyond : `(${beyond} OR ("${col}" = ${p} AND ${build(i + 1)}))`;
  };
  return { sql: build(0), values };
}

export type PatternOrder = 'ARRANGEMENT_SCORE' | 'SCORE' | 'UPVOTES';

const ORDERS: Record<PatternOrder, readonly (readonly [string, Dir])[]> = {
  ARRANGEMENT_SCORE: [
    ['hasA', 'desc'],
    ['aKey', 'desc'],
    ['score', 'desc'],
    ['pattern', 'asc'],
  ],
  SCORE: [
    ['score', 'desc'],
    ['pattern', 'asc'],
  ],
  UPVOTES: [
    ['upvotes', 'desc'],
    ['score', 'desc'],
    ['pattern', 'asc'],
  ],
};

const num = (r: Record<string, unknown>): PatternRow => ({
  chartId: Number(r.chartId),
  pattern: String(r.pattern),
  score: Number(r.score),
  upvotes: Number(r.upvotes),
  downvotes: Number(r.downvotes),
  arrangementScore: r.arrangementScore === null ? null : Number(r.arrangementScore),
});

/** One page (`take` rows) of the chart's patterns after `key` in `order`, and the chart's pattern count. */
export async function patternPage(
  db: AreaScope['db'],
  chartId: number,
  order: PatternOrder,
  key: readonly (string | number)[] | null,
  take: number,
): Promise<{ rows: PatternRow[]; total: number }> {
  const cols = ORDERS[order];
  const pos = key ? after(cols, key, 3) : null;
  const orderBy = cols.map(([c, d]) => `"${c}" ${d.toUpperCase()}`).join(', ');
  const [rows, total] = await Promise.all([
    db.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT * FROM (${UNION}) p ${pos ? `WHERE ${pos.sql}` : ''} ORDER BY ${orderBy} LIMIT $2`,
      chartId,
      take,
      ...(pos?.values ?? []),
    ),
    db.$queryRawUnsafe<{ n: number }[]>(`SELECT COUNT(*)::int AS "n" FROM (${UNION}) p`, chartId),
  ]);
  return { rows: rows.map(num), total: Number(total[0].n) };
}

/**
 * Where one pattern stands on its chart: its row (votes, arrangement score; null when the pattern
 * is neither imported nor voted on), the rank by votes among all listed patterns (1 + those with
 * a strictly higher vote score) and their number, and — as the reference's search — the rank by
 * arrangement score among the arrangements (1 + those strictly higher, ties share) and their number.
 */
export async function patternStanding(db: AreaScope['db'], chartId: number, pattern: string) {
  const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(
    `WITH p AS (${UNION}), me AS (SELECT * FROM p WHERE "pattern" = $2)
     SELECT me.*,
            (SELECT COUNT(*)::int FROM p WHERE p."score" > me."score") AS "higher",
            (SELECT COUNT(*)::int FROM p) AS "total",
            (SELECT COUNT(*)::int FROM p WHERE me."arrangementScore" IS NOT NULL AND p."arrangementScore" > me."arrangementScore") AS "aHigher",
            (SELECT COUNT(*)::int FROM p WHERE p."arrangementScore" IS NOT NULL) AS "aTotal"
       FROM me`,
    chartId,
    pattern,
  );
  if (!rows.length) return null;
  const r = rows[0];
  const row = num(r);
  return {
    pattern: row,
    score: row.score,
    rank: Number(r.higher) + 1,
    total: Number(r.total),
    arrangementScore: row.arrangementScore,
    arrangementRank: row.arrangementScore === null ? null : Number(r.aHigher) + 1,
    arrangementTotal: Number(r.aTotal),
  };
}
