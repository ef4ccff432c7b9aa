import { createHash } from "node:crypto";
import type { PaymentRequirements } from "@x402/core/types";
import { z } from "zod";
import type { X402Settlement } from "../generated/prisma/client";
import type { X402ResourceRef } from "./find-x402-resource";
import { paymentRefused } from "./x402-payment-errors";
import { readX402Quote } from "./x402-quote-token";
import { findX402Payable, x402Requirements } from "./x402-requirements";

const hex = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`));
const uint = z.string().regex(/^[0-9]{1,78}$/);

/** The requirements the agent accepted, as the official clients copy them from our 402. */
export const acceptedSchema = z.object({
  scheme: z.string(),
  network: z.string(),
  asset: z.string(),
  amount: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number(),
  // Unknown keys dropped: they cannot make copies of one payment differ (settleX402Payment's key).
  extra: z.object({
    quote: z.string(),
    name: z.string().optional(),
    version: z.string().optional(),
    feePayer: z.string().optional(),
    memo: z.string().optional(),
  }),
});

// The `exact` scheme's EIP-3009 payload, as @x402/evm's client signs it (docs/api.md, "x402").
const paymentPayloadSchema = z.object({
  x402Version: z.literal(2),
  accepted: acceptedSchema,
  // Strict: an EIP-3009 authorization only, so nothing else (a Permit2 payload) reaches the facilitator.
  payload: z.strictObject({
    authorization: z.object({
      from: hex(20),
      to: hex(20),
      value: uint,
      validAfter: uint,
      validBefore: uint,
      nonce: hex(32),
    }),
    signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
  }),
});

export type X402Payment = z.output<typeof paymentPayloadSchema>;
export type X402Authorization = X402Payment["payload"]["authorization"];

/** How far an authorization's validBefore may pass the quote's window: the agent's clock may run ahead. */
const clockSkewSeconds = 60;

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** An agent's PAYMENT-SIGNATURE (decoded) as an x402 v2 `exact` EIP-3009 payment, or a 402. */
export function readX402Payment(received: unknown): X402Payment {
  const inner = (received as { payload?: unknown } | null)?.payload;
  if (typeof inner === "object" && inner !== null && "permit2Authorization" in inner)
    throw paymentRefused(
      "unsupported_payment_method",
      "Only EIP-3009 authorizations (transferWithAuthorization) are accepted, not Permit2.",
    );
  const parsed = paymentPayloadSchema.safeParse(received);
  if (!parsed.success)
    throw paymentRefused("invalid_payment", "PAYMENT-SIGNATURE is not an x402 v2 exact EVM payment.");
  return parsed.data;
}

/** The requirements we quoted, rebuilt from the signed quote; the agent's copy must match them. */
export function checkAcceptedQuote(accepted: X402Payment["accepted"], ref: X402ResourceRef) {
  const quote = readX402Quote(accepted.extra.quote);
  if (!quote) throw paymentRefused("quote_invalid", "The payment does not carry a quote of this service.");
  if (quote.resource.kind !== ref.kind || quote.resource.id !== ref.id)
    throw paymentRefused("quote_for_another_resource", "The payment's quote is for another resource.");
  const asset = findX402Payable(quote.network, quote.token);
  if (!asset) throw paymentRefused("quote_invalid", "The payment's network or token is no longer accepted.");
  // Ours, `extra` too (the token's EIP-712 domain): the agent's copy is compared, never forwarded.
  const requirements = x402Requirements(quote, asset);
  const matches =
    accepted.scheme === requirements.scheme &&
    accepted.network === requirements.network &&
    sameAddress(accepted.asset, requirements.asset) &&
    accepted.amount === requirements.amount &&
    sameAddress(accepted.payTo, requirements.payTo) &&
    accepted.maxTimeoutSeconds === requirements.maxTimeoutSeconds &&
    accepted.extra.name === requirements.extra?.name &&
    accepted.extra.version === requirements.extra?.version &&
    accepted.extra.feePayer === requirements.extra?.feePayer &&
    accepted.extra.memo === requirements.extra?.memo;
  if (!matches)
    throw paymentRefused(
      "requirements_mismatch",
      "The payment's requirements differ from the quote; ask again.",
    );
  return { quote, asset, requirements };
}

/**
 * The signed authorization pays what the requirements ask, checked here before any facilitator
 * sees it: its `to` is the quote's deposit address and its `value` the quoted amount (the token
 * and network are the requirements', as `checkAcceptedQuote` compared; the signature binds them).
 * A facilitator's verify says the same, but one over HTTP may be wrong or lie.
 */
export function checkAuthorizationMatches(
  authorization: X402Authorization,
  requirements: PaymentRequirements,
) {
  if (
    !sameAddress(authorization.to, requirements.payTo) ||
    BigInt(authorization.value) !== BigInt(requirements.amount)
  )
    throw paymentRefused(
      "requirements_mismatch",
      "The signed authorization's recipient or amount differs from the quote; sign the quoted payment.",
    );
}

/**
 * An authorization valid now and for no longer than the quote asked (its maxTimeoutSeconds, and a
 * minute for the agent's clock): one valid for ages would stay a claim on the payer's balance,
 * and on our gas, long after the quote.
 */
/** The least time an authorization must have left when it arrives (the official client gives 300 s). */
const minValiditySeconds = 60;

export function checkValidityWindow(authorization: X402Authorization, maxTimeoutSeconds: number, now: Date) {
  const seconds = BigInt(Math.floor(now.getTime() / 1000));
  if (BigInt(authorization.validAfter) > seconds)
    throw paymentRefused("authorization_not_yet_valid", "The authorization's validAfter is in the future.");
  // Still valid, but too briefly for a transfer to land: it would revert on our gas, at no cost to
  // its signer, and spend the organization's gas budget.
  const validBefore = BigInt(authorization.validBefore);
  // Expired: checked here, not left to the facilitator (one over HTTP may still send it).
  if (validBefore <= seconds)
    throw paymentRefused(
      "authorization_expired",
      "The authorization's validBefore has passed; sign a new one.",
    );
  if (validBefore < seconds + BigInt(minValiditySeconds))
    throw paymentRefused(
      "authorization_expires_too_soon",
      `The authorization's validBefore is less than ${minValiditySeconds} seconds away; sign it as quoted.`,
    );
  if (BigInt(authorization.validBefore) > seconds + BigInt(maxTimeoutSeconds + clockSkewSeconds))
    throw paymentRefused(
      "authorization_valid_too_long",
      `The authorization's validBefore is more than the quote's ${maxTimeoutSeconds} seconds away; sign it as quoted.`,
    );
}

/**
 * SHA-256 of an authorization's signed fields and signature (hex lowercased): what its
 * X402Settlement row keeps, so a request reusing the nonce is known for the same payment only if
 * it carries exactly this authorization.
 */
export function authorizationHash({ authorization, signature }: X402Payment["payload"]): string {
  const { from, to, value, validAfter, validBefore, nonce } = authorization;
  const fields = [from, to, BigInt(value), BigInt(validAfter), BigInt(validBefore), nonce, signature];
  return createHash("sha256")
    .update(fields.map((field) => field.toString().toLowerCase()).join(":"))
    .digest("hex");
}

/**
 * A request carrying a known authorization's nonce must carry that authorization: a copy with
 * another recipient, value, window or signature is refused (402), never answered as the known
 * payment. Rows recorded before the hash was kept compare the fields they store.
 */
export function checkSameAuthorization(
  row: Pick<X402Settlement, "authorizationHash" | "payTo" | "amount" | "validBefore">,
  payload: X402Payment["payload"],
) {
  const { authorization } = payload;
  const same = row.authorizationHash
    ? row.authorizationHash === authorizationHash(payload)
    : sameAddress(row.payTo, authorization.to) &&
      row.amount.toFixed(0) === BigInt(authorization.value).toString() &&
      row.validBefore.getTime() === Number(authorization.validBefore) * 1000;
  if (!same)
    throw paymentRefused(
      "authorization_mismatch",
      "This authorization's nonce is known with other signed fields; send the payment as signed, or sign a new one.",
    );
}
