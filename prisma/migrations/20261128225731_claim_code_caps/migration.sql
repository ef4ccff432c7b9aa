-- Caps on a claim link's codes: how many were emailed and how many wrong ones were typed for the
-- link in force, so its holder cannot guess the buyer's code over the link's 30 days.
-- AlterTable
ALTER TABLE "Refund" ADD COLUMN     "claimCodeFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "claimCodesSent" INTEGER NOT NULL DEFAULT 0;
