-- AlterTable
ALTER TABLE "Chart" ADD COLUMN     "provisional" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Song" ADD COLUMN     "provisional" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Chart_provisional_idx" ON "Chart"("provisional");

-- CreateIndex
CREATE INDEX "Song_provisional_idx" ON "Song"("provisional");

-- Charts learned from score exports so far (no BPI definition was ever imported for them) become
-- provisional, and so do the songs all of whose charts are (docs/imports-provisional.md).
UPDATE "Chart" c SET "provisional" = true
 WHERE NOT EXISTS (SELECT 1 FROM "ChartDefinition" d WHERE d."chartId" = c."id");
UPDATE "Song" s SET "provisional" = true
 WHERE EXISTS (SELECT 1 FROM "Chart" c WHERE c."songId" = s."id")
   AND NOT EXISTS (SELECT 1 FROM "Chart" c WHERE c."songId" = s."id" AND NOT c."provisional");
