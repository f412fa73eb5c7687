-- CreateTable
CREATE TABLE "RecomputeStatus" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "running" BOOLEAN NOT NULL DEFAULT false,
    "step" TEXT,
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "error" TEXT,
    "holder" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RecomputeStatus_pkey" PRIMARY KEY ("id")
);
