-- Owners' emails about settlement changes, written with the change and retried until sent (an outbox).
-- CreateTable
CREATE TABLE "SettlementAnnouncement" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "settlementChangeId" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL,
    "lockedUntil" TIMESTAMPTZ(3),
    "sentAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SettlementAnnouncement_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SettlementAnnouncement_sentAt_nextAttemptAt_idx" ON "SettlementAnnouncement"("sentAt", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "SettlementAnnouncement_settlementChangeId_idx" ON "SettlementAnnouncement"("settlementChangeId");

-- AddForeignKey
ALTER TABLE "SettlementAnnouncement" ADD CONSTRAINT "SettlementAnnouncement_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SettlementAnnouncement" ADD CONSTRAINT "SettlementAnnouncement_settlementChangeId_fkey" FOREIGN KEY ("settlementChangeId") REFERENCES "SettlementChange"("id") ON DELETE CASCADE ON UPDATE CASCADE;
