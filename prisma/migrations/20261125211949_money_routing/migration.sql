-- CreateEnum
CREATE TYPE "SettlementChangeStatus" AS ENUM ('PROPOSED', 'SCHEDULED', 'APPLIED', 'REJECTED', 'CANCELLED');

-- AlterTable
ALTER TABLE "AgentSetup" ADD COLUMN     "clientAddress" TEXT;

-- AlterTable
ALTER TABLE "AgentRegistration" ADD COLUMN     "clientAddress" TEXT,
ADD COLUMN     "pairingCodeHash" TEXT;

-- CreateTable
CREATE TABLE "SettlementChange" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT,
    "previousAddress" TEXT,
    "status" "SettlementChangeStatus" NOT NULL,
    "proposedByKind" TEXT NOT NULL,
    "proposedByName" TEXT NOT NULL,
    "proposedById" TEXT,
    "clientAddress" TEXT,
    "effectiveAt" TIMESTAMPTZ(3),
    "decidedByUserId" TEXT,
    "decidedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SettlementChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsedConfirmation" (
    "tokenHash" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "usedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsedConfirmation_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateIndex
CREATE INDEX "SettlementChange_organizationId_status_idx" ON "SettlementChange"("organizationId", "status");

-- CreateIndex
CREATE INDEX "SettlementChange_status_effectiveAt_idx" ON "SettlementChange"("status", "effectiveAt");

-- CreateIndex
CREATE INDEX "UsedConfirmation_usedAt_idx" ON "UsedConfirmation"("usedAt");

-- AddForeignKey
ALTER TABLE "SettlementChange" ADD CONSTRAINT "SettlementChange_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
