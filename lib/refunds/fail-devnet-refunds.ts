import type { Db } from "../db/client";
import { transactWithEvents } from "../events/transact-with-events";
import { recordRefundEvent } from "./record-refund-event";
import { nextRefundStatus } from "./refund-state";

/**
 * The local devnet starts from block 0 on every start: a refund submitted on the previous chain
 * was sent on a chain that is gone. Fails it with the reason (and refund.failed), so the merchant
 * can ask again; pending refunds have sent nothing and go out on the new chain.
 */
export async function failDevnetRefunds(database: Db, now = new Date()) {
  const submitted = await database.refund.findMany({ where: { network: "devnet", status: "SUBMITTED" } });
  for (const refund of submitted) {
    const status = nextRefundStatus(refund.status, "fail");
    if (!status) continue;
    await transactWithEvents(database, async (tx) => {
      const moved = await tx.refund.updateMany({
        where: { id: refund.id, organizationId: refund.organizationId, status: refund.status },
        data: {
          status,
          failureReason: "The devnet was restarted from block 0; this refund's transfer went with it.",
          updatedAt: now,
        },
      });
      if (moved.count !== 1) return;
      const updated = await tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
      await recordRefundEvent(tx, updated, "refund.failed");
    });
  }
}
