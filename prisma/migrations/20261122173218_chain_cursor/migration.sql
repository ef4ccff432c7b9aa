-- CreateTable
CREATE TABLE "ChainCursor" (
    "network" TEXT NOT NULL,
    "lastScannedBlock" BIGINT NOT NULL,

    CONSTRAINT "ChainCursor_pkey" PRIMARY KEY ("network")
);
