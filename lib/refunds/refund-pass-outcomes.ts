import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import type { RefundRefusal } from "./check-refund-destination";
import { nextRefundStatus, type RefundStatus } from "./refund-state";
import { finishRefund } from "./refund-transactions";

/** What a refund pass's outcomes need: where they are written, on which network, and when. */
export type RefundPassContext = { database: Db; network: NetworkConfig; now: Date };

/** The refusal of a refund in a token the network no longer lists. */
export function tokenNotListed(network: NetworkConfig, refund: Refund): RefundRefusal {
  return { reason: "token_not_listed", message: `Refused: ${network.id} no longer lists ${refund.token}.` };
}

/** PENDING → FAILED with the signer's refusal: counted, logged at alert level, refund.failed. */
export async function refuseRefund(
  context: RefundPassContext,
  refund: Refund,
  refusal: RefundRefusal,
): Promise<RefundStatus> {
  metrics().refundsRefused.inc({ reason: refusal.reason });
  log.error(
    {
      alert: true,
      reason: refusal.reason,
      refundId: refund.id,
      organizationId: refund.organizationId,
      network: context.network.id,
    },
    `refund refused: ${refusal.message}`,
  );
  await finishRefund(context, refund, { event: "fail", failureReason: refusal.message });
  return "FAILED";
}

/** Stays PENDING with the reason shown to the merchant (written when it changes). */
export async function waitRefund(
  context: RefundPassContext,
  refund: Refund,
  reason: string,
): Promise<RefundStatus> {
  if (refund.pendingReason === reason) return "PENDING";
  const status = nextRefundStatus(refund.status, "wait");
  if (!status) throw new Error(`refund ${refund.id}: wait does not apply in ${refund.status}`);
  await context.database.refund.updateMany({
    where: { id: refund.id, organizationId: refund.organizationId, status: refund.status },
    data: { status, pendingReason: reason },
  });
  log.warn({ refundId: refund.id, network: context.network.id }, `refund waits: ${reason}`);
  return status;
}
