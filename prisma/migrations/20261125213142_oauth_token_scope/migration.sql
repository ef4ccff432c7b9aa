-- AlterTable
ALTER TABLE "OAuthToken" ADD COLUMN     "scope" TEXT;
