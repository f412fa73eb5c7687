-- CreateTable
CREATE TABLE "ServerKey" (
    "kid" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "alg" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "publicJwk" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMP(3),
    "verifyUntil" TIMESTAMP(3),

    CONSTRAINT "ServerKey_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE INDEX "ServerKey_purpose_createdAt_idx" ON "ServerKey"("purpose", "createdAt");
