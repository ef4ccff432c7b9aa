-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "confirmedAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Invoice_organizationId_confirmedAt_id_idx" ON "Invoice"("organizationId", "confirmedAt", "id");

-- Invoices confirmed before the column existed: the time their payment.confirmed event was
-- recorded (in the same transaction as the confirmation), else their last update.
UPDATE "Invoice" AS i
SET "confirmedAt" = COALESCE(
  (SELECT MIN(e."createdAt") FROM "Event" AS e
    WHERE e."invoiceId" = i."id" AND e."type" = 'payment.confirmed'),
  i."updatedAt")
WHERE i."status" = 'CONFIRMED';
