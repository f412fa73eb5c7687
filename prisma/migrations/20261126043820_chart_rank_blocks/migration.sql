-- DropTable
DROP TABLE "ChartRankNode";

-- CreateTable
CREATE TABLE "ChartRankBlock" (
    "chartId" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "block" INTEGER NOT NULL,
    "above" INTEGER[],

    CONSTRAINT "ChartRankBlock_pkey" PRIMARY KEY ("chartId","version","block")
);

-- ChartRankBlock upkeep (replaces the Fenwick tree of 20261123234131_chart_rank_tree: a rank read 2
-- rows per chart instead of ≈ 8). Same triggers on BestScore (statement level, transition tables,
-- in the writing transaction) — chart_rank_apply gets a new body that hands the changed rows
-- (+1 for new rows, −1 for old ones) to chart_rank_add.
-- chart_rank_add: deltas summed per (chart, version, EX) (an unchanged EX in an UPDATE cancels out),
-- then per row to write (its block row, and the chart row −1 keyed by block) the entries (position,
-- delta) become the row's increment — element k gets the sum of the deltas at positions ≥ k — built
-- from one array_fill segment per entry (concatenated by chart_rank_cat, in position order) and
-- added element by element to the stored array — rows written in key order (concurrent imports lock
-- shared rows in the same order). Bodies are E'' strings with \073 for each semicolon: the
-- PostgreSQL driver adapter of the migration engine splits a migration script on every semicolon.
CREATE AGGREGATE "chart_rank_cat"(int4[]) (SFUNC = array_cat, STYPE = int4[], INITCOND = '{}');

CREATE FUNCTION "chart_rank_add"("chartIds" int4[], "versions" text[], "exScores" int4[], "deltas" int4[]) RETURNS void LANGUAGE sql AS E'
  WITH d AS (
    SELECT u."chartId", u."version", LEAST(GREATEST(u."exScore", 0), 16383) AS "i", sum(u."delta")::int AS "n"
      FROM unnest("chartIds", "versions", "exScores", "deltas") AS u("chartId", "version", "exScore", "delta")
     GROUP BY 1, 2, 3 HAVING sum(u."delta") <> 0
  ), e AS (
    SELECT "chartId", "version", "i" >> 7 AS "block", "i" & 127 AS "pos", "n" FROM d
    UNION ALL
    SELECT "chartId", "version", -1, "i" >> 7, sum("n")::int FROM d GROUP BY 1, 2, 3, 4 HAVING sum("n") <> 0
  ), s AS (
    SELECT "chartId", "version", "block", "pos",
           (sum("n") OVER (PARTITION BY "chartId", "version", "block" ORDER BY "pos" DESC))::int AS "add",
           "pos" - COALESCE(lag("pos") OVER (PARTITION BY "chartId", "version", "block" ORDER BY "pos"), -1) AS "len"
      FROM e
  )
  INSERT INTO "ChartRankBlock" AS r ("chartId", "version", "block", "above")
  SELECT "chartId", "version", "block", "chart_rank_cat"(array_fill("add", ARRAY["len"]) ORDER BY "pos") || array_fill(0, ARRAY[127 - max("pos")])
    FROM s GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("chartId", "version", "block") DO UPDATE
    SET "above" = ARRAY(SELECT t.x + t.y FROM unnest(r."above", EXCLUDED."above") WITH ORDINALITY AS t(x, y, k) ORDER BY t.k)
';

CREATE OR REPLACE FUNCTION "chart_rank_apply"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    DELETE FROM "ChartRankBlock"\073
  ELSIF TG_OP = ''INSERT'' THEN
    PERFORM "chart_rank_add"(array_agg("chartId"), array_agg("version"), array_agg("exScore"), array_agg(1)) FROM new_rows\073
  ELSIF TG_OP = ''DELETE'' THEN
    PERFORM "chart_rank_add"(array_agg("chartId"), array_agg("version"), array_agg("exScore"), array_agg(-1)) FROM old_rows\073
  ELSE
    PERFORM "chart_rank_add"(array_agg(c), array_agg(v), array_agg(x), array_agg(n))
       FROM (SELECT "chartId", "version", "exScore", 1 FROM new_rows UNION ALL SELECT "chartId", "version", "exScore", -1 FROM old_rows) AS u(c, v, x, n)\073
  END IF\073
  RETURN NULL\073
END\073
';

-- chart_rank_rebuild(): the whole table again from the stored bests (a histogram per chart, version
-- and EX, then chart_rank_add) — the backfill below, and bulk loads that ran with the triggers off.
CREATE FUNCTION "chart_rank_rebuild"() RETURNS void LANGUAGE plpgsql AS E'
BEGIN
  DELETE FROM "ChartRankBlock"\073
  PERFORM "chart_rank_add"(array_agg(h."chartId"), array_agg(h."version"), array_agg(h."exScore"), array_agg(h."n"))
     FROM (SELECT "chartId", "version", "exScore", count(*)::int AS "n" FROM "BestScore" GROUP BY 1, 2, 3) h\073
END\073
';

SELECT "chart_rank_rebuild"();
