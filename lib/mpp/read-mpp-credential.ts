import type { PaymentRequirements } from "@x402/core/types";
import { Challenge, Credential, PaymentRequest } from "mppx";
import { keccak256, stringToBytes } from "viem";
import { z } from "zod";
import type { X402ResourceRef } from "../x402/find-x402-resource";
import { readX402Payment, type X402Payment } from "../x402/read-x402-payment";
import { paymentRefused } from "../x402/x402-payment-errors";
import { readX402Quote } from "../x402/x402-quote-token";
import { findX402Payable, x402Requirements } from "../x402/x402-requirements";
import { mppChallengeKey, mppIntent, mppMethod, mppRealm } from "./mpp-challenges";
import { invalidChallenge, malformedCredential } from "./mpp-problems";

// The EVM charge's `authorization` credential payload, as mppx's EVM client signs it: the
// EIP-3009 authorization's fields beside its type and signature, read as x402's (readX402Payment).
const authorizationPayload = z.object({ type: z.literal("authorization"), signature: z.unknown() });

const quoteMeta = z.object({ quote: z.string() });

function deserialize(header: string) {
  try {
    return Credential.deserialize(header);
  } catch {
    throw malformedCredential("not base64url JSON of a challenge and a payload");
  }
}

function quoteOf(opaque: string | undefined) {
  try {
    const meta = quoteMeta.safeParse(opaque ? PaymentRequest.deserialize(opaque) : undefined);
    return meta.success ? readX402Quote(meta.data.quote) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An MPP credential (the `Authorization: Payment …` value) for the resource at `ref`, read as the
 * x402 payment it amounts to: its challenge must be one we issued (the HMAC of its id), for this
 * resource, unexpired; its payload an EIP-3009 authorization whose nonce is the challenge's hash
 * (keccak256 of id and realm, as mppx's client signs it), so a challenge pays once per payer. The
 * amount, recipient, window and signature are then checked by the x402 path, against the quote
 * the challenge carries. Refusals are 402 with our codes (lib/mpp/mpp-problems.ts).
 */
export function readMppCredential(header: string, ref: X402ResourceRef, now: Date): X402Payment {
  const { challenge, payload } = deserialize(header);
  if (challenge.method !== mppMethod || challenge.intent !== mppIntent)
    throw invalidChallenge(
      "invalid_challenge",
      `Only the ${mppMethod} ${mppIntent} challenges offered here are accepted.`,
    );
  if (challenge.realm !== mppRealm() || !Challenge.verify(challenge, { secretKey: mppChallengeKey() }))
    throw invalidChallenge();
  const quote = quoteOf(challenge.opaque);
  const payable = quote && findX402Payable(quote.network, quote.token);
  if (!quote || !payable) throw invalidChallenge();
  if (quote.resource.kind !== ref.kind || quote.resource.id !== ref.id)
    throw invalidChallenge(
      "challenge_for_another_resource",
      "The credential's challenge was issued for another resource; use this one's challenge.",
    );
  if (!challenge.expires || Date.parse(challenge.expires) <= now.getTime())
    throw paymentRefused("challenge_expired", "The challenge has expired; use a fresh one.");
  const payment = asX402Payment(payload, x402Requirements(quote, payable));
  const { nonce } = payment.payload.authorization;
  if (nonce.toLowerCase() !== keccak256(stringToBytes(`${challenge.id}${challenge.realm}`)))
    throw paymentRefused(
      "nonce_mismatch",
      "The authorization's nonce is not the challenge's (keccak256 of its id and realm); sign it for this challenge.",
    );
  return payment;
}

/** The payload as the x402 payment of `accepted` it signs, or a malformed credential. */
function asX402Payment(payload: unknown, accepted: PaymentRequirements): X402Payment {
  const { success } = authorizationPayload.safeParse(payload);
  const { type: _type, signature, ...authorization } = (payload ?? {}) as Record<string, unknown>;
  try {
    if (!success) throw new Error("not an authorization");
    return readX402Payment({ x402Version: 2, accepted, payload: { authorization, signature } });
  } catch {
    throw malformedCredential("the payload is not an EIP-3009 authorization");
  }
}
