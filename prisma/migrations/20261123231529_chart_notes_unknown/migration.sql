-- A chart learned from a score export (title, difficulty, level, without a BPI definition) has no known
-- note count until a definitions import names it.
-- AlterTable
ALTER TABLE "Chart" ALTER COLUMN "notes" DROP NOT NULL;
