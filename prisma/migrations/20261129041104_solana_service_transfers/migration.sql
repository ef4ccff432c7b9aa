-- AlterEnum
ALTER TYPE "SweepStrategy" ADD VALUE 'DIRECT';

-- AlterTable
ALTER TABLE "SignedTransaction" ADD COLUMN     "validUntil" BIGINT;
