-- AlterEnum
ALTER TYPE "ImportSource" ADD VALUE 'BATCH_MANUAL';

-- AlterTable
ALTER TABLE "Score" ADD COLUMN     "great" INTEGER,
ADD COLUMN     "pgreat" INTEGER;
