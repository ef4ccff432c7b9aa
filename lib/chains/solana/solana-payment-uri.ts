import type { PaymentRequestInput } from "../chain-family";

/**
 * A Solana Pay transfer request, as any Solana Pay wallet scans it (its fields: docs/api.md, "Payments"):
 * `solana:<recipient>?amount=<decimal>&spl-token=<mint>&reference=<key>&label=…&message=…`. The
 * recipient is the receiving wallet (the wallet pays its associated token account); the reference
 * names the invoice, so a wallet that pays the same link again tops up the same invoice.
 */
export function solanaPaymentUri(request: PaymentRequestInput): string {
  const query = [`amount=${request.remaining}`];
  if (request.token.address) query.push(`spl-token=${request.token.address}`);
  if (request.receiver.reference) query.push(`reference=${request.receiver.reference}`);
  query.push(`label=${encodeURIComponent(request.label)}`, `message=${encodeURIComponent(request.message)}`);
  return `solana:${request.receiver.address}?${query.join("&")}`;
}
