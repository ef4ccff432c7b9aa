import { actorOf, authorize } from "../authority/authorize";
import type { MerchantCaller } from "../merchant-auth/merchant-caller";
import type { SettlementChangeRequest } from "./request-settlement-change";

/**
 * A credential asking to change the settlement wallets: where money goes is an operation of its
 * own (`settlement.change`), so an agent or an OAuth token only proposes. Owners read who asked
 * (the credential's kind and name) and from which client address.
 */
export function settlementRequester(caller: MerchantCaller): Omit<SettlementChangeRequest, "wallets"> {
  return {
    decision: authorize(actorOf(caller), "settlement.change"),
    proposedBy: { kind: caller.credential.kind, name: caller.name, id: caller.credential.id },
    clientAddress: caller.clientAddress ?? null,
  };
}
