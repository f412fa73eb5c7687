-- AlterTable
ALTER TABLE "OAuthAuthorizationCode" ADD COLUMN     "consentTicketId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "OAuthAuthorizationCode_consentTicketId_key" ON "OAuthAuthorizationCode"("consentTicketId");
