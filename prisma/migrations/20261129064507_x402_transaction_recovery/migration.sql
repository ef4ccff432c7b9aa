-- AlterTable
ALTER TABLE "X402Settlement" ADD COLUMN     "lastValidHeight" BIGINT,
ADD COLUMN     "signedSlot" BIGINT,
ADD COLUMN     "signedTransaction" TEXT;
