-- AlterTable
ALTER TABLE "Organization" ALTER COLUMN "apiVersion" SET DEFAULT '2026-11-26';
