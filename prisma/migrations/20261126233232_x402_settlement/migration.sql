-- CreateEnum
CREATE TYPE "X402SettlementStatus" AS ENUM ('SETTLING', 'SETTLED', 'FAILED');

-- CreateTable
CREATE TABLE "X402Settlement" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "invoiceId" TEXT NOT NULL,
    "resourceKind" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "payTo" TEXT NOT NULL,
    "validBefore" TIMESTAMPTZ(3) NOT NULL,
    "status" "X402SettlementStatus" NOT NULL DEFAULT 'SETTLING',
    "transaction" TEXT,
    "errorReason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "X402Settlement_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "X402Settlement_status_createdAt_idx" ON "X402Settlement"("status", "createdAt");

-- CreateIndex
CREATE INDEX "X402Settlement_invoiceId_idx" ON "X402Settlement"("invoiceId");

-- CreateIndex
CREATE UNIQUE INDEX "X402Settlement_network_asset_payer_nonce_key" ON "X402Settlement"("network", "asset", "payer", "nonce");

-- AddForeignKey
ALTER TABLE "X402Settlement" ADD CONSTRAINT "X402Settlement_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "X402Settlement" ADD CONSTRAINT "X402Settlement_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
