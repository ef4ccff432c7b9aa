import { z } from "zod";
import { listOf, refundObject, refundStatusValues } from "../shapes";
import { paging, refundId } from "./arguments";
import { defineContract, destructiveCreate, read, toolOf } from "./contract";

const readRow = { row: "refunds.read", access: "read", role: "member" } as const;

export const createRefund = defineContract({
  operationId: "createRefund",
  method: "post",
  path: "/api/private/refunds",
  input: {
    body: z.object({
      invoiceId: z.string().max(64).describe("The paid invoice (inv_…), e.g. from service_transactions_list"),
      amount: z
        .string()
        .max(40)
        .optional()
        .describe('Decimal string in the invoice\'s token, e.g. "16.5"; default: all that is left to refund'),
      destination: z
        .string()
        .max(64)
        .describe(
          '"payer" (the address that paid), "claim" (a link for the buyer) or an address on the invoice\'s network: 0x… on EVM, base58 on Solana (a wallet, not a token account)',
        ),
      reason: z.string().max(500).optional().describe("Shown to the buyer and in the dashboard"),
    }),
  },
  result: refundObject,
  authority: { row: "refunds.create", access: "write", role: "owner", routesMoney: true },
  tool: {
    name: "service_refunds_create",
    title: "Refund an invoice",
    description:
      "Sends money back on chain for a paid invoice (inv_…), in the invoice's token on its network: to the address that paid (destination payer), through a claim link where the buyer enters an address (claim), or to an address you name. Moves money: needs the user's confirmation (the first call returns a preview of amount, token, network and destination with a confirmation token, error code confirmation_required; ask the user, and only if they agree call again with the token). An agent's refund to the payer within the organization's daily cap goes out (status pending); a claim link, a named address or more than the cap becomes a proposal an owner confirms in the dashboard (status requires_approval). Follow it with service_refunds_get.",
    annotations: destructiveCreate,
    confirmation: true,
  },
  cli: {
    command: "refunds:create",
    description:
      "Refund a paid invoice on chain: to the address that paid, through a claim link, or to an address. Needs --confirm.",
    example: "crypto-checkout refunds:create --invoice inv_… --amount 16.5 --destination payer --confirm",
    rename: { invoiceId: "invoice" },
    add: { idempotencyKey: { value: "key", description: "16 to 200 characters; generated when absent" } },
    confirm: "confirm that money is sent and cannot be taken back",
    differs: {
      invoiceId: "--invoice, for brevity",
      idempotencyKey: "REST's Idempotency-Key header: a retry with the same key refunds once",
    },
  },
});

export const listRefunds = defineContract({
  operationId: "listRefunds",
  method: "get",
  path: "/api/private/refunds",
  input: {
    query: z.object({
      invoiceId: z.string().max(64).optional().describe("Only this invoice's refunds"),
      status: z.enum(refundStatusValues).optional(),
      ...paging,
    }),
  },
  result: listOf(refundObject),
  authority: readRow,
  tool: {
    name: "service_refunds_list",
    title: "List refunds",
    description:
      "Lists this organization's refunds, newest first, a page at a time; filter by invoice (inv_…) or status (requires_approval, pending_claim, pending, submitted, succeeded, failed).",
    annotations: read,
  },
  cli: {
    command: "refunds:list",
    description: "List refunds, newest first; filter by invoice or status.",
    example: "crypto-checkout refunds:list --invoice inv_… --status pending",
    rename: { invoiceId: "invoice" },
    describe: { status: "Only refunds in this status" },
    differs: { invoiceId: "--invoice, for brevity" },
  },
});

export const retrieveRefund = defineContract({
  operationId: "retrieveRefund",
  method: "get",
  path: "/api/private/refunds/{id}",
  input: { params: z.object({ id: refundId }) },
  result: refundObject,
  authority: readRow,
  tool: {
    name: "service_refunds_get",
    title: "Get a refund",
    description:
      "Reads one refund: its status, the address it goes to (never its claim link, which only an owner or the API key sees), and the transaction hash once sent (failureReason or pendingReason say why it failed or waits).",
    annotations: read,
  },
  cli: {
    command: "refunds:get",
    description: "Show one refund.",
    example: "crypto-checkout refunds:get --id rfd_…",
  },
});

export const refundContracts = [createRefund, listRefunds, retrieveRefund];
export const refundTools = [toolOf(createRefund), toolOf(listRefunds), toolOf(retrieveRefund)] as const;
