-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "apiVersion" TEXT NOT NULL DEFAULT '2026-11-22';
