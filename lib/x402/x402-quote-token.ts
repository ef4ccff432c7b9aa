import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { config } from "../config";

// An unpaid x402 request stores nothing: its quote (price, deposit address, expiry) travels to
// the agent in the payment option's `extra` and comes back in the payment's `accepted`
// requirements, which the official client copies whole (@x402/core's createPaymentPayload). The
// HMAC below, under a key derived from SERVICE_SECRET_KEY, proves the quote is ours and unchanged.

export const x402ResourceKinds = ["paylink", "checkout_session"] as const;
export type X402ResourceKind = (typeof x402ResourceKinds)[number];

export const x402QuoteSchema = z.strictObject({
  resource: z.strictObject({ kind: z.enum(x402ResourceKinds), id: z.string() }),
  /** Configured network id and token symbol. */
  network: z.string(),
  token: z.string(),
  /** The amount in base units, and the invoice's frozen quote. */
  amount: z.string().regex(/^[0-9]+$/),
  amountDue: z.string(),
  rate: z.string(),
  /** What this quote pays in USD (of an existing invoice: what is still due). */
  amountUsd: z.string(),
  quotedAt: z.iso.datetime(),
  quoteSource: z.string(),
  quoteExpiresAt: z.iso.datetime().nullable(),
  /** The deposit address and its BIP32 index (lib/x402/quote-x402-payment.ts). */
  derivationIndex: z.number().int().min(0),
  payTo: z.string(),
  /**
   * Where payTo is shared by many invoices (Solana's receiving wallet): the invoice's reference,
   * which the agent's transaction carries as its memo (lib/chains/x402-transaction-scheme.ts).
   */
  reference: z.string().nullable().optional(),
  /** The checkout session's existing invoice this quote pays, if it had one. */
  invoiceId: z.string().nullable(),
  expiresAt: z.iso.datetime(),
});
export type X402Quote = z.output<typeof x402QuoteSchema>;

function quoteKey(): Buffer {
  const secretKey = config().secretKey;
  if (!secretKey) throw new Error("SERVICE_SECRET_KEY is not set; x402 quotes need it");
  return Buffer.from(hkdfSync("sha256", secretKey, "", "x402-quote", 32));
}

const mac = (body: string) => createHmac("sha256", quoteKey()).update(body).digest();

/** The quote as `<base64url JSON>.<base64url HMAC>`. */
export function signX402Quote(quote: X402Quote): string {
  const body = Buffer.from(JSON.stringify(quote)).toString("base64url");
  return `${body}.${mac(body).toString("base64url")}`;
}

/** The quote a token carries, or undefined when it is not one we signed (or not a string at all). */
export function readX402Quote(token: unknown): X402Quote | undefined {
  if (typeof token !== "string") return undefined;
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = mac(body);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const parsed = x402QuoteSchema.safeParse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
