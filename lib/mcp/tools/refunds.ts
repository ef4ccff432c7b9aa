import { listNote, toolResult } from "crypto-checkout-agent/catalog";
import { networkName } from "../../config";
import { createRefund } from "../../refunds/create-refund";
import { getRefund } from "../../refunds/get-refund";
import { listRefunds } from "../../refunds/list-refunds";
import { previewRefund } from "../../refunds/preview-refund";
import { refundRequester } from "../../refunds/refund-requester";
import { createRefundSchema, listRefundsQuery } from "../../refunds/refund-schemas";
import { serializeRefund } from "../../refunds/serialize-refund";
import { listPage } from "../../validation/list-page";
import { parseOrThrow } from "../../validation/validation-error";
import { confirmToolCall } from "./confirm-tool-call";
import type { ToolHandlers } from "./tool-context";

export const refundTools: ToolHandlers<"service_refunds_"> = {
  service_refunds_create: async (input, context) => {
    const { db, caller } = context;
    // Checked before asking, so the user confirms only a refund that can be asked for.
    const request = parseOrThrow(createRefundSchema, {
      invoiceId: input.invoiceId,
      amount: input.amount,
      destination: input.destination,
      reason: input.reason,
    });
    const preview = await previewRefund(db, caller.organizationId, request);
    const to =
      request.destination === "payer"
        ? `to the address that paid, ${preview.toAddress}`
        : request.destination === "claim"
          ? "through a claim link where the buyer enters an address"
          : `to ${preview.toAddress}, an address you named (a wrong address loses the money)`;
    const gate = await confirmToolCall(
      context,
      `Refund ${preview.amount} ${preview.token} on ${networkName(preview.network)} of invoice ${request.invoiceId} ${to}${
        request.reason ? ` (reason: "${request.reason}")` : ""
      }? ${
        context.decision === "propose"
          ? `This connection refunds on its own only to the payer and within the organization's daily cap for agents (${preview.agentDailyCapUsd} USD); a claim link, a named address or a refund beyond the cap becomes a proposal (status requires_approval): every owner is emailed and it is sent only if an owner confirms it.`
          : `It is sent on chain from the refund wallet${request.destination === "claim" ? " once the buyer enters an address" : ""} and cannot be undone.`
      }`,
      { left: preview.left, toAddress: preview.toAddress },
    );
    if (!gate.proceed) return gate.result;
    const { body, refund } = await createRefund(db, {
      organizationId: caller.organizationId,
      request,
      requestedBy: refundRequester(caller),
      idempotency: null,
      alongside: gate.use,
      // A tool's result reaches the model and its app: never a claim link, whoever the credential is.
      reader: null,
    });
    return toolResult(
      body as Record<string, unknown>,
      refund?.status === "REQUIRES_APPROVAL"
        ? "Proposed, not sent: every owner was emailed a link to confirm or reject it in the dashboard. Follow it with service_refunds_get."
        : undefined,
    );
  },

  service_refunds_list: async ({ invoiceId, status, page, rows }, { db, caller }) => {
    const query = parseOrThrow(listRefundsQuery, { invoiceId, status, page, rows });
    const { refunds, total } = await listRefunds(db, caller.organizationId, query);
    const result = listPage(
      refunds.map((refund) => serializeRefund(refund, null)),
      query,
      total,
    );
    return toolResult(result, listNote(result));
  },

  service_refunds_get: async ({ id }, { db, caller }) =>
    toolResult(serializeRefund(await getRefund(db, caller.organizationId, id), null)),
};
