import { parseUnits } from "viem";
import type { PaymentRequestInput } from "../chain-family";

/** EIP-681 payment URI for wallets (the QR code and the wallet-app link): ERC-20 transfer or value. */
export function evmPaymentUri(chainId: number | undefined, request: PaymentRequestInput): string {
  const units = parseUnits(request.remaining, request.token.decimals).toString();
  const chain = chainId ? `@${chainId}` : "";
  const to = request.receiver.address;
  return request.token.address
    ? `ethereum:${request.token.address}${chain}/transfer?address=${to}&uint256=${units}`
    : `ethereum:${to}${chain}?value=${units}`;
}
