-- CreateTable
CREATE TABLE "DerivationCounter" (
    "network" TEXT NOT NULL,
    "nextIndex" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DerivationCounter_pkey" PRIMARY KEY ("network")
);
