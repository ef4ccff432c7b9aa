-- CreateIndex
CREATE INDEX "X402Settlement_status_errorReason_updatedAt_idx" ON "X402Settlement"("status", "errorReason", "updatedAt");
