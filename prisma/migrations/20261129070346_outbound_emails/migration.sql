-- The owners settlement announcements become rows of one outbox of emails, shared with the buyers
-- receipts and other mail (lib/outbox/). The table is renamed, so unsent announcements stay owed.
ALTER TABLE "SettlementAnnouncement" RENAME TO "OutboundEmail";
ALTER TABLE "OutboundEmail" RENAME CONSTRAINT "SettlementAnnouncement_pkey" TO "OutboundEmail_pkey";
ALTER TABLE "OutboundEmail" RENAME CONSTRAINT "SettlementAnnouncement_organizationId_fkey" TO "OutboundEmail_organizationId_fkey";
ALTER TABLE "OutboundEmail" DROP CONSTRAINT "SettlementAnnouncement_settlementChangeId_fkey";
ALTER TABLE "OutboundEmail" RENAME COLUMN "settlementChangeId" TO "aboutId";
ALTER INDEX "SettlementAnnouncement_sentAt_nextAttemptAt_idx" RENAME TO "OutboundEmail_sentAt_nextAttemptAt_idx";
ALTER INDEX "SettlementAnnouncement_settlementChangeId_idx" RENAME TO "OutboundEmail_aboutId_idx";
ALTER TABLE "OutboundEmail" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'settlement_change';
ALTER TABLE "OutboundEmail" ALTER COLUMN "kind" DROP DEFAULT;
ALTER TABLE "OutboundEmail" ADD COLUMN "dedupeKey" TEXT;
ALTER TABLE "OutboundEmail" ADD COLUMN "html" TEXT;
CREATE UNIQUE INDEX "OutboundEmail_dedupeKey_key" ON "OutboundEmail"("dedupeKey");

ALTER TABLE "DevEmail" ADD COLUMN "html" TEXT;
