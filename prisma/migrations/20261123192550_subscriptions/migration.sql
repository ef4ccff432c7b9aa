-- CreateEnum
CREATE TYPE "RecurringInterval" AS ENUM ('day', 'week', 'month', 'year');

-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('ACTIVE', 'PAST_DUE', 'CANCELLED');

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "subscriptionGraceDays" INTEGER NOT NULL DEFAULT 3;

-- AlterTable
ALTER TABLE "Paylink" ADD COLUMN     "recurringInterval" "RecurringInterval",
ADD COLUMN     "recurringIntervalCount" INTEGER;

-- AlterTable
ALTER TABLE "CheckoutSession" ADD COLUMN     "recurringInterval" "RecurringInterval",
ADD COLUMN     "recurringIntervalCount" INTEGER;

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "periodEnd" TIMESTAMPTZ(3),
ADD COLUMN     "periodIndex" INTEGER,
ADD COLUMN     "periodStart" TIMESTAMPTZ(3),
ADD COLUMN     "subscriptionId" TEXT;

-- CreateTable
CREATE TABLE "Subscription" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "status" "SubscriptionStatus" NOT NULL DEFAULT 'ACTIVE',
    "paylinkId" UUID,
    "amount" DECIMAL(36,18) NOT NULL,
    "currency" TEXT NOT NULL,
    "description" TEXT,
    "interval" "RecurringInterval" NOT NULL,
    "intervalCount" INTEGER NOT NULL,
    "network" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "customerEmail" TEXT,
    "customerName" TEXT,
    "clientReferenceId" TEXT,
    "merchantOrderId" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "anchor" TIMESTAMPTZ(3) NOT NULL,
    "currentPeriodIndex" INTEGER NOT NULL DEFAULT 0,
    "currentPeriodStart" TIMESTAMPTZ(3) NOT NULL,
    "currentPeriodEnd" TIMESTAMPTZ(3) NOT NULL,
    "cancelAtPeriodEnd" BOOLEAN NOT NULL DEFAULT false,
    "cancellationReason" TEXT,
    "cancelledAt" TIMESTAMPTZ(3),
    "nextActionAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Subscription_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Subscription_organizationId_createdAt_idx" ON "Subscription"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "Subscription_nextActionAt_idx" ON "Subscription"("nextActionAt");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_subscriptionId_periodIndex_key" ON "Invoice"("subscriptionId", "periodIndex");

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "Subscription"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_paylinkId_fkey" FOREIGN KEY ("paylinkId") REFERENCES "Paylink"("id") ON DELETE SET NULL ON UPDATE CASCADE;
