import { listNote, toolResult } from "crypto-checkout-agent/catalog";
import { createPaylink } from "../../paylinks/create-paylink";
import { disablePaylink } from "../../paylinks/disable-paylink";
import { editPaylink } from "../../paylinks/edit-paylink";
import { getPaylink } from "../../paylinks/get-paylink";
import { listPaylinks } from "../../paylinks/list-paylinks";
import { createPaylinkSchema, disablePaylinkSchema, editPaylinkSchema } from "../../paylinks/paylink-schemas";
import { serializePaylink } from "../../paylinks/serialize-paylink";
import { listPage } from "../../validation/list-page";
import { parseOrThrow } from "../../validation/validation-error";
import { confirmToolCall } from "./confirm-tool-call";
import { pageOf, type ToolHandlers } from "./tool-context";

export const paylinkTools: ToolHandlers<"service_paylinks_"> = {
  service_paylinks_create: async (input, { db, caller }) =>
    toolResult(
      serializePaylink(
        await createPaylink(db, caller.organizationId, parseOrThrow(createPaylinkSchema, input)),
      ),
    ),

  service_paylinks_list: async (input, { db, caller }) => {
    const paging = pageOf(input);
    const { paylinks, total } = await listPaylinks(db, caller.organizationId, paging);
    const page = listPage(paylinks.map(serializePaylink), paging, total);
    return toolResult(page, listNote(page));
  },

  service_paylinks_get: async ({ id }, { db, caller }) =>
    toolResult(serializePaylink(await getPaylink(db, caller.organizationId, id))),

  service_paylinks_edit: async (input, { db, caller }) =>
    toolResult(
      serializePaylink(await editPaylink(db, caller.organizationId, parseOrThrow(editPaylinkSchema, input))),
    ),

  service_paylinks_disable: async (input, context) => {
    const { db, caller } = context;
    const request = parseOrThrow(disablePaylinkSchema, { id: input.id, confirm: true });
    const paylink = serializePaylink(await getPaylink(db, caller.organizationId, request.id));
    const gate = await confirmToolCall(
      context,
      `Disable paylink "${paylink.name}" (${paylink.amount} ${paylink.currency}, ${paylink.url})? Buyers opening the link will get "not found" and no new payments can start through it.`,
      paylink,
    );
    if (!gate.proceed) return gate.result;
    return toolResult(serializePaylink(await disablePaylink(db, caller.organizationId, request, gate.use)));
  },
};
