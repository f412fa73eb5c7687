-- AlterTable
ALTER TABLE "OptimizeMemo" ADD COLUMN     "definitionsVersion" TEXT,
ADD COLUMN     "input" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "scoresDigest" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "ArrangementScore" (
    "chartId" INTEGER NOT NULL,
    "pattern" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "chartMax" DOUBLE PRECISION NOT NULL,
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ArrangementScore_pkey" PRIMARY KEY ("chartId","pattern")
);

-- CreateIndex
CREATE INDEX "ArrangementScore_pattern_idx" ON "ArrangementScore"("pattern");

-- AddForeignKey
ALTER TABLE "ArrangementScore" ADD CONSTRAINT "ArrangementScore_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;
