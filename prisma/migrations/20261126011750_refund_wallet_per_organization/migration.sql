-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "refundWalletIndex" SERIAL NOT NULL;

-- The rows were reports of the one shared wallet per network, not any organization's: the signer
-- writes each organization's on its next pass.
DELETE FROM "RefundWallet";

-- AlterTable
ALTER TABLE "RefundWallet" DROP CONSTRAINT "RefundWallet_pkey",
ADD COLUMN     "organizationId" TEXT NOT NULL,
ADD CONSTRAINT "RefundWallet_pkey" PRIMARY KEY ("organizationId", "network");

-- CreateIndex
CREATE UNIQUE INDEX "Organization_refundWalletIndex_key" ON "Organization"("refundWalletIndex");

-- CreateIndex
CREATE INDEX "RefundWallet_network_checkedAt_idx" ON "RefundWallet"("network", "checkedAt");

-- AddForeignKey
ALTER TABLE "RefundWallet" ADD CONSTRAINT "RefundWallet_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
