-- AlterTable
ALTER TABLE "ChainCursor" ADD COLUMN     "checkedAt" TIMESTAMPTZ(3),
ADD COLUMN     "headBlock" BIGINT;
