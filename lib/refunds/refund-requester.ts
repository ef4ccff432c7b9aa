import { actorOf, authorize } from "../authority/authorize";
import type { MerchantCaller } from "../merchant-auth/merchant-caller";
import type { RefundRequester } from "./insert-refund";

const kinds = { api_key: "api_key", agent: "agent_credential", oauth: "oauth_token" } as const;

/**
 * A credential asking for a refund: an API key decides; an agent credential or an OAuth token is
 * held to the payer and the daily cap (lib/authority/authorize.ts refundDecision). Owners read who
 * asked by the credential's kind and name.
 */
export function refundRequester(caller: MerchantCaller): RefundRequester {
  return {
    kind: kinds[caller.credential.kind],
    name: caller.name,
    id: caller.credential.id,
    decision: authorize(actorOf(caller), "refunds.create"),
  };
}
