import { actorOf, authorize } from "../authority/authorize";
import { forbidden } from "../errors";

/**
 * Refund settings (the agents' daily cap, automatic overpayment refunds) change only by an owner
 * or an API key: an agent credential or OAuth token asking is refused, not proposed, since the cap
 * is what holds agents' refunds back. Does nothing when the request leaves them alone.
 */
export function assertMayConfigureRefunds(
  caller: Parameters<typeof actorOf>[0],
  input: { refundAgentDailyCapUsd?: string; autoRefundOverpayments?: boolean },
) {
  if (input.refundAgentDailyCapUsd === undefined && input.autoRefundOverpayments === undefined) return;
  if (authorize(actorOf(caller), "refunds.configure") === "propose") {
    throw forbidden(
      "owner_only",
      "Only an owner (in the dashboard) or an API key can change refund settings; an agent cannot change its own refund cap.",
    );
  }
}
