import type { SettleResponse } from "@x402/core/types";
import { chainFamily } from "../chains/chain-families";
import { serializePublicCheckoutSession } from "../checkout/serialize-checkout-session";
import { checkoutUrl, config } from "../config";
import { serializePublicPayment } from "../payments/serialize-public-payment";
import type { X402Settled } from "./await-x402-settlement";
import type { X402PaymentBody } from "./x402-objects";

/** The settlement as x402's PAYMENT-RESPONSE states it: the same for every copy of the payment. */
export function x402SettleResponse({ settlement }: X402Settled): SettleResponse {
  const network = config().networks.find((candidate) => candidate.id === settlement.network);
  // The family's spelling of the payer (EVM's checksum; base58 as signed).
  const parsed = network && chainFamily(network).addresses.parse(settlement.payer);
  return {
    success: true,
    transaction: settlement.transaction ?? "",
    network: network ? chainFamily(network).caip2(network) : (settlement.network as `${string}:${string}`),
    payer: parsed && "address" in parsed ? parsed.address : settlement.payer,
  };
}

/** The 200 body: what was bought and its payment, as the hosted page shows them. */
export function serializeX402Payment(settled: X402Settled): X402PaymentBody {
  const response = x402SettleResponse(settled);
  return {
    object: "x402_payment",
    network: response.network,
    transaction: response.transaction,
    payer: response.payer as string,
    receiptUrl: checkoutUrl(settled.session.id),
    checkoutSession: serializePublicCheckoutSession(settled.session),
    payment: serializePublicPayment(settled.invoice),
  };
}
