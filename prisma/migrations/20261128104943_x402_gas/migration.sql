-- AlterTable
ALTER TABLE "X402Settlement" ADD COLUMN     "gasUsd" DECIMAL(30,12);

-- CreateTable
CREATE TABLE "FacilitatorWallet" (
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "balance" DECIMAL(78,18) NOT NULL,
    "low" BOOLEAN NOT NULL,
    "threshold" DECIMAL(78,18) NOT NULL,
    "checkedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FacilitatorWallet_pkey" PRIMARY KEY ("network")
);

-- CreateIndex
CREATE INDEX "X402Settlement_organizationId_createdAt_idx" ON "X402Settlement"("organizationId", "createdAt");
