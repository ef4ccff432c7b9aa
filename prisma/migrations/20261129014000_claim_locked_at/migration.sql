-- When the link in force hit its caps of codes or wrong tries (lib/refunds/lock-claim-link.ts):
-- set once, so the owners are told once, and cleared when an owner re-sends the link.
-- AlterTable
ALTER TABLE "Refund" ADD COLUMN     "claimLockedAt" TIMESTAMPTZ(3);
