import { z } from "zod";
import { isoTimestamp } from "./common";

export const brandingObject = z
  .object({
    displayName: z.string().nullable().meta({ description: "Shown to buyers instead of the name" }),
    color: z.string().nullable().meta({ description: "#rrggbb accent of the hosted page" }),
    logoUrl: z.string().nullable(),
  })
  .meta({ id: "Branding" });

export const merchantDetailsObject = z
  .object({
    legalName: z.string().nullable(),
    address: z.string().nullable().meta({ description: "Postal address, lines separated by newlines" }),
    taxId: z.string().nullable().meta({ description: "VAT or other tax id" }),
    supportEmail: z.string().nullable().meta({ description: "Where buyers write with questions" }),
  })
  .meta({
    id: "MerchantDetails",
    description: "The merchant as buyers' receipts name it; null when not set",
  });

export const pendingSettlementWallet = z
  .object({
    id: z.string().meta({ example: "stc_…" }),
    network: z.string(),
    address: z.string().nullable().meta({ description: "null: the network's wallet is removed" }),
    status: z.enum(["proposed", "scheduled"]).meta({
      description:
        "proposed: an owner confirms or rejects it in the dashboard; scheduled: takes effect at effectiveAt unless an owner cancels it",
    }),
    proposedBy: z.object({
      kind: z.enum(["owner", "api_key", "agent", "oauth"]),
      name: z.string().meta({ description: "The owner's email, or the key's, agent's or app's name" }),
    }),
    proposedAt: isoTimestamp,
    effectiveAt: isoTimestamp.nullable().meta({ description: "null while proposed" }),
  })
  .meta({ id: "PendingSettlementWallet" });

export const organizationObject = z
  .object({
    id: z.string(),
    object: z.literal("organization"),
    name: z.string(),
    webhookUrl: z.string().nullable(),
    settlementWallets: z
      .array(z.object({ network: z.string(), address: z.string() }))
      .meta({ description: "The wallets in force: where sweeps go now" }),
    pendingSettlementWallets: z
      .array(pendingSettlementWallet)
      .meta({ description: "Changes of the settlement wallets that wait for an owner or for their time" }),
    apiVersion: z.string().meta({
      description: "The API version requests are answered in unless they name one in X-Service-Version",
      example: "2026-11-26",
    }),
    subscriptionGraceDays: z.number().int().meta({
      description: "Days a PAST_DUE subscription waits for its renewal payment before it is cancelled",
    }),
    refundAgentDailyCapUsd: z.string().meta({
      description: "What agent credentials and OAuth tokens may refund to payers per UTC day, in USD",
      example: "100.00",
    }),
    autoRefundOverpayments: z
      .boolean()
      .meta({ description: "The overpaid part of a confirmed invoice goes back to its payer automatically" }),
    monthlyReportEmail: z.boolean().meta({
      description: "Last month's totals and payments report link are emailed to the owners on the 1st",
    }),
    monthlyReportTo: z.string().nullable().meta({
      description: "The one owner's email it goes to; null for every owner",
    }),
    branding: brandingObject,
    merchantDetails: merchantDetailsObject,
    receiptEmails: z.boolean().meta({
      description:
        "Buyers are emailed their receipts (payment confirmed, refund succeeded) when the session has their email",
    }),
    createdAt: isoTimestamp,
  })
  .meta({ id: "Organization" });
