-- A claim link whose buyer's email is known also needs a one-time code emailed to that address.
ALTER TABLE "Refund" ADD COLUMN "claimCodeHash" TEXT,
ADD COLUMN "claimCodeExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN "claimCodeAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "claimCodeSentAt" TIMESTAMPTZ(3);

-- The agents' daily cap counts exact USD amounts: a sub-cent refund rounded to 0.00 counted nothing.
ALTER TABLE "Refund" ALTER COLUMN "amountUsd" SET DATA TYPE DECIMAL(36,18);
UPDATE "Refund" AS r
SET "amountUsd" = CEIL(r."amount" * i."amountUsd" / i."amountDue" * 1e18) / 1e18
FROM "Invoice" AS i
WHERE i."id" = r."invoiceId" AND i."amountDue" > 0;
