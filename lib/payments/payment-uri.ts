import { parseUnits } from "viem";
import type { PublicPayment } from "./serialize-public-payment";

// Browser-safe and small: the hosted page's first load imports it (the QR code and wallet-app link).

export type Payable = Pick<
  PublicPayment,
  "chainId" | "tokenAddress" | "depositAddress" | "remaining" | "tokenDecimals"
>;

/** The remaining amount in the token's base units, from its decimal string (never a float). */
export function remainingUnits(payment: Payable): bigint {
  return parseUnits(payment.remaining, payment.tokenDecimals);
}

/** EIP-681 payment URI for wallets (the QR code and the wallet-app link): ERC-20 transfer or value. */
export function paymentUri(payment: Payable): string {
  const units = remainingUnits(payment).toString();
  const chain = payment.chainId ? `@${payment.chainId}` : "";
  return payment.tokenAddress
    ? `ethereum:${payment.tokenAddress}${chain}/transfer?address=${payment.depositAddress}&uint256=${units}`
    : `ethereum:${payment.depositAddress}${chain}?value=${units}`;
}
