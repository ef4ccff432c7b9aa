import { parseUnits } from "viem";
import type { PublicPayment } from "./serialize-public-payment";

// Browser-safe and small: the hosted page's browser-wallet step imports it. The QR code and the
// wallet-app link are the payment's `paymentUri`, built by its chain family on the server.

export type Payable = Pick<
  PublicPayment,
  "chainId" | "tokenAddress" | "depositAddress" | "remaining" | "tokenDecimals"
>;

/** The remaining amount in the token's base units, from its decimal string (never a float). */
export function remainingUnits(payment: Payable): bigint {
  return parseUnits(payment.remaining, payment.tokenDecimals);
}
