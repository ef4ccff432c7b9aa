-- Invoices store their quote: the USD amount, when and from what prices it was made, and how long
-- it is promised for. Invoices made before this migration were priced from the static rate table
-- (EUR/USD 1.08, GBP/USD 1.27) unless SERVICE_RATES said otherwise, which is their best record.
ALTER TABLE "Invoice" ADD COLUMN     "amountUsd" DECIMAL(36,2),
ADD COLUMN     "quoteExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "quoteSource" TEXT,
ADD COLUMN     "quotedAt" TIMESTAMPTZ(3);

UPDATE "Invoice" SET
  "amountUsd" = ROUND("pricingAmount" * CASE "pricingCurrency" WHEN 'EUR' THEN 1.08 WHEN 'GBP' THEN 1.27 ELSE 1 END, 2),
  "quoteSource" = 'static rate table (before price feeds)',
  "quotedAt" = "createdAt";

ALTER TABLE "Invoice" ALTER COLUMN "amountUsd" SET NOT NULL,
ALTER COLUMN "quoteSource" SET NOT NULL,
ALTER COLUMN "quotedAt" SET NOT NULL;
