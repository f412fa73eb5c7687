-- BestScore.bpi is no longer stored: a best's BPI is derived from exScore and the chart's current
-- definition on read (Catalogue.currentBpi), so a definitions update rewrites no best. Score.bpi stays.
-- DropIndex
DROP INDEX "BestScore_version_chartId_bpi_idx";

-- AlterTable
ALTER TABLE "BestScore" DROP COLUMN "bpi";
