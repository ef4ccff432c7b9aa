-- CreateEnum
CREATE TYPE "RefundStatus" AS ENUM ('REQUIRES_APPROVAL', 'PENDING_CLAIM', 'PENDING', 'SUBMITTED', 'SUCCEEDED', 'FAILED');

-- CreateEnum
CREATE TYPE "RefundDestination" AS ENUM ('PAYER', 'CLAIM', 'ADDRESS');

-- Sweeps and refunds share one record of signed transactions: renamed, so no row is lost.
ALTER TYPE "SweepTransactionKind" RENAME TO "SignedTransactionKind";
ALTER TABLE "SweepTransaction" RENAME TO "SignedTransaction";
ALTER TABLE "SignedTransaction" RENAME CONSTRAINT "SweepTransaction_pkey" TO "SignedTransaction_pkey";
ALTER TABLE "SignedTransaction" DROP CONSTRAINT "SweepTransaction_sweepId_fkey";
ALTER TABLE "SignedTransaction" ALTER COLUMN "sweepId" DROP NOT NULL, ADD COLUMN "refundId" TEXT;
ALTER INDEX "SweepTransaction_hash_key" RENAME TO "SignedTransaction_hash_key";
ALTER INDEX "SweepTransaction_sweepId_createdAt_idx" RENAME TO "SignedTransaction_sweepId_createdAt_idx";
ALTER TABLE "SignedTransaction" ADD CONSTRAINT "SignedTransaction_one_owner" CHECK (num_nonnulls("sweepId", "refundId") = 1);

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "autoRefundOverpayments" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "refundAgentDailyCapUsd" DECIMAL(36,2) NOT NULL DEFAULT 100;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "fromAddress" TEXT;

-- CreateTable
CREATE TABLE "Refund" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "invoiceId" TEXT NOT NULL,
    "checkoutSessionId" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "amount" DECIMAL(78,18) NOT NULL,
    "amountUsd" DECIMAL(36,2) NOT NULL,
    "status" "RefundStatus" NOT NULL,
    "destination" "RefundDestination" NOT NULL,
    "toAddress" TEXT,
    "reason" TEXT,
    "failureReason" TEXT,
    "pendingReason" TEXT,
    "claimTokenHash" TEXT,
    "claimExpiresAt" TIMESTAMPTZ(3),
    "claimEmail" TEXT,
    "claimedAt" TIMESTAMPTZ(3),
    "requestedByKind" TEXT NOT NULL,
    "requestedByName" TEXT NOT NULL,
    "requestedById" TEXT,
    "decidedByUserId" TEXT,
    "decidedAt" TIMESTAMPTZ(3),
    "txHash" TEXT,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "resubmissions" INTEGER NOT NULL DEFAULT 0,
    "submittedAt" TIMESTAMPTZ(3),
    "confirmedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Refund_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RefundWallet" (
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "coinBalance" DECIMAL(78,18) NOT NULL,
    "tokenBalances" JSONB NOT NULL,
    "queued" JSONB NOT NULL,
    "low" BOOLEAN NOT NULL,
    "checkedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RefundWallet_pkey" PRIMARY KEY ("network")
);

-- CreateIndex
CREATE INDEX "SignedTransaction_refundId_createdAt_idx" ON "SignedTransaction"("refundId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Refund_claimTokenHash_key" ON "Refund"("claimTokenHash");

-- CreateIndex
CREATE INDEX "Refund_organizationId_createdAt_idx" ON "Refund"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "Refund_organizationId_invoiceId_idx" ON "Refund"("organizationId", "invoiceId");

-- CreateIndex
CREATE INDEX "Refund_status_network_idx" ON "Refund"("status", "network");

-- AddForeignKey
ALTER TABLE "SignedTransaction" ADD CONSTRAINT "SignedTransaction_sweepId_fkey" FOREIGN KEY ("sweepId") REFERENCES "Sweep"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SignedTransaction" ADD CONSTRAINT "SignedTransaction_refundId_fkey" FOREIGN KEY ("refundId") REFERENCES "Refund"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Refund" ADD CONSTRAINT "Refund_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Refund" ADD CONSTRAINT "Refund_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE CASCADE ON UPDATE CASCADE;
