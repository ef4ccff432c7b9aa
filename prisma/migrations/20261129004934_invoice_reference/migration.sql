-- Solana Pay invoices share their network's receiving wallet and are told apart by a reference
-- key of their own: the deposit address is no longer unique per network (on EVM its derivation
-- index, still unique, makes it so), the reference is.
-- DropIndex
DROP INDEX "Invoice_network_depositAddress_key";

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "reference" TEXT;

-- CreateIndex
CREATE INDEX "Invoice_network_depositAddress_idx" ON "Invoice"("network", "depositAddress");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_network_reference_key" ON "Invoice"("network", "reference");
