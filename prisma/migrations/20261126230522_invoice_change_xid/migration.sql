-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "changeXid" BIGINT NOT NULL DEFAULT (pg_current_xact_id())::text::bigint;

-- CreateIndex
CREATE INDEX "Invoice_network_changeXid_idx" ON "Invoice"("network", "changeXid");

-- Every update stamps the row with its transaction, like the insert's default: whatever changes an
-- invoice (status, deadline, a raw statement), the chain watcher's next read of changes sees it.
-- The body spells its semicolons \x3B: migrations are applied statement by statement, split at
-- every semicolon (the pg driver adapter's executeScript).
CREATE FUNCTION "invoice_stamp_change_xid"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN NEW."changeXid" := (pg_current_xact_id())::text::bigint\x3B RETURN NEW\x3B END';

CREATE TRIGGER "Invoice_stamp_change_xid" BEFORE UPDATE ON "Invoice"
  FOR EACH ROW EXECUTE FUNCTION "invoice_stamp_change_xid"();
