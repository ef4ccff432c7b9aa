-- CreateEnum
CREATE TYPE "SweepStatus" AS ENUM ('PENDING', 'FUNDING', 'SUBMITTED', 'CONFIRMED', 'FAILED', 'DEFERRED');

-- CreateEnum
CREATE TYPE "SweepStrategy" AS ENUM ('NATIVE', 'GAS_TOP_UP');

-- CreateEnum
CREATE TYPE "SweepTransactionKind" AS ENUM ('FUNDING', 'TRANSFER');

-- CreateTable
CREATE TABLE "Sweep" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "invoiceId" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "strategy" "SweepStrategy" NOT NULL,
    "status" "SweepStatus" NOT NULL DEFAULT 'PENDING',
    "fromAddress" TEXT NOT NULL,
    "toAddress" TEXT NOT NULL,
    "amount" DECIMAL(78,18) NOT NULL,
    "amountSent" DECIMAL(78,18),
    "failureReason" TEXT,
    "resubmissions" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "confirmedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Sweep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SweepTransaction" (
    "id" TEXT NOT NULL,
    "sweepId" TEXT NOT NULL,
    "kind" "SweepTransactionKind" NOT NULL,
    "signer" TEXT NOT NULL,
    "nonce" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "raw" TEXT NOT NULL,
    "maxFeePerGas" DECIMAL(78,0) NOT NULL,
    "blockNumber" BIGINT,
    "blockHash" TEXT,
    "gasUsed" DECIMAL(78,0),
    "replacedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SweepTransaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SignerNonce" (
    "network" TEXT NOT NULL,
    "signer" TEXT NOT NULL,
    "nextNonce" INTEGER NOT NULL,

    CONSTRAINT "SignerNonce_pkey" PRIMARY KEY ("network","signer")
);

-- CreateTable
CREATE TABLE "GasWallet" (
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "balance" DECIMAL(78,18) NOT NULL,
    "low" BOOLEAN NOT NULL,
    "threshold" DECIMAL(78,18) NOT NULL,
    "checkedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GasWallet_pkey" PRIMARY KEY ("network")
);

-- CreateIndex
CREATE INDEX "Sweep_organizationId_createdAt_idx" ON "Sweep"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "Sweep_status_network_idx" ON "Sweep"("status", "network");

-- CreateIndex
CREATE INDEX "Sweep_invoiceId_idx" ON "Sweep"("invoiceId");

-- CreateIndex
CREATE UNIQUE INDEX "SweepTransaction_hash_key" ON "SweepTransaction"("hash");

-- CreateIndex
CREATE INDEX "SweepTransaction_sweepId_createdAt_idx" ON "SweepTransaction"("sweepId", "createdAt");

-- AddForeignKey
ALTER TABLE "Sweep" ADD CONSTRAINT "Sweep_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Sweep" ADD CONSTRAINT "Sweep_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SweepTransaction" ADD CONSTRAINT "SweepTransaction_sweepId_fkey" FOREIGN KEY ("sweepId") REFERENCES "Sweep"("id") ON DELETE CASCADE ON UPDATE CASCADE;
