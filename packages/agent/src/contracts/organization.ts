import { z } from "zod";
import { listOf, organizationObject, sweepObject } from "../shapes";
import { paging } from "./arguments";
import { defineContract, destructiveUpdate, read, toolOf } from "./contract";

// The organization's settings and where its money goes. PUT /api/private/organization/current
// serves three operations, each with its own authority row and its own fields of the body: the
// settings (the route's own contract), and as parts of it the settlement wallets (confirmed,
// routes money) and what agents may refund.

const organizationPath = "/api/private/organization/current";
/** A part of the organization update with an authority row of its own (`Contract.part`). */
const updatePart = {
  operationId: "updateOrganization",
  method: "put",
  path: organizationPath,
  part: true,
} as const;

export const retrieveOrganization = defineContract({
  operationId: "retrieveOrganization",
  method: "get",
  path: organizationPath,
  input: {},
  result: organizationObject,
  authority: { row: "organization.read", access: "read", role: "member" },
  tool: {
    name: "service_organization_get",
    title: "Get organization settings",
    description:
      "Reads this organization: name, default webhook URL and settlement wallets (where payments are swept to).",
    annotations: read,
  },
  cli: {
    command: "auth:status",
    description:
      "Show whether this machine is connected, and to which organization (the proof of connection).",
    example: "crypto-checkout auth:status --format json",
  },
});

export const updateOrganization = defineContract({
  operationId: "updateOrganization",
  method: "put",
  path: organizationPath,
  input: {
    body: z.object({
      name: z.string().max(255).optional(),
      webhookUrl: z.string().max(2048).nullable().optional().describe("https URL, or null to remove"),
      apiVersion: z
        .string()
        .max(10)
        .optional()
        .describe(
          "The dated API version requests without X-Service-Version are answered in, e.g. 2026-11-26",
        ),
      subscriptionGraceDays: z
        .number()
        .int()
        .min(0)
        .max(30)
        .optional()
        .describe("Days a PAST_DUE subscription waits for its renewal payment before it is cancelled"),
      brandDisplayName: z.string().max(80).nullable().optional().describe("Name buyers see on the checkout"),
      brandColor: z
        .string()
        .max(7)
        .nullable()
        .optional()
        .describe("#rrggbb accent; must be dark enough for white text (contrast 4.5:1)"),
      logo: z
        .strictObject({
          dataBase64: z.string().max(44_000).describe("PNG, JPEG, GIF or WebP, at most 32 KiB"),
        })
        .nullable()
        .optional(),
    }),
  },
  result: organizationObject,
  authority: { row: "organization.update", access: "write", role: "owner" },
  tool: {
    name: "service_organization_update",
    title: "Update organization settings",
    description:
      "Changes the organization's name, its default webhook URL (null removes it; events then stop going there), its pinned API version, the grace period of past-due subscriptions or the hosted checkout's branding (display name, color, logo; null removes one). For settlement wallets use service_settlement_configure. What receipts say of the merchant (legal name, address, tax id, support email) and receipt emails only an owner changes, in the dashboard or with the API key.",
    annotations: destructiveUpdate,
  },
  cli: {
    command: "organization:update",
    description:
      "Change the organization (name, settlementWallets, webhookUrl, brandDisplayName, brandColor, logo): what is sent changes.",
    example: `crypto-checkout organization:update --json '{"name":"My shop","brandColor":"#1d4ed8"}'`,
    json: "the changes as a JSON object (inline, @file or -)",
    differs: { json: "logo is an object, and the route's other fields (settlementWallets) go along" },
  },
});

export const configureSettlement = defineContract({
  ...updatePart,
  input: {
    body: z.object({
      settlementWallets: z
        .array(
          z.strictObject({
            network: z.enum([
              "devnet",
              "ethereum",
              "base",
              "polygon",
              "arbitrum",
              "solana-local",
              "solana",
              "solana-devnet",
            ]),
            address: z
              .string()
              .max(64)
              .describe(
                "EVM address, 0x + 40 hex digits (EIP-55 if mixed case); on a Solana network a base58 wallet address (not a token account)",
              ),
          }),
        )
        .max(8),
    }),
  },
  result: organizationObject,
  authority: { row: "settlement.change", access: "write", role: "owner", routesMoney: true },
  tool: {
    name: "service_settlement_configure",
    title: "Configure settlement wallets",
    description:
      "Replaces the list of settlement wallets (one wallet address per network) that received payments are swept to; a network left out loses its wallet. Routes money: needs the user's confirmation (first call returns a preview and a confirmation token, error code confirmation_required; ask the user, then call again with the token). Double-check every address with the user.",
    annotations: destructiveUpdate,
    confirmation: true,
  },
  cli: {
    command: "settlement:configure",
    description: "Set the settlement wallets payments are swept to. Routes money: needs --confirm.",
    example: `crypto-checkout settlement:configure --json '{"settlementWallets":[{"network":"base","address":"0x…"}]}' --confirm`,
    json: "{ settlementWallets: [{ network, address }] } (inline, @file or -)",
    confirm: "confirm that payments go to these wallets from now on",
    differs: { json: "settlementWallets is a list of objects" },
  },
});

/** No tool: an agent must not raise its own refund cap (lib/refunds/assert-may-configure-refunds.ts). */
export const configureRefunds = defineContract({
  ...updatePart,
  input: {
    body: z.object({
      refundAgentDailyCapUsd: z
        .string()
        .optional()
        .describe("What agent credentials and OAuth tokens may refund to payers per UTC day, in USD"),
      autoRefundOverpayments: z
        .boolean()
        .optional()
        .describe("Refund the overpaid part of a confirmed invoice to its payer automatically"),
    }),
  },
  result: organizationObject,
  authority: { row: "refunds.configure", access: "write", role: "owner", routesMoney: true },
});

/**
 * No tool: the monthly report sends payers' addresses out of the service, so only an owner or an
 * API key turns it on (lib/reports/assert-may-schedule-reports.ts), and it goes only to owners.
 */
export const configureReports = defineContract({
  ...updatePart,
  input: {
    body: z.object({
      monthlyReportEmail: z
        .boolean()
        .optional()
        .describe("Email last month's totals and payments report link to the owners on the 1st"),
      monthlyReportTo: z
        .string()
        .nullable()
        .optional()
        .describe("Only this owner's email gets it; null for every owner"),
    }),
  },
  result: organizationObject,
  authority: { row: "reports.schedule", access: "write", role: "owner" },
});

/**
 * No tool: what every buyer's receipt says of the merchant (legal name, address, tax id, where to
 * write) is a lever on buyers, so only an owner (recently signed in to the dashboard) or an API key
 * changes it, and every owner is emailed (lib/organizations/assert-may-change-merchant-details.ts).
 */
export const configureReceipts = defineContract({
  ...updatePart,
  input: {
    body: z.object({
      legalName: z
        .string()
        .max(200)
        .nullable()
        .optional()
        .describe("The merchant's legal name, shown on buyers' receipts and in the payments report"),
      legalAddress: z
        .string()
        .max(500)
        .nullable()
        .optional()
        .describe("Postal address on receipts; lines separated by newlines"),
      taxId: z.string().max(50).nullable().optional().describe("VAT or other tax id shown on receipts"),
      supportEmail: z
        .string()
        .max(254)
        .nullable()
        .optional()
        .describe("Where buyers write with questions, shown on receipts"),
      receiptEmails: z
        .boolean()
        .optional()
        .describe(
          "Email buyers their receipts (payment confirmed, refund succeeded) when the session has their email",
        ),
    }),
  },
  result: organizationObject,
  authority: { row: "receipts.configure", access: "write", role: "owner" },
});

export const listSweeps = defineContract({
  operationId: "listSweeps",
  method: "get",
  path: "/api/private/sweeps",
  input: {
    query: z.object({
      ...paging,
      status: sweepObject.shape.status.optional().describe("Only sweeps in this status"),
      network: z.string().max(32).optional().describe("Only sweeps on this network id"),
      invoiceId: z.string().max(64).optional().describe("Only this invoice's sweeps (inv_…)"),
    }),
  },
  result: listOf(sweepObject),
  authority: { row: "sweeps.read", access: "read", role: "member" },
  tool: {
    name: "service_sweeps_list",
    title: "List settlement sweeps",
    description:
      "Lists the movements of received funds from invoices' deposit addresses to this organization's settlement wallets, newest first, with every transaction signed. Filter by status (FAILED ones carry a reason), network or invoice.",
    annotations: read,
  },
  cli: {
    command: "settlement:sweeps",
    description:
      "List sweeps of confirmed payments to the settlement wallets, newest first; filter by status, network or invoice.",
    example: "crypto-checkout settlement:sweeps --status FAILED",
    rename: { invoiceId: "invoice" },
    differs: { invoiceId: "--invoice, for brevity (as refunds:list)" },
  },
});

export const organizationContracts = [
  retrieveOrganization,
  updateOrganization,
  configureSettlement,
  configureRefunds,
  configureReports,
  configureReceipts,
  listSweeps,
];
export const sweepTools = [toolOf(listSweeps)] as const;
export const organizationTools = [
  toolOf(retrieveOrganization),
  toolOf(updateOrganization),
  toolOf(configureSettlement),
] as const;
