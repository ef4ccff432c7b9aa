-- AlterTable
ALTER TABLE "OutboundEmail" ADD COLUMN     "claimToken" TEXT;
