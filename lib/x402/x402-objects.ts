import { decimalString, isoTimestamp, recurringObject } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { publicCheckoutSessionObject } from "../checkout/serialize-checkout-session";
import { publicPaymentObject } from "../payments/serialize-public-payment";
import { x402ResourceKinds } from "./x402-quote-token";

// The JSON bodies of /api/x402/*. The protocol itself travels in the PAYMENT-REQUIRED and
// PAYMENT-RESPONSE headers (x402 v2); these bodies say the same for people and plain clients.

export const x402OptionObject = z.object({
  scheme: z.literal("exact"),
  network: z.string().meta({ description: "CAIP-2 network id, e.g. eip155:8453" }),
  networkId: z.string().meta({ description: "This service's network id" }),
  networkName: z.string(),
  token: z.string(),
  asset: z.string().meta({ description: "The token contract" }),
  amount: decimalString.meta({ description: "In token units (the header's `amount` is in base units)" }),
  payTo: z.string().meta({ description: "The deposit address the authorization pays" }),
  expiresAt: isoTimestamp.meta({ description: "Pay before then, or ask again for a fresh quote" }),
});

export const x402PaymentRequiredObject = z
  .object({
    // RFC 9457, with the "Payment" scheme's problem types (lib/mpp/mpp-problems.ts).
    type: z.string().meta({
      description:
        "Problem type: https://paymentauth.org/problems/payment-required when nothing was sent, else why the payment was refused (verification-failed, malformed-credential, invalid-challenge, payment-expired)",
    }),
    title: z.string(),
    status: z.literal(402),
    detail: z.string(),
    challengeId: z.string().optional().meta({ description: "The first MPP challenge's id" }),
    object: z.literal("x402_payment_required"),
    x402Version: z.literal(2),
    resource: z.object({ kind: z.enum(x402ResourceKinds), id: z.string(), url: z.string() }),
    merchantName: z.string(),
    description: z.string().nullable(),
    amount: decimalString,
    currency: z.string(),
    recurring: recurringObject,
    accepts: z.array(x402OptionObject),
    error: z
      .object({ type: z.string(), code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: "Why the payment sent was refused; null when none was sent" }),
  })
  .meta({ id: "X402PaymentRequired" });

export const x402PaymentObject = z
  .object({
    object: z.literal("x402_payment"),
    network: z.string().meta({ description: "CAIP-2 network id" }),
    transaction: z.string().meta({ description: "The settling transferWithAuthorization's hash" }),
    payer: z.string(),
    receiptUrl: z.string().meta({ description: "The hosted page, which shows the receipt" }),
    checkoutSession: publicCheckoutSessionObject,
    payment: publicPaymentObject,
  })
  .meta({ id: "X402Payment" });

export type X402PaymentRequiredBody = z.output<typeof x402PaymentRequiredObject>;
export type X402PaymentBody = z.output<typeof x402PaymentObject>;
