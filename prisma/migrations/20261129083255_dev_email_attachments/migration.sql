-- AlterTable
ALTER TABLE "DevEmail" ADD COLUMN     "attachments" JSONB;
