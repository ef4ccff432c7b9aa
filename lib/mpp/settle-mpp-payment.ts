import { Receipt } from "mppx";
import type { Db } from "../db/client";
import type { X402Settled } from "../x402/await-x402-settlement";
import type { X402ResourceRef } from "../x402/find-x402-resource";
import { settleX402Payment } from "../x402/settle-x402-payment";
import { paymentRefused } from "../x402/x402-payment-errors";
import { readX402Quote } from "../x402/x402-quote-token";
import { mppMethod } from "./mpp-challenges";
import { readMppCredential } from "./read-mpp-credential";

/**
 * An MPP credential for a paylink or a checkout session, settled by the x402 path
 * (lib/x402/settle-x402-payment.ts): the same checks against the quote, the same facilitator, the
 * same X402Settlement row keyed by the authorization (network, token, payer, nonce). So an
 * authorization settles once whichever protocol brings it. A credential whose authorization is
 * already decided (paid, or refused) is a replay: 402, nothing moved; one still settling answers
 * as its x402 copy would (its outcome, or 503 `settlement_pending`).
 */
export async function settleMppPayment(
  database: Db,
  ref: X402ResourceRef,
  credential: string,
  now = new Date(),
): Promise<X402Settled> {
  const payment = readMppCredential(credential, ref, now);
  const { accepted, payload } = payment;
  // readMppCredential read this quote from the challenge.
  const quote = readX402Quote(accepted.extra.quote);
  const known = await database.x402Settlement.findUnique({
    where: {
      network_asset_payer_nonce: {
        network: quote?.network ?? "",
        asset: accepted.asset.toLowerCase(),
        payer: payload.authorization.from.toLowerCase(),
        nonce: payload.authorization.nonce.toLowerCase(),
      },
    },
    select: { status: true },
  });
  if (known && known.status !== "SETTLING")
    throw paymentRefused(
      "credential_used",
      "This credential's authorization was already presented; pay the fresh challenge instead.",
    );
  return settleX402Payment(database, ref, payment, now);
}

/** The Payment-Receipt header of a settled payment: base64url JSON, as mppx's servers send it. */
export function mppReceipt({ settlement }: X402Settled, now = new Date()): string {
  return Receipt.serialize({
    method: mppMethod,
    reference: settlement.transaction ?? "",
    status: "success",
    timestamp: now.toISOString(),
  });
}
