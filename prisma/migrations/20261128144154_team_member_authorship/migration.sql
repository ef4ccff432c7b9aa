-- Who created each API key and sent each invitation: removing an owner withdraws their pending
-- invitations and lists (and may revoke) the keys they made.
-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "createdByUserId" TEXT;

-- AlterTable
ALTER TABLE "Invitation" ADD COLUMN     "invitedByUserId" TEXT;
