-- CreateTable
CREATE TABLE "ChartRankNode" (
    "chartId" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "node" INTEGER NOT NULL,
    "players" INTEGER NOT NULL,

    CONSTRAINT "ChartRankNode_pkey" PRIMARY KEY ("chartId","version","node")
);

-- ChartRankNode upkeep: statement-level triggers on BestScore (transition tables), in the writing
-- transaction. A best at exScore E adds ±1 to the nodes covering i = E + 1 (i ≤ 16384): for each
-- level k in 0..14 with bit k of (i − 1) clear, node ((i − 1) >> (k + 1)) * 2 + 1) << k.
-- Deltas are summed per node first (an unchanged EX in an UPDATE cancels out: no write, no lock)
-- and applied in key order (concurrent imports lock shared nodes in the same order).
-- Each branch names only the transition tables its event has (plpgsql plans a statement when it
-- first runs). The body is an E'' string with \073 for each semicolon: the PostgreSQL driver
-- adapter of the migration engine splits a migration script on every semicolon.
CREATE FUNCTION "chart_rank_apply"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    DELETE FROM "ChartRankNode"\073
  ELSIF TG_OP = ''INSERT'' THEN
    INSERT INTO "ChartRankNode" ("chartId", "version", "node", "players")
    SELECT d."chartId", d."version", n."node", sum(d."delta")::int
      FROM (SELECT "chartId", "version", LEAST(GREATEST("exScore", 0), 16383) + 1 AS "i", 1 AS "delta" FROM new_rows) d
      CROSS JOIN LATERAL (
        SELECT ((((d."i" - 1) >> (k + 1)) * 2 + 1) << k) AS "node"
          FROM generate_series(0, 14) AS k
         WHERE ((d."i" - 1) >> k) & 1 = 0
      ) n
     GROUP BY 1, 2, 3
    HAVING sum(d."delta") <> 0
     ORDER BY 1, 2, 3
    ON CONFLICT ("chartId", "version", "node") DO UPDATE SET "players" = "ChartRankNode"."players" + EXCLUDED."players"\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "ChartRankNode" ("chartId", "version", "node", "players")
    SELECT d."chartId", d."version", n."node", sum(d."delta")::int
      FROM (SELECT "chartId", "version", LEAST(GREATEST("exScore", 0), 16383) + 1 AS "i", -1 AS "delta" FROM old_rows) d
      CROSS JOIN LATERAL (
        SELECT ((((d."i" - 1) >> (k + 1)) * 2 + 1) << k) AS "node"
          FROM generate_series(0, 14) AS k
         WHERE ((d."i" - 1) >> k) & 1 = 0
      ) n
     GROUP BY 1, 2, 3
    HAVING sum(d."delta") <> 0
     ORDER BY 1, 2, 3
    ON CONFLICT ("chartId", "version", "node") DO UPDATE SET "players" = "ChartRankNode"."players" + EXCLUDED."players"\073
  ELSE
    INSERT INTO "ChartRankNode" ("chartId", "version", "node", "players")
    SELECT d."chartId", d."version", n."node", sum(d."delta")::int
      FROM (SELECT "chartId", "version", LEAST(GREATEST("exScore", 0), 16383) + 1 AS "i", 1 AS "delta" FROM new_rows UNION ALL SELECT "chartId", "version", LEAST(GREATEST("exScore", 0), 16383) + 1 AS "i", -1 AS "delta" FROM old_rows) d
      CROSS JOIN LATERAL (
        SELECT ((((d."i" - 1) >> (k + 1)) * 2 + 1) << k) AS "node"
          FROM generate_series(0, 14) AS k
         WHERE ((d."i" - 1) >> k) & 1 = 0
      ) n
     GROUP BY 1, 2, 3
    HAVING sum(d."delta") <> 0
     ORDER BY 1, 2, 3
    ON CONFLICT ("chartId", "version", "node") DO UPDATE SET "players" = "ChartRankNode"."players" + EXCLUDED."players"\073
  END IF\073
  RETURN NULL\073
END\073
';

CREATE TRIGGER "BestScore_rank_insert" AFTER INSERT ON "BestScore" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "chart_rank_apply"();
CREATE TRIGGER "BestScore_rank_update" AFTER UPDATE ON "BestScore" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "chart_rank_apply"();
CREATE TRIGGER "BestScore_rank_delete" AFTER DELETE ON "BestScore" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "chart_rank_apply"();
CREATE TRIGGER "BestScore_rank_truncate" AFTER TRUNCATE ON "BestScore" FOR EACH STATEMENT EXECUTE FUNCTION "chart_rank_apply"();

-- Backfill from the bests already stored: a histogram per (chart, version, EX) first, then its nodes.
INSERT INTO "ChartRankNode" ("chartId", "version", "node", "players")
SELECT h."chartId", h."version", n."node", sum(h."players")::int
  FROM (SELECT "chartId", "version", LEAST(GREATEST("exScore", 0), 16383) + 1 AS "i", count(*) AS "players" FROM "BestScore" GROUP BY 1, 2, 3) h
  CROSS JOIN LATERAL (
    SELECT ((((h."i" - 1) >> (k + 1)) * 2 + 1) << k) AS "node"
      FROM generate_series(0, 14) AS k
     WHERE ((h."i" - 1) >> k) & 1 = 0
  ) n
 GROUP BY 1, 2, 3;
