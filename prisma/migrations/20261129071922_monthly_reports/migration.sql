-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "monthlyReportEmail" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "monthlyReportTo" TEXT;

-- CreateTable
CREATE TABLE "MonthlyReport" (
    "organizationId" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "recipients" TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MonthlyReport_pkey" PRIMARY KEY ("organizationId","month")
);

-- AddForeignKey
ALTER TABLE "MonthlyReport" ADD CONSTRAINT "MonthlyReport_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
