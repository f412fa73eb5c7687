-- Merges the duplicate songs learned from exports before titles were normalised on both sides
-- (e.g. "Rave*it!! Rave*it!!" learned beside the definitions' "Rave*it!! Rave*it!! ") into the
-- song they missed (docs/imports-provisional.md#the-merge-of-earlier-duplicates). A duplicate is a
-- provisional song whose title key — NFKC, whitespace runs as one space, trimmed, as
-- src/domain/titles.ts — equals an ordinary song's. For each of its charts:
-- - the ordinary song has the same play style + difficulty: the plays move to that chart, the two
--   bests of a player and version merge field by field (higher EX, higher lamp, fewer misses, each
--   with its play, the later play time), and the duplicate chart is deleted,
-- - otherwise the chart itself moves to the ordinary song (still provisional).
-- Then the emptied duplicate songs are deleted. One statement (a DO block): idempotent, and a
-- second run finds nothing to merge. Totals are not recomputed here: run the recompute job
-- (`cli recompute`) once after upgrading. In order: the duplicate songs and their chart pairs (two
-- temporary tables), a player's bests on both charts merged into the real chart's, the duplicate's
-- remaining bests and all its plays moved, the duplicate charts deleted, charts the real song lacks
-- moved to it, the emptied duplicate songs deleted.
-- The body is an E'' string with \073 for each semicolon (the migration engine's PostgreSQL driver
-- adapter splits a script on every semicolon), as migration 20261126050235_version_player_count.
DO E'
BEGIN
  CREATE TEMP TABLE "_dupSong" AS
  SELECT d."id" AS "dupId", min(r."id") AS "realId"
    FROM "Song" d
    JOIN "Song" r ON r."id" <> d."id" AND NOT r."provisional"
     AND btrim(regexp_replace(normalize(r."title", NFKC), ''\\s+'', '' '', ''g''))
       = btrim(regexp_replace(normalize(d."title", NFKC), ''\\s+'', '' '', ''g''))
   WHERE d."provisional"
   GROUP BY d."id"\073

  CREATE TEMP TABLE "_dupChart" AS
  SELECT dc."id" AS "dupId", rc."id" AS "realId"
    FROM "_dupSong" p
    JOIN "Chart" dc ON dc."songId" = p."dupId"
    JOIN "Chart" rc ON rc."songId" = p."realId" AND rc."playStyle" = dc."playStyle" AND rc."difficulty" = dc."difficulty"\073

  UPDATE "BestScore" r SET
    "exScore"     = CASE WHEN d."exScore" > r."exScore" THEN d."exScore" ELSE r."exScore" END,
    "exScoreId"   = CASE WHEN d."exScore" > r."exScore" THEN d."exScoreId" ELSE r."exScoreId" END,
    "clearLamp"   = CASE WHEN d."clearLamp" IS NOT NULL AND (r."clearLamp" IS NULL OR d."clearLamp" > r."clearLamp")
                         THEN d."clearLamp" ELSE r."clearLamp" END,
    "clearLampId" = CASE WHEN d."clearLamp" IS NOT NULL AND (r."clearLamp" IS NULL OR d."clearLamp" > r."clearLamp")
                         THEN d."clearLampId" ELSE r."clearLampId" END,
    "missCount"   = CASE WHEN d."missCount" IS NOT NULL AND (r."missCount" IS NULL OR d."missCount" < r."missCount")
                         THEN d."missCount" ELSE r."missCount" END,
    "missCountId" = CASE WHEN d."missCount" IS NOT NULL AND (r."missCount" IS NULL OR d."missCount" < r."missCount")
                         THEN d."missCountId" ELSE r."missCountId" END,
    "playedAt"    = GREATEST(r."playedAt", d."playedAt"),
    "updatedAt"   = now()
    FROM "BestScore" d, "_dupChart" p
   WHERE d."chartId" = p."dupId" AND r."chartId" = p."realId"
     AND r."userId" = d."userId" AND r."version" = d."version"\073
  DELETE FROM "BestScore" d USING "_dupChart" p, "BestScore" r
   WHERE d."chartId" = p."dupId" AND r."chartId" = p."realId"
     AND r."userId" = d."userId" AND r."version" = d."version"\073
  UPDATE "BestScore" d SET "chartId" = p."realId", "updatedAt" = now() FROM "_dupChart" p WHERE d."chartId" = p."dupId"\073
  UPDATE "Score" s SET "chartId" = p."realId" FROM "_dupChart" p WHERE s."chartId" = p."dupId"\073
  DELETE FROM "Chart" c USING "_dupChart" p WHERE c."id" = p."dupId"\073

  UPDATE "Chart" c SET "songId" = p."realId", "updatedAt" = now() FROM "_dupSong" p WHERE c."songId" = p."dupId"\073
  DELETE FROM "Song" s USING "_dupSong" p WHERE s."id" = p."dupId"\073

  DROP TABLE "_dupChart"\073
  DROP TABLE "_dupSong"\073
END
';
