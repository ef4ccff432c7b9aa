-- CreateEnum
CREATE TYPE "InvoiceStatus" AS ENUM ('AWAITING_PAYMENT', 'PARTIALLY_PAID', 'CONFIRMING', 'CONFIRMED', 'OVERDUE');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('CONFIRMING', 'CONFIRMED', 'REORGED');

-- CreateTable
CREATE TABLE "Invoice" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "checkoutSessionId" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "depositAddress" TEXT NOT NULL,
    "derivationIndex" INTEGER NOT NULL,
    "amountDue" DECIMAL(78,18) NOT NULL,
    "amountPaid" DECIMAL(78,18) NOT NULL DEFAULT 0,
    "pricingAmount" DECIMAL(36,18) NOT NULL,
    "pricingCurrency" TEXT NOT NULL,
    "rate" DECIMAL(36,18) NOT NULL,
    "status" "InvoiceStatus" NOT NULL DEFAULT 'AWAITING_PAYMENT',
    "deadline" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Invoice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Payment" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "invoiceId" TEXT NOT NULL,
    "txHash" TEXT NOT NULL,
    "logIndex" INTEGER NOT NULL,
    "amount" DECIMAL(78,18) NOT NULL,
    "blockNumber" BIGINT NOT NULL,
    "blockHash" TEXT NOT NULL,
    "confirmations" INTEGER NOT NULL DEFAULT 0,
    "status" "PaymentStatus" NOT NULL DEFAULT 'CONFIRMING',
    "late" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Payment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_checkoutSessionId_key" ON "Invoice"("checkoutSessionId");

-- CreateIndex
CREATE INDEX "Invoice_organizationId_createdAt_idx" ON "Invoice"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "Invoice_status_deadline_idx" ON "Invoice"("status", "deadline");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_network_derivationIndex_key" ON "Invoice"("network", "derivationIndex");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_network_depositAddress_key" ON "Invoice"("network", "depositAddress");

-- CreateIndex
CREATE INDEX "Payment_invoiceId_idx" ON "Payment"("invoiceId");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_txHash_logIndex_key" ON "Payment"("txHash", "logIndex");

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_checkoutSessionId_fkey" FOREIGN KEY ("checkoutSessionId") REFERENCES "CheckoutSession"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE CASCADE ON UPDATE CASCADE;
