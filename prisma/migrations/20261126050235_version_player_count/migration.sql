-- CreateTable
CREATE TABLE "VersionPlayerCount" (
    "version" TEXT NOT NULL,
    "players" INTEGER NOT NULL,

    CONSTRAINT "VersionPlayerCount_pkey" PRIMARY KEY ("version")
);

-- VersionPlayerCount upkeep: statement-level triggers on PlayerVersionStatus (transition tables), in
-- the writing transaction: +1 per new row, −1 per deleted row, summed per version (an UPDATE that
-- keeps the version, e.g. storeTotals' upsert, cancels out: no write, no lock). Each branch names
-- only the transition tables its event has. The body is an E'' string with \073 for each semicolon
-- (the migration engine's PostgreSQL driver adapter splits a script on every semicolon).
CREATE FUNCTION "version_player_count_apply"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    DELETE FROM "VersionPlayerCount"\073
  ELSIF TG_OP = ''INSERT'' THEN
    INSERT INTO "VersionPlayerCount" AS c ("version", "players")
    SELECT "version", count(*)::int FROM new_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT ("version") DO UPDATE SET "players" = c."players" + EXCLUDED."players"\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "VersionPlayerCount" AS c ("version", "players")
    SELECT "version", -count(*)::int FROM old_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT ("version") DO UPDATE SET "players" = c."players" + EXCLUDED."players"\073
  ELSE
    INSERT INTO "VersionPlayerCount" AS c ("version", "players")
    SELECT v, sum(n)::int FROM (SELECT "version", 1 FROM new_rows UNION ALL SELECT "version", -1 FROM old_rows) AS d(v, n)
     GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1
    ON CONFLICT ("version") DO UPDATE SET "players" = c."players" + EXCLUDED."players"\073
  END IF\073
  RETURN NULL\073
END\073
';

CREATE TRIGGER "PlayerVersionStatus_count_insert" AFTER INSERT ON "PlayerVersionStatus" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "version_player_count_apply"();
CREATE TRIGGER "PlayerVersionStatus_count_update" AFTER UPDATE ON "PlayerVersionStatus" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "version_player_count_apply"();
CREATE TRIGGER "PlayerVersionStatus_count_delete" AFTER DELETE ON "PlayerVersionStatus" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "version_player_count_apply"();
CREATE TRIGGER "PlayerVersionStatus_count_truncate" AFTER TRUNCATE ON "PlayerVersionStatus" FOR EACH STATEMENT EXECUTE FUNCTION "version_player_count_apply"();

-- Backfill from the rows already stored.
INSERT INTO "VersionPlayerCount" ("version", "players") SELECT "version", count(*)::int FROM "PlayerVersionStatus" GROUP BY 1;
