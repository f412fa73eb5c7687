-- DropIndex
DROP INDEX "PlayerVersionStatus_version_totalBpi_idx";

-- CreateIndex
CREATE INDEX "PlayerVersionStatus_version_totalBpi_userId_idx" ON "PlayerVersionStatus"("version", "totalBpi" DESC, "userId");
