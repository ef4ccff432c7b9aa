-- CreateEnum
CREATE TYPE "AgentSetupStatus" AS ENUM ('PENDING', 'APPROVED', 'DENIED', 'COMPLETED');

-- CreateEnum
CREATE TYPE "AgentRegistrationStatus" AS ENUM ('PENDING', 'CONFIRMED', 'COMPLETED');

-- CreateTable
CREATE TABLE "AgentSetup" (
    "id" TEXT NOT NULL,
    "agentName" TEXT NOT NULL,
    "access" "AgentAccess" NOT NULL,
    "userCodeHash" TEXT NOT NULL,
    "setupTokenHash" TEXT NOT NULL,
    "checkinTokenHash" TEXT NOT NULL,
    "status" "AgentSetupStatus" NOT NULL DEFAULT 'PENDING',
    "organizationId" TEXT,
    "decidedByUserId" TEXT,
    "decidedAt" TIMESTAMPTZ(3),
    "credentialId" TEXT,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AgentSetup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentRegistration" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "projectName" TEXT NOT NULL,
    "agentName" TEXT NOT NULL,
    "ref" TEXT,
    "checkinTokenHash" TEXT NOT NULL,
    "confirmTokenHash" TEXT NOT NULL,
    "status" "AgentRegistrationStatus" NOT NULL DEFAULT 'PENDING',
    "organizationId" TEXT,
    "userId" TEXT,
    "confirmedAt" TIMESTAMPTZ(3),
    "credentialId" TEXT,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AgentRegistration_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AgentSetup_userCodeHash_key" ON "AgentSetup"("userCodeHash");

-- CreateIndex
CREATE UNIQUE INDEX "AgentSetup_setupTokenHash_key" ON "AgentSetup"("setupTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "AgentSetup_checkinTokenHash_key" ON "AgentSetup"("checkinTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "AgentSetup_credentialId_key" ON "AgentSetup"("credentialId");

-- CreateIndex
CREATE INDEX "AgentSetup_expiresAt_idx" ON "AgentSetup"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "AgentRegistration_checkinTokenHash_key" ON "AgentRegistration"("checkinTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "AgentRegistration_confirmTokenHash_key" ON "AgentRegistration"("confirmTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "AgentRegistration_credentialId_key" ON "AgentRegistration"("credentialId");

-- CreateIndex
CREATE INDEX "AgentRegistration_email_idx" ON "AgentRegistration"("email");

-- CreateIndex
CREATE INDEX "AgentRegistration_expiresAt_idx" ON "AgentRegistration"("expiresAt");

-- AddForeignKey
ALTER TABLE "AgentSetup" ADD CONSTRAINT "AgentSetup_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentSetup" ADD CONSTRAINT "AgentSetup_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "AgentCredential"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentRegistration" ADD CONSTRAINT "AgentRegistration_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentRegistration" ADD CONSTRAINT "AgentRegistration_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "AgentCredential"("id") ON DELETE SET NULL ON UPDATE CASCADE;
