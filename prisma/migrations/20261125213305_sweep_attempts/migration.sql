-- AlterTable
ALTER TABLE "Sweep" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "SweepTransaction" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 1;
