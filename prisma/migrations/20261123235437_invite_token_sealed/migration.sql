-- AlterTable
ALTER TABLE "FollowInviteToken" ADD COLUMN     "tokenSealed" TEXT;
