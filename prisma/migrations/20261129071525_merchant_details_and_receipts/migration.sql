-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "legalAddress" TEXT,
ADD COLUMN     "legalName" TEXT,
ADD COLUMN     "receiptEmails" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "supportEmail" TEXT,
ADD COLUMN     "taxId" TEXT;

-- AlterTable
ALTER TABLE "CheckoutSession" ADD COLUMN     "locale" TEXT;
