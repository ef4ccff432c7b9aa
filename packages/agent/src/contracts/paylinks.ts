import { z } from "zod";
import { listOf, paylinkObject } from "../shapes";
import { amount, currency, paging, paylinkId, recurring } from "./arguments";
import { create, defineContract, destructiveUpdate, read, toolOf, update } from "./contract";

const row = { row: "paylinks.write", access: "write", role: "member" } as const;
const readRow = { row: "paylinks.read", access: "read", role: "member" } as const;

export const createPaylink = defineContract({
  operationId: "createPaylink",
  method: "post",
  path: "/api/private/paylinks/create",
  input: {
    body: z.object({
      name: z.string().max(255).describe("What the buyer pays for"),
      description: z.string().max(1000).optional(),
      amount,
      currency,
      enabled: z.boolean().optional().describe("Default true"),
      recurring: recurring.optional(),
    }),
  },
  result: paylinkObject,
  status: 201,
  authority: row,
  tool: {
    name: "service_paylinks_create",
    title: "Create a paylink",
    description:
      "Creates a reusable payment link with a fixed price that any number of buyers can pay (e.g. a product or donation button). Check service_paylinks_list first to reuse an existing one with the same name and price. For one order with its own amount use service_checkout_sessions_create. Returns the paylink with its public `url`.",
    annotations: create,
  },
  cli: {
    command: "paylinks:create",
    description: "Create a paylink: a reusable fixed-price payment page.",
    example: `crypto-checkout paylinks:create --json '{"name":"T-shirt","amount":"25.00","currency":"USD"}'`,
    json: "{ name, amount, currency, description?, enabled?, recurring? } (inline, @file or -)",
    differs: { json: "recurring is an object" },
  },
});

export const listPaylinks = defineContract({
  operationId: "listPaylinks",
  method: "get",
  path: "/api/private/paylinks",
  input: { query: z.object(paging) },
  result: listOf(paylinkObject),
  authority: readRow,
  tool: {
    name: "service_paylinks_list",
    title: "List paylinks",
    description:
      "Lists this organization's paylinks, newest first, a page at a time. Use it to find a paylink to reuse before creating one.",
    annotations: read,
  },
  cli: {
    command: "paylinks:list",
    description: "List paylinks, newest first.",
    example: "crypto-checkout paylinks:list --page 1 --rows 20",
  },
});

export const retrievePaylink = defineContract({
  operationId: "retrievePaylink",
  method: "get",
  path: "/api/private/paylinks/{id}",
  input: { params: z.object({ id: paylinkId }) },
  result: paylinkObject,
  authority: readRow,
  tool: {
    name: "service_paylinks_get",
    title: "Get a paylink",
    description:
      "Reads one paylink of this organization by id, with its public `url` and whether it is enabled.",
    annotations: read,
  },
  cli: {
    command: "paylinks:get",
    description: "Show one paylink.",
    example: "crypto-checkout paylinks:get --id 0b6f…",
  },
});

export const editPaylink = defineContract({
  operationId: "editPaylink",
  method: "post",
  path: "/api/private/paylinks/edit",
  input: {
    body: z.object({
      id: paylinkId,
      name: z.string().max(255).optional(),
      description: z.string().max(1000).nullable().optional().describe("null clears it"),
      amount: amount.optional(),
      currency: currency.optional(),
      enabled: z.boolean().optional().describe("true re-enables a disabled paylink"),
      recurring: recurring.nullable().optional().describe("null makes it a one-time price"),
    }),
  },
  result: paylinkObject,
  authority: row,
  tool: {
    name: "service_paylinks_edit",
    title: "Edit a paylink",
    description:
      "Changes a paylink's name, description or price (amount and currency together), or re-enables it; fields left out stay as they are. Sessions already started keep their price. To disable a paylink use service_paylinks_disable.",
    annotations: update,
    narrow: { enabled: z.literal(true).optional().describe("true re-enables a disabled paylink") },
    differs: { enabled: "only true: disabling stops payments, so it is service_paylinks_disable, confirmed" },
  },
});

export const disablePaylink = defineContract({
  operationId: "disablePaylink",
  method: "post",
  path: "/api/private/paylinks/disable",
  input: {
    body: z.object({ id: paylinkId, confirm: z.boolean().optional().describe("Must be true") }),
  },
  result: paylinkObject,
  authority: row,
  tool: {
    name: "service_paylinks_disable",
    title: "Disable a paylink",
    description:
      "Disables a paylink: buyers opening its link get 'not found' and no new payments can start. Needs the user's confirmation: the first call returns a preview and a confirmation token (error code confirmation_required); ask the user, and only if they agree call again with the token.",
    annotations: destructiveUpdate,
    confirmation: true,
    omit: ["confirm"],
    differs: { confirm: "the confirmation step (a preview, then the token) stands for REST's confirm: true" },
  },
  cli: {
    command: "paylinks:disable",
    description: "Disable a paylink: its page stops taking payments. Needs --confirm.",
    example: "crypto-checkout paylinks:disable --id 0b6f… --confirm",
    confirm: "confirm that buyers can no longer pay through this paylink",
  },
});

export const paylinkContracts = [createPaylink, listPaylinks, retrievePaylink, editPaylink, disablePaylink];
export const paylinkTools = [
  toolOf(createPaylink),
  toolOf(listPaylinks),
  toolOf(retrievePaylink),
  toolOf(editPaylink),
  toolOf(disablePaylink),
] as const;
