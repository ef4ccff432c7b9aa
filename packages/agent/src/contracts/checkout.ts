import { z } from "zod";
import { checkoutSessionDetailObject, createdCheckoutSessionObject } from "../shapes";
import { amount, currency, paylinkId, recurring } from "./arguments";
import { create, defineContract, read, toolOf } from "./contract";

const sessionId = z.object({ id: z.string().max(64).describe("Checkout session id (ycs_…)") });

export const createCheckoutSession = defineContract({
  operationId: "createCheckoutSession",
  method: "post",
  path: "/api/checkout-sessions",
  input: {
    // REST's body is one of two shapes (a price, or a paylinkId); clients see their fields together.
    body: z.object({
      amount: amount.optional().describe('Price, e.g. "49.00"; with currency, or use paylinkId'),
      currency: currency.optional(),
      paylinkId: paylinkId.optional().describe("Take name and price from this paylink instead"),
      recurring: recurring
        .optional()
        .describe("With amount + currency: bill again every interval (a paylink brings its own)"),
      description: z.string().max(1000).optional().describe("Shown to the buyer (standalone sessions only)"),
      customerEmail: z.string().max(254).optional(),
      customerName: z.string().max(255).optional(),
      clientReferenceId: z.string().max(255).optional().describe("Your reference for the buyer or cart"),
      merchantOrderId: z.string().max(255).optional().describe("Your order id; echoed in webhooks"),
      metadata: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
        .optional()
        .describe("Up to 20 flat key/value pairs, echoed in webhooks"),
      successUrl: z.string().max(2048).optional().describe("http(s) URL the buyer returns to after paying"),
      cancelUrl: z.string().max(2048).optional().describe("http(s) URL the buyer returns to on cancel"),
      expiresInMinutes: z.number().int().min(5).max(1440).optional().describe("5-1440, default 60"),
      network: z
        .string()
        .max(32)
        .optional()
        .describe(
          "With token: start the payment on this network now (e.g. solana, solana-local, base); paymentRequest then holds the address, the Solana Pay reference and the paymentUri to pay",
        ),
      token: z.string().max(10).optional().describe('With network: the token to pay in, e.g. "USDC"'),
    }),
  },
  result: createdCheckoutSessionObject,
  authority: { row: "checkoutSessions.create", access: "write", role: "member" },
  tool: {
    name: "service_checkout_sessions_create",
    title: "Create a checkout session",
    description:
      "Creates a one-off hosted checkout for one order: either a price (amount + currency) or a paylinkId (price taken from the paylink). Use a paylink instead for a reusable link shared with many buyers. Returns the session with `url` to send the buyer to; with network and token (e.g. solana + USDC) the payment starts at once and `paymentRequest` holds the deposit address, the Solana Pay `reference` and the `paymentUri` a wallet pays; then follow it with service_payments_status or the payment.confirmed webhook. A retry with the same idempotencyKey and arguments returns the same session.",
    annotations: create,
    add: {
      idempotencyKey: z
        .string()
        .min(16)
        .max(200)
        .describe("16-200 printable characters, unique per order attempt; reuse it only to retry"),
    },
    differs: {
      idempotencyKey: "REST's Idempotency-Key header, which a tool call cannot send; required here",
    },
  },
  cli: {
    command: "payments:create",
    description:
      "Create a checkout session (a one-off payment) and print the URL to send the buyer to; with a network and token, also the address and wallet link (Solana Pay) to pay.",
    example: `crypto-checkout payments:create --json '{"amount":"25.00","currency":"USD","network":"solana","token":"USDC"}'`,
    json: "the checkout session request (inline, @file or -)",
    add: { idempotencyKey: { value: "key", description: "16 to 200 characters; generated when absent" } },
    differs: {
      json: "recurring and metadata are objects",
      idempotencyKey: "REST's Idempotency-Key header: a retry with the same key returns the same session",
    },
  },
});

export const retrieveCheckoutSession = defineContract({
  operationId: "retrieveCheckoutSession",
  method: "get",
  path: "/api/checkout-sessions/{id}",
  input: { params: sessionId },
  result: checkoutSessionDetailObject,
  authority: { row: "checkoutSessions.read", access: "read", role: "member" },
  tool: {
    name: "service_checkout_sessions_get",
    title: "Get a checkout session",
    description:
      "Reads one checkout session of this organization with its payment summary (null until the buyer starts paying). For just the paid/not paid answer use service_payments_status.",
    annotations: read,
  },
  cli: {
    command: "payments:status",
    description: "Show a payment's status: a checkout session (ycs_…) or a payment request (inv_…).",
    example: "crypto-checkout payments:status --id ycs_…",
    describe: { id: "A checkout session id (ycs_…) or payment id (inv_…)" },
    differs: { id: "a payment request's id (inv_…) too, read from the public payment status endpoint" },
  },
});

export const checkoutContracts = [createCheckoutSession, retrieveCheckoutSession];
export const checkoutTools = [toolOf(createCheckoutSession), toolOf(retrieveCheckoutSession)] as const;
