import { z } from "zod";
import { checkoutSessionObject, paymentSummaryObject, recurringIntervals } from "../shapes";

// Argument shapes the tools share, and the results only tools give. The public objects the tools
// return are the API's own (../shapes). The catalogue is published with the agent kit, so it cannot
// import the app's request schemas: the arguments here describe them for clients, and the servers
// still validate every call with the API's own rules (so errors carry REST's codes).

export const currencies = ["USD", "EUR", "GBP"] as const;

export const amount = z
  .string()
  .describe('Decimal string in the currency\'s unit, e.g. "49.00" (never a number, never minor units)');

export const currency = z.enum(currencies).describe("Pricing currency");

export const paylinkId = z.string().max(64).describe("Paylink id (a UUID)");

export const webhookEndpointId = z.string().max(64).describe("Webhook endpoint id (we_…)");

export const confirmationToken = z
  .string()
  .max(2048)
  .optional()
  .describe(
    "Leave out on the first call: the tool then refuses with `confirmation_required` and returns a preview and a token. Show the preview to the user; only after they agree, call again with the same arguments and this token.",
  );

export const paging = {
  page: z.number().int().min(1).max(1_000_000).optional().describe("Page number, from 1 (default 1)"),
  rows: z.number().int().min(1).max(100).optional().describe("Rows per page, 1-100 (default 20)"),
};

/** The paid/not paid answer of service_payments_status: the session's status and payment summary. */
export const paymentStatusObject = z.object({
  object: z.literal("payment_status"),
  checkoutSessionId: z.string(),
  sessionStatus: checkoutSessionObject.shape.status,
  paid: z.boolean().describe("True only when the full amount is confirmed on chain"),
  payment: paymentSummaryObject.nullable(),
});

export const agentCredentialResult = z.object({
  object: z.string(),
  status: z.string(),
  agentName: z.string().optional(),
  access: z.enum(["read", "write"]).optional(),
  organization: z.object({ id: z.string(), name: z.string() }).optional(),
  expiresAt: z.string().optional(),
  pollIntervalSeconds: z.number().optional(),
});

export const recurring = z
  .strictObject({
    interval: z.enum(recurringIntervals),
    intervalCount: z.number().int().min(1).max(12).optional().describe("1-12, default 1"),
  })
  .describe("Sell a subscription: the buyer is billed again every intervalCount intervals");

export const refundId = z.string().max(64).describe("Refund id (rfd_…)");

export const subscriptionId = z.string().max(64).describe("Subscription id (sub_…)");
