-- CreateTable
CREATE TABLE "BpiV2FitRun" (
    "id" SERIAL NOT NULL,
    "definitionsVersion" TEXT NOT NULL,
    "gameVersion" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "phase" TEXT,
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "error" TEXT,
    "holder" TEXT,
    "bestsRead" INTEGER NOT NULL DEFAULT 0,
    "observations" INTEGER NOT NULL DEFAULT 0,
    "players" INTEGER NOT NULL DEFAULT 0,
    "charts" INTEGER NOT NULL DEFAULT 0,
    "iterations" INTEGER NOT NULL DEFAULT 0,
    "converged" BOOLEAN NOT NULL DEFAULT false,
    "z0" DOUBLE PRECISION,
    "gap" DOUBLE PRECISION,
    "rmseT" DOUBLE PRECISION,
    "r2WithinChart" DOUBLE PRECISION,
    "heldOutObservations" INTEGER,
    "heldOutRmseT" DOUBLE PRECISION,
    "heldOutMaeEx" DOUBLE PRECISION,
    "heldOutR2" DOUBLE PRECISION,
    "v1Observations" INTEGER,
    "v2RmseTVsV1" DOUBLE PRECISION,
    "v1RmseT" DOUBLE PRECISION,
    "v2MaeExVsV1" DOUBLE PRECISION,
    "v1MaeEx" DOUBLE PRECISION,
    "bpiRmse" DOUBLE PRECISION,
    "bpiMeanDiff" DOUBLE PRECISION,
    "bpiSpearman" DOUBLE PRECISION,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BpiV2FitRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BpiV2ChartParams" (
    "definitionsVersion" TEXT NOT NULL,
    "chartId" INTEGER NOT NULL,
    "runId" INTEGER NOT NULL,
    "players" INTEGER NOT NULL,
    "mu" DOUBLE PRECISION NOT NULL,
    "sigma" DOUBLE PRECISION NOT NULL,
    "omega" DOUBLE PRECISION NOT NULL,
    "seMu" DOUBLE PRECISION NOT NULL,
    "seSigma" DOUBLE PRECISION NOT NULL,
    "z0" DOUBLE PRECISION NOT NULL,
    "z100" DOUBLE PRECISION NOT NULL,
    "gamma" DOUBLE PRECISION NOT NULL,
    "zKaiden" DOUBLE PRECISION,
    "zWr" DOUBLE PRECISION,
    "wrAnchored" BOOLEAN NOT NULL,

    CONSTRAINT "BpiV2ChartParams_pkey" PRIMARY KEY ("definitionsVersion","chartId")
);

-- CreateIndex
CREATE INDEX "BpiV2FitRun_definitionsVersion_status_finishedAt_idx" ON "BpiV2FitRun"("definitionsVersion", "status", "finishedAt");

-- AddForeignKey
ALTER TABLE "BpiV2ChartParams" ADD CONSTRAINT "BpiV2ChartParams_chartId_fkey" FOREIGN KEY ("chartId") REFERENCES "Chart"("id") ON DELETE CASCADE ON UPDATE CASCADE;
