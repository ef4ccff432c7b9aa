-- CreateTable
CREATE TABLE "X402PayerCooldown" (
    "network" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "until" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "X402PayerCooldown_pkey" PRIMARY KEY ("network","payer")
);
